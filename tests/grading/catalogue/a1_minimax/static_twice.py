# ruff: noqa: F821 - the notebook defines math and the functions of its other cells
# wrong: test_minimax
# why: a leaf's value read twice (once to test it, once to return it)
# %% minimax
def minimax(node):
    if node.is_leaf() and node.static() is not None:
        return node.static()
    values = [minimax(child) for child in node.children()]
    return max(values) if node.is_max() else min(values)
