# ruff: noqa: F821 - math comes from the notebook's setup cell
# Starts the search with alpha and beta swapped instead of the window it is given.
# expect: test_alphabeta=1.5
# bug: wrong_window
# message: wrong initial window
# %% alphabeta
def ab(node, alpha, beta):
    if node.is_leaf():
        return node.static()
    if node.is_max():
        v = -math.inf
        for child in node.children():
            v = max(v, ab(child, alpha, beta))
            if v >= beta:
                return v
            alpha = max(alpha, v)
        return v
    v = math.inf
    for child in node.children():
        v = min(v, ab(child, alpha, beta))
        if v <= alpha:
            return v
        beta = min(beta, v)
    return v


def alphabeta(node, alpha, beta):
    return ab(node, math.inf, -math.inf)
