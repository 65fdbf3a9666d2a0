# ruff: noqa: F821 - the notebook defines math and the functions of its other cells
# correct: the MaxMin/MinMax pair, fail-soft, breaking out of the loop
# %% alphabeta
def max_value(node, alpha, beta):
    if node.is_leaf():
        return node.static()
    v = -math.inf
    for child in node.children():
        v = max(v, min_value(child, alpha, beta))
        if v >= beta:
            break
        alpha = max(alpha, v)
    return v


def min_value(node, alpha, beta):
    if node.is_leaf():
        return node.static()
    v = math.inf
    for child in node.children():
        v = min(v, max_value(child, alpha, beta))
        if v <= alpha:
            break
        beta = min(beta, v)
    return v


def alphabeta(node, alpha, beta):
    return max_value(node, alpha, beta) if node.is_max() else min_value(node, alpha, beta)
