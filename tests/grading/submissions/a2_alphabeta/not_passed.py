# ruff: noqa: F821 - math comes from the notebook's setup cell
# Updates alpha and beta but calls the children with a fresh window (-inf, inf) from MIN nodes.
# expect: test_alphabeta=4.5
# bug: not_passed_min
# message: not passed down from MIN nodes
# %% alphabeta
def alphabeta(node, alpha, beta):
    if node.is_leaf():
        return node.static()
    if node.is_max():
        v = -math.inf
        for child in node.children():
            v = max(v, alphabeta(child, alpha, beta))
            if v >= beta:
                return v
            alpha = max(alpha, v)
        return v
    v = math.inf
    for child in node.children():
        v = min(v, alphabeta(child, -math.inf, math.inf))
        if v <= alpha:
            return v
        beta = min(beta, v)
    return v
