# ruff: noqa: F821 - the notebook defines math and the functions of its other cells
# wrong: test_alphabeta
# bug: root_forgets_alpha
# why: the root searches every child with the window it was given
# %% alphabeta
def alphabeta(node, alpha, beta):
    if node.is_leaf():
        return node.static()
    if node.depth == 0:
        values = [alphabeta(child, alpha, beta) for child in node.children()]
        return max(values) if node.is_max() else min(values)
    if node.is_max():
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
