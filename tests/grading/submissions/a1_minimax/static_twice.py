# Right values, and reads each leaf's static value twice in a row (once to test, once to
# return): a value read twice in a row is one evaluation in every assignment (the kit's
# `evaluated_in`), so this earns full marks, as the same habit does in assignment 2.
# expect: test_minimax=6 test_minimax_limited=5 test_best_move=5
# message: evaluated all 9 leaves once
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
