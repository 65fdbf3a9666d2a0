# ruff: noqa: F821 - the notebook defines math and the functions of its other cells
# wrong: test_ordered_alphabeta
# bug: reversed_ordering
# why: searches the children worst first
# %% ordered_alphabeta
def ordered_alphabeta(node, alpha, beta):
    if node.is_leaf():
        return node.static()
    v = -math.inf if node.is_max() else math.inf
    for child in reversed(order_children(node)):
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
