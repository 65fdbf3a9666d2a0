# ruff: noqa: F821 - math comes from the notebook's setup cell
# 000's pair of mutually recursive procedures MaxMin(x, a, b) and MinMax(x, a, b).
# expect: test_alphabeta=8
# %% alphabeta
def max_min(x, alpha, beta):
    if x.is_leaf():
        return x.static()
    v = -math.inf
    for y in x.children():
        v = max(v, min_max(y, alpha, beta))
        if v >= beta:
            return v
        alpha = max(v, alpha)
    return v


def min_max(x, alpha, beta):
    if x.is_leaf():
        return x.static()
    v = math.inf
    for y in x.children():
        v = min(v, max_min(y, alpha, beta))
        if v <= alpha:
            return v
        beta = min(v, beta)
    return v


def alphabeta(node, alpha, beta):
    return max_min(node, alpha, beta) if node.is_max() else min_max(node, alpha, beta)
