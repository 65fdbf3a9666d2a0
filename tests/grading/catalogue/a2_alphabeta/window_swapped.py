# ruff: noqa: F821 - the notebook defines math and the functions of its other cells
# wrong: test_alphabeta
# bug: wrong_window
# why: the bounds taken in the wrong order (the window starts as (inf, -inf))
# %% alphabeta
def alphabeta(node, beta, alpha):
    if node.is_leaf():
        return node.static()
    if node.is_max():
        v = -math.inf
        for child in node.children():
            v = max(v, alphabeta(child, beta, alpha))
            if v >= beta:
                return v
            alpha = max(alpha, v)
        return v
    v = math.inf
    for child in node.children():
        v = min(v, alphabeta(child, beta, alpha))
        if v <= alpha:
            return v
        beta = min(beta, v)
    return v
