# ruff: noqa: F821 - the notebook defines math and the functions of its other cells
# wrong: test_minimax
# bug: parity
# why: the MaxMin/MinMax pair started with MaxMin whatever the root is
# %% minimax
def max_min(node):
    if node.is_leaf():
        return node.static()
    return max(min_max(child) for child in node.children())


def min_max(node):
    if node.is_leaf():
        return node.static()
    return min(max_min(child) for child in node.children())


def minimax(node):
    return max_min(node)
