# ruff: noqa: F821 - the notebook defines math and the functions of its other cells
# correct: clamped fail-hard with strict cuts, one function
# %% alphabeta
def alphabeta(node, alpha, beta):
    if node.is_leaf():
        return node.static()
    if node.is_max():
        for child in node.children():
            score = alphabeta(child, alpha, beta)
            if score > beta:
                return beta
            alpha = max(alpha, score)
        return alpha
    for child in node.children():
        score = alphabeta(child, alpha, beta)
        if score < alpha:
            return alpha
        beta = min(beta, score)
    return beta
