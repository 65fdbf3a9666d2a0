# ruff: noqa: F821 - math comes from the notebook's setup cell
# Strict cuts, fail-hard (returns the bound it cut on), but MIN nodes do not pass α and β
# down. The feedback compares with the convention written (strict cuts, fail-hard), not with
# the first-listed one (cut on equality, fail-soft).
# expect: test_alphabeta=5.5
# message: strict cuts (v > β, v < α), fail-hard
# %% alphabeta
def alphabeta(node, alpha, beta):
    if node.is_leaf():
        return node.static()
    if node.is_max():
        for child in node.children():
            alpha = max(alpha, alphabeta(child, alpha, beta))
            if alpha > beta:
                return beta
        return alpha
    for child in node.children():
        beta = min(beta, alphabeta(child, -math.inf, math.inf))
        if beta < alpha:
            return alpha
    return beta
