# ruff: noqa: F821 - the notebook defines math and the functions of its other cells
# correct: fail-soft search whose result is clamped into the window at the end
# %% alphabeta
def alphabeta(node, alpha, beta):
    if node.is_leaf():
        return node.static()
    lo, hi = alpha, beta
    v = -math.inf if node.is_max() else math.inf
    for child in node.children():
        w = alphabeta(child, alpha, beta)
        if node.is_max():
            v = max(v, w)
            if v >= beta:
                break
            alpha = max(alpha, v)
        else:
            v = min(v, w)
            if v <= alpha:
                break
            beta = min(beta, v)
    return max(lo, min(v, hi))
