# ruff: noqa: F821 - the notebook defines math and the functions of its other cells
# wrong: test_alphabeta
# bug: cut_before_update
# why: tests alpha >= beta before updating with this child's value (every cut a child late)
# %% alphabeta
def alphabeta(node, alpha, beta):
    if node.is_leaf():
        return node.static()
    if node.is_max():
        v = -math.inf
        for child in node.children():
            v = max(v, alphabeta(child, alpha, beta))
            if alpha >= beta:
                return v
            alpha = max(alpha, v)
        return v
    v = math.inf
    for child in node.children():
        v = min(v, alphabeta(child, alpha, beta))
        if beta <= alpha:
            return v
        beta = min(beta, v)
    return v
