# ruff: noqa: F821 - the notebook defines math and the functions of its other cells
# correct: a leaf's value read twice in a row (once to test it, once to return it) is one
# evaluation, in assignment 1 as in assignment 2
# %% minimax
def minimax(node):
    if node.is_leaf() and node.static() is not None:
        return node.static()
    values = [minimax(child) for child in node.children()]
    return max(values) if node.is_max() else min(values)
