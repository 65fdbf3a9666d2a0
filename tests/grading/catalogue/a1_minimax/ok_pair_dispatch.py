# ruff: noqa: F821 - the notebook defines math and the functions of its other cells
# correct: the MaxMin/MinMax pair, minimax dispatching on each node's player
# %% minimax
def max_min(node):
    if node.is_leaf():
        return node.static()
    return max(minimax(child) for child in node.children())


def min_max(node):
    if node.is_leaf():
        return node.static()
    return min(minimax(child) for child in node.children())


def minimax(node):
    return max_min(node) if node.is_max() else min_max(node)
