# ruff: noqa: F821 - math comes from the notebook's setup cell
# Cutting only on v > beta / v < alpha, as some autograders demand: accepted, and named.
# expect: test_alphabeta=8
# message: graded as strict cuts (v > β, v < α), fail-soft
# %% alphabeta
def alphabeta(node, alpha, beta):
    if node.is_leaf():
        return node.static()
    if node.is_max():
        v = -math.inf
        for child in node.children():
            v = max(v, alphabeta(child, alpha, beta))
            if v > beta:
                return v
            alpha = max(alpha, v)
        return v
    v = math.inf
    for child in node.children():
        v = min(v, alphabeta(child, alpha, beta))
        if v < alpha:
            return v
        beta = min(beta, v)
    return v
