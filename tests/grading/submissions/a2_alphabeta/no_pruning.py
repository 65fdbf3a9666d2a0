# ruff: noqa: F821 - math comes from the notebook's setup cell
# Minimax under alpha-beta's name: right values, every leaf evaluated.
# expect: test_alphabeta=3.5
# bug: no_pruning
# message: no pruning: your search evaluated every leaf
# %% alphabeta
def alphabeta(node, alpha, beta):
    if node.is_leaf():
        return node.static()
    values = [alphabeta(child, alpha, beta) for child in node.children()]
    return max(values) if node.is_max() else min(values)
