# ruff: noqa: F821 - the notebook defines math and the functions of its other cells
# wrong: test_alphabeta
# bug: parity
# why: MAX or MIN decided by the depth's parity
# %% alphabeta
def alphabeta(node, alpha, beta):
    if node.is_leaf():
        return node.static()
    if node.depth % 2 == 0:
        v = -math.inf
        for child in node.children():
            v = max(v, alphabeta(child, alpha, beta))
            if v >= beta:
                return v
            alpha = max(alpha, v)
        return v
    v = math.inf
    for child in node.children():
        v = min(v, alphabeta(child, alpha, beta))
        if v <= alpha:
            return v
        beta = min(beta, v)
    return v
