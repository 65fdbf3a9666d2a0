# ruff: noqa: F821 - the notebook defines math and the functions of its other cells
# correct: negamax, fail-soft
# %% alphabeta
def negamax(node, alpha, beta, color):
    if node.is_leaf():
        return color * node.static()
    v = -math.inf
    for child in node.children():
        v = max(v, -negamax(child, -beta, -alpha, -color))
        if v >= beta:
            return v
        alpha = max(alpha, v)
    return v


def alphabeta(node, alpha, beta):
    color = 1 if node.is_max() else -1
    return color * negamax(node, *((alpha, beta) if color == 1 else (-beta, -alpha)), color)
