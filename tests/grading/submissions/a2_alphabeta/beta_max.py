# ruff: noqa: F821 - math comes from the notebook's setup cell
# 003's erratum copied: beta <- max(v, beta) in the minimizer branch.
# expect: test_alphabeta=5.5
# bug: beta_max
# message: the recitation's erratum
# %% alphabeta
def alphabeta(node, alpha, beta):
    if node.is_leaf():
        return node.static()
    if node.is_max():
        v = -math.inf
        for child in node.children():
            v = max(v, alphabeta(child, alpha, beta))
            if v >= beta:
                return v
            alpha = max(v, alpha)
        return v
    v = math.inf
    for child in node.children():
        v = min(v, alphabeta(child, alpha, beta))
        if v <= alpha:
            return v
        beta = max(v, beta)
    return v
