# Right values, but reads every leaf's static value twice (once to test, once to return):
# assignment 1 asks to read each leaf once, so the search half of each tree is lost.
# expect: test_minimax=3 test_minimax_limited=2.5 test_best_move=2.5
# message: called static() more than once
# %% minimax
def minimax(node):
    if node.is_leaf():
        if node.static() is None:
            raise ValueError("no value")
        return node.static()
    values = [minimax(child) for child in node.children()]
    return max(values) if node.is_max() else min(values)
# %% minimax_limited
def minimax_limited(node, max_depth):
    if node.depth == max_depth or node.is_leaf():
        value = node.static()
        return node.static() if value is not None else 0
    values = [minimax_limited(child, max_depth) for child in node.children()]
    return max(values) if node.is_max() else min(values)
# %% best_move
def best_move(node, max_depth):
    pairs = [(minimax_limited(child, max_depth), child) for child in node.children()]
    return max(pairs) if node.is_max() else min(pairs)
