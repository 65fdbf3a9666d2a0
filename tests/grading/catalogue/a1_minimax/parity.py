# ruff: noqa: F821 - the notebook defines math and the functions of its other cells
# wrong: test_minimax
# bug: parity
# why: MAX or MIN decided by the depth's parity instead of asking the node
# %% minimax
def minimax(node):
    if node.is_leaf():
        return node.static()
    values = [minimax(child) for child in node.children()]
    if node.depth % 2 == 0:
        return max(values)
    return min(values)
