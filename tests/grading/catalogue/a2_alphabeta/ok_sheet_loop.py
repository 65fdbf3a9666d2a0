# ruff: noqa: F821 - the notebook defines math and the functions of its other cells
# correct: the sheet's loop, "while alpha < beta", returning the bound (one-sided fail-hard)
# %% alphabeta
def alphabeta(node, alpha, beta):
    if node.is_leaf():
        return node.static()
    children = node.children()
    i = 0
    if node.is_max():
        while alpha < beta and i < len(children):
            alpha = max(alpha, alphabeta(children[i], alpha, beta))
            i += 1
        return alpha
    while alpha < beta and i < len(children):
        beta = min(beta, alphabeta(children[i], alpha, beta))
        i += 1
    return beta
