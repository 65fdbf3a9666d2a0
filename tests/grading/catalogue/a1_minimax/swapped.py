# ruff: noqa: F821 - the notebook defines math and the functions of its other cells
# wrong: test_minimax
# bug: swapped
# why: MAX and MIN swapped
# %% minimax
def minimax(node):
    if node.is_leaf():
        return node.static()
    values = [minimax(child) for child in node.children()]
    return min(values) if node.is_max() else max(values)
