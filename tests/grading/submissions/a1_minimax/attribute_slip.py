# The lectures' old attribute form: `node.is_leaf` without parentheses is the method itself,
# always true, so every call returns the root's static value. The grader says what to write.
# expect: test_minimax=0 test_minimax_limited=0 test_best_move=0
# message: MissingCall: node.is_leaf is a method
# %% minimax
def minimax(node):
    if node.is_leaf:
        return node.static()
    values = [minimax(child) for child in node.children()]
    return max(values) if node.is_max() else min(values)
# %% minimax_limited
def minimax_limited(node, max_depth):
    if node.depth == max_depth or node.is_leaf:
        return node.static()
    values = [minimax_limited(child, max_depth) for child in node.children()]
    return max(values) if node.is_max() else min(values)
# %% best_move
def best_move(node, max_depth):
    pairs = [(minimax_limited(child, max_depth), child) for child in node.children()]
    return max(pairs) if node.is_max else min(pairs)
