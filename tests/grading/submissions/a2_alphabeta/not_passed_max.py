# ruff: noqa: F821 - math comes from the notebook's setup cell
# Negamax that calls the children of MAX nodes with a fresh window.
# expect: test_alphabeta=4
# bug: not_passed_max
# message: α and β are not passed down from MAX nodes
# %% alphabeta
def negamax(node, alpha, beta, color):
    if node.is_leaf():
        return color * node.static()
    v = -math.inf
    for child in node.children():
        if color == 1:
            w = -negamax(child, -math.inf, math.inf, -color)
        else:
            w = -negamax(child, -beta, -alpha, -color)
        v = max(v, w)
        if v >= beta:
            break
        alpha = max(alpha, v)
    return v


def alphabeta(node, alpha, beta):
    color = 1 if node.is_max() else -1
    return color * negamax(node, *((alpha, beta) if color == 1 else (-beta, -alpha)), color)
