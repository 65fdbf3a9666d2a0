# ruff: noqa: F821 - math comes from the notebook's setup cell
# The program: cuts on equality, returns v, but never updates alpha (MIN nodes below
# never cut). Its leaves match strict cuts on one tree and fail-hard on another: it is graded
# under cut on equality, fail-soft on all of them.
# expect: test_alphabeta=5.5
# bug: alpha_not_updated
# message: α is never updated
# message: graded as cut on equality (v ≥ β, v ≤ α), fail-soft
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
        return v
    v = math.inf
    for child in node.children():
        v = min(v, alphabeta(child, alpha, beta))
        if v <= alpha:
            return v
        beta = min(beta, v)
    return v
