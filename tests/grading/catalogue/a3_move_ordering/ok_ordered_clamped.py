# ruff: noqa: F821 - the notebook defines math and the functions of its other cells
# correct: clamped fail-hard with strict cuts, on ordered children
# %% ordered_alphabeta
def ordered_alphabeta(node, alpha, beta):
    if node.is_leaf():
        return node.static()
    for child in order_children(node):
        score = ordered_alphabeta(child, alpha, beta)
        if node.is_max():
            if score > beta:
                return beta
            alpha = max(alpha, score)
        else:
            if score < alpha:
                return alpha
            beta = min(beta, score)
    return alpha if node.is_max() else beta
