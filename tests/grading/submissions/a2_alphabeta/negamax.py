# ruff: noqa: F821 - math comes from the notebook's setup cell
# Negamax: one branch for both players, values negated at each level.
# expect: test_alphabeta=8
# %% alphabeta
def negamax(node, alpha, beta, color):
    if node.is_leaf():
        return color * node.static()
    v = -math.inf
    for child in node.children():
        v = max(v, -negamax(child, -beta, -alpha, -color))
        if v >= beta:
            break
        alpha = max(alpha, v)
    return v


def alphabeta(node, alpha, beta):
    color = 1 if node.is_max() else -1
    return color * negamax(node, *((alpha, beta) if color == 1 else (-beta, -alpha)), color)
