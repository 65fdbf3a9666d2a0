# ruff: noqa: F821 - math comes from the notebook's setup cell
# Tests alpha >= beta before the bound is updated with the child's value (the update and the
# test in the wrong order): every cut happens one child late.
# expect: test_alphabeta=3.5
# bug: cut_before_update
# message: the cut test comes before the update
# message: graded as cut on equality (v ≥ β, v ≤ α), fail-soft
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
        if alpha >= beta:
            return v
        beta = min(beta, v)
    return v
