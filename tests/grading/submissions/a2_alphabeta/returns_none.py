# ruff: noqa: F821 - math comes from the notebook's setup cell
# Forgets to return at interior nodes.
# expect: test_alphabeta=0
# message: None (is a return statement missing?)
# %% alphabeta
def alphabeta(node, alpha, beta):
    if node.is_leaf():
        return node.static()
    v = -math.inf if node.is_max() else math.inf
    for child in node.children():
        w = alphabeta(child, alpha, beta)
        if w is not None:
            v = max(v, w) if node.is_max() else min(v, w)
