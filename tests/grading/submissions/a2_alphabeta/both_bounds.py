# ruff: noqa: F821 - math comes from the notebook's setup cell
# Prunes as soon as v leaves the window (alpha, beta), whichever kind of node it is.
# expect: test_alphabeta=3
# bug: over_pruning
# message: over-pruning
# %% alphabeta
def alphabeta(node, alpha, beta):
    if node.is_leaf():
        return node.static()
    v = -math.inf if node.is_max() else math.inf
    for child in node.children():
        w = alphabeta(child, alpha, beta)
        v = max(v, w) if node.is_max() else min(v, w)
        if v >= beta or v <= alpha:
            return v
        if node.is_max():
            alpha = max(alpha, v)
        else:
            beta = min(beta, v)
    return v
