# ruff: noqa: F821 - math comes from the notebook's setup cell
# Recurses on the node itself instead of its children.
# expect: test_alphabeta=0
# message: recursion too deep
# %% alphabeta
def alphabeta(node, alpha, beta):
    if node.is_leaf():
        return node.static()
    return max(alphabeta(node, alpha, beta) for child in node.children())
