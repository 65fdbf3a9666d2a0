# ruff: noqa: F821 - the notebook defines math and the functions of its other cells
# correct: strict cuts, fail-soft
# %% alphabeta
def alphabeta(node, alpha, beta):
    if node.is_leaf():
        return node.static()
    if node.is_max():
        best = -math.inf
        for child in node.children():
            best = max(best, alphabeta(child, alpha, beta))
            if best > beta:
                break
            alpha = max(alpha, best)
        return best
    best = math.inf
    for child in node.children():
        best = min(best, alphabeta(child, alpha, beta))
        if best < alpha:
            break
        beta = min(beta, best)
    return best
