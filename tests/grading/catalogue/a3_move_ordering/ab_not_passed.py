# ruff: noqa: F821 - the notebook defines math and the functions of its other cells
# wrong: test_ordered_alphabeta
# bug: not_passed_min
# why: alpha and beta not passed down from MIN nodes
# %% ordered_alphabeta
def ordered_alphabeta(node, alpha, beta):
    if node.is_leaf():
        return node.static()
    v = -math.inf if node.is_max() else math.inf
    for child in order_children(node):
        if node.is_max():
            v = max(v, ordered_alphabeta(child, alpha, beta))
            if v >= beta:
                return v
            alpha = max(alpha, v)
        else:
            v = min(v, ordered_alphabeta(child, -math.inf, math.inf))
            if v <= alpha:
                return v
            beta = min(beta, v)
    return v
