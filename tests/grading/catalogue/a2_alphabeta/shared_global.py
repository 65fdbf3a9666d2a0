# ruff: noqa: F821 - the notebook defines math and the functions of its other cells
# wrong: test_alphabeta
# bug: shared_bounds
# why: alpha and beta kept in a list every call changes (mutated, not passed)
# %% alphabeta
def alphabeta(node, alpha, beta, window=None):
    if window is None:
        window = [alpha, beta]
    if node.is_leaf():
        return node.static()
    if node.is_max():
        v = -math.inf
        for child in node.children():
            v = max(v, alphabeta(child, alpha, beta, window))
            if v >= window[1]:
                return v
            window[0] = max(window[0], v)
        return v
    v = math.inf
    for child in node.children():
        v = min(v, alphabeta(child, alpha, beta, window))
        if v <= window[0]:
            return v
        window[1] = min(window[1], v)
    return v
