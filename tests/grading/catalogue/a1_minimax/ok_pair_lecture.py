# ruff: noqa: F821 - the notebook defines math and the functions of its other cells
# correct: the lecture's MaxMin/MinMax pair (each calls the other), started by the root's player
# %% minimax
def max_min(x):
    if x.is_leaf():
        return x.static()
    best = -math.inf
    for y in x.children():
        best = max(best, min_max(y))
    return best


def min_max(x):
    if x.is_leaf():
        return x.static()
    best = math.inf
    for y in x.children():
        best = min(best, max_min(y))
    return best


def minimax(node):
    if node.is_max():
        return max_min(node)
    return min_max(node)
