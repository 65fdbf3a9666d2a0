# ruff: noqa: F821 - the notebook defines math and the functions of its other cells
# wrong: test_alphabeta
# bug: no_pruning
# why: plain minimax with the alpha-beta signature
# %% alphabeta
def alphabeta(node, alpha, beta):
    if node.is_leaf():
        return node.static()
    values = [alphabeta(child, alpha, beta) for child in node.children()]
    return max(values) if node.is_max() else min(values)
