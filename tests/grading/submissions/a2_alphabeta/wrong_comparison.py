# ruff: noqa: F821 - math comes from the notebook's setup cell
# The MIN node's test at MAX nodes and the MAX node's at MIN nodes: v <= alpha at MAX.
# expect: test_alphabeta=2.5
# bug: wrong_comparison
# message: cut on the wrong comparison
# %% alphabeta
def alphabeta(node, alpha, beta):
    if node.is_leaf():
        return node.static()
    if node.is_max():
        v = -math.inf
        for child in node.children():
            v = max(v, alphabeta(child, alpha, beta))
            if v <= alpha:
                return v
            alpha = max(alpha, v)
        return v
    v = math.inf
    for child in node.children():
        v = min(v, alphabeta(child, alpha, beta))
        if v >= beta:
            return v
        beta = min(beta, v)
    return v
