# ruff: noqa: F821 - the notebook defines math and the functions of its other cells
# correct: negamax, clamped fail-hard (the tutorial's form)
# %% alphabeta
def negamax(node, alpha, beta, color):
    if node.is_leaf():
        return color * node.static()
    for child in node.children():
        score = -negamax(child, -beta, -alpha, -color)
        if score >= beta:
            return beta
        if score > alpha:
            alpha = score
    return alpha


def alphabeta(node, alpha, beta):
    if node.is_max():
        return negamax(node, alpha, beta, 1)
    return -negamax(node, -beta, -alpha, -1)
