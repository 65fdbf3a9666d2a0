# ruff: noqa: F821 - the notebook defines math and the functions of its other cells
# correct: the tutorial's pair, clamped fail-hard (returns beta at a cut, alpha at the end)
# %% alphabeta
def alpha_beta_max(node, alpha, beta):
    if node.is_leaf():
        return node.static()
    for child in node.children():
        score = alpha_beta_min(child, alpha, beta)
        if score >= beta:
            return beta
        if score > alpha:
            alpha = score
    return alpha


def alpha_beta_min(node, alpha, beta):
    if node.is_leaf():
        return node.static()
    for child in node.children():
        score = alpha_beta_max(child, alpha, beta)
        if score <= alpha:
            return alpha
        if score < beta:
            beta = score
    return beta


def alphabeta(node, alpha, beta):
    if node.is_max():
        return alpha_beta_max(node, alpha, beta)
    return alpha_beta_min(node, alpha, beta)
