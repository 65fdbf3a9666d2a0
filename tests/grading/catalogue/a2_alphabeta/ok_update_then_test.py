# ruff: noqa: F821 - the notebook defines math and the functions of its other cells
# correct: update the bound first, then test alpha >= beta, with a depth parameter of its own
# %% alphabeta
def alphabeta(node, alpha, beta, depth=0):
    if node.is_leaf():
        return node.static()
    if node.is_max():
        value = float("-inf")
        for child in node.children():
            value = max(value, alphabeta(child, alpha, beta, depth + 1))
            alpha = max(alpha, value)
            if alpha >= beta:
                break
        return value
    value = float("inf")
    for child in node.children():
        value = min(value, alphabeta(child, alpha, beta, depth + 1))
        beta = min(beta, value)
        if beta <= alpha:
            break
    return value
