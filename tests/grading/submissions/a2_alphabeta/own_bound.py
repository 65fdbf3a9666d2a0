# ruff: noqa: F821 - math comes from the notebook's setup cell
# Compares v with the wrong bound: alpha at MAX nodes, beta at MIN nodes.
# expect: test_alphabeta=1.5
# bug: over_pruning
# message: over-pruning
# %% alphabeta
def alphabeta(node, alpha, beta):
    if node.is_leaf():
        return node.static()
    if node.is_max():
        v = -math.inf
        for child in node.children():
            v = max(v, alphabeta(child, alpha, beta))
            if v >= alpha:
                return v
            alpha = max(alpha, v)
        return v
    v = math.inf
    for child in node.children():
        v = min(v, alphabeta(child, alpha, beta))
        if v <= beta:
            return v
        beta = min(beta, v)
    return v
