# ruff: noqa: F821 - math comes from the notebook's setup cell
# Never advances to the next value: loops forever at the first node above the leaves.
# expect: test_alphabeta=0
# message: did not finish within
# %% alphabeta
def alphabeta(node, alpha, beta):
    if node.is_leaf():
        return node.static()
    values = [alphabeta(child, alpha, beta) for child in node.children()]
    i, v = 0, values[0]
    while i < len(values):
        v = max(v, values[i])
    return v
