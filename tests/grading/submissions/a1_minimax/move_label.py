# ruff: noqa: F821 - math comes from the notebook's setup cell
# Returns the move's index instead of the child node, and searches each child twice.
# expect: test_minimax=6 test_minimax_limited=5 test_best_move=0
# message: move: the number 0, not a child node
# message: evaluated more than once
# %% minimax
def max_min(x):
    return x.static() if x.is_leaf() else max(min_max(y) for y in x.children())


def min_max(x):
    return x.static() if x.is_leaf() else min(max_min(y) for y in x.children())


def minimax(node):
    return max_min(node) if node.is_max() else min_max(node)
# %% minimax_limited
def minimax_limited(node, max_depth):
    if node.depth == max_depth or node.is_leaf():
        return node.static()
    values = [minimax_limited(child, max_depth) for child in node.children()]
    return max(values) if node.is_max() else min(values)
# %% best_move
def best_move(node, max_depth):
    values = [minimax_limited(child, max_depth) for child in node.children()]
    best = max(values) if node.is_max() else min(values)
    index = values.index(best)
    return minimax_limited(node, max_depth), index
