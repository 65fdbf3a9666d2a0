# ruff: noqa: F821 - the notebook defines math and the functions of its other cells
# wrong: test_ordered_alphabeta
# bug: ties_reversed
# why: sorts inside the search, high first then reversed at MIN nodes (equal estimates backwards)
# %% ordered_alphabeta
def ordered_alphabeta(node, alpha, beta):
    if node.is_leaf():
        return node.static()
    children = sorted(node.children(), key=lambda child: child.estimate(), reverse=True)
    if node.is_max():
        v = -math.inf
        for child in children:
            v = max(v, ordered_alphabeta(child, alpha, beta))
            if v >= beta:
                return v
            alpha = max(alpha, v)
        return v
    v = math.inf
    for child in children[::-1]:
        v = min(v, ordered_alphabeta(child, alpha, beta))
        if v <= alpha:
            return v
        beta = min(beta, v)
    return v
