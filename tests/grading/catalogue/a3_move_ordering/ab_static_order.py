# ruff: noqa: F821 - the notebook defines math and the functions of its other cells
# wrong: test_ordered_alphabeta
# bug: static_for_order
# why: orders the children by static(), which counts as evaluating them
# %% ordered_alphabeta
def ordered_alphabeta(node, alpha, beta):
    if node.is_leaf():
        return node.static()
    children = sorted(node.children(), key=lambda c: c.static(), reverse=node.is_max())
    v = -math.inf if node.is_max() else math.inf
    for child in children:
        w = ordered_alphabeta(child, alpha, beta)
        if node.is_max():
            v = max(v, w)
            if v >= beta:
                return v
            alpha = max(alpha, v)
        else:
            v = min(v, w)
            if v <= alpha:
                return v
            beta = min(beta, v)
    return v
