# ruff: noqa: F821 - math comes from the notebook's setup cell
# 002's fail-hard form: while alpha < beta, return Alpha (MAX) or Beta (MIN).
# expect: test_alphabeta=8
# message: fail-hard
# %% alphabeta
def alphabeta(node, alpha, beta):
    if node.is_leaf():
        return node.static()
    children = iter(node.children())
    if node.is_max():
        child = next(children, None)
        while alpha < beta and child is not None:
            alpha = max(alpha, alphabeta(child, alpha, beta))
            child = next(children, None)
        return alpha
    child = next(children, None)
    while alpha < beta and child is not None:
        beta = min(beta, alphabeta(child, alpha, beta))
        child = next(children, None)
    return beta
