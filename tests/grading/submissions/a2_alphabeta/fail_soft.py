# ruff: noqa: F821 - math comes from the notebook's setup cell
# One function, fail-soft, cutting on equality: the documents' form (000, 003, 004).
# expect: test_alphabeta=8
# message: cut on equality
# %% alphabeta
def alphabeta(node, alpha, beta):
    if node.is_leaf():
        return node.static()
    v = -math.inf if node.is_max() else math.inf
    for child in node.children():
        w = alphabeta(child, alpha, beta)
        if node.is_max():
            v = max(v, w)
            if v >= beta:
                break
            alpha = max(alpha, v)
        else:
            v = min(v, w)
            if v <= alpha:
                break
            beta = min(beta, v)
    return v
