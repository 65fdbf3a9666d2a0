# ruff: noqa: F821 - math comes from the notebook's setup cell
# The pair of procedures, strict cuts, but the MIN side never narrows beta.
# expect: test_alphabeta=5.5
# bug: beta_not_updated
# message: β is never updated
# message: graded as strict cuts (v > β, v < α), fail-soft
# %% alphabeta
def max_value(node, alpha, beta):
    if node.is_leaf():
        return node.static()
    best = -math.inf
    for child in node.children():
        best = max(best, min_value(child, alpha, beta))
        if best > beta:
            return best
        alpha = max(alpha, best)
    return best


def min_value(node, alpha, beta):
    if node.is_leaf():
        return node.static()
    best = math.inf
    for child in node.children():
        best = min(best, max_value(child, alpha, beta))
        if best < alpha:
            return best
    return best


def alphabeta(node, alpha, beta):
    return max_value(node, alpha, beta) if node.is_max() else min_value(node, alpha, beta)
