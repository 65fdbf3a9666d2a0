# ruff: noqa: F821 - the notebook defines math and the functions of its other cells
# wrong: test_ordered_alphabeta
# bug: root_only_ordering
# why: orders the root's children only, then calls assignment 2's alphabeta
# %% ordered_alphabeta
def alphabeta(node, alpha, beta):
    if node.is_leaf():
        return node.static()
    v = -math.inf if node.is_max() else math.inf
    for child in node.children():
        w = alphabeta(child, alpha, beta)
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


def ordered_alphabeta(node, alpha, beta):
    v = -math.inf if node.is_max() else math.inf
    for child in order_children(node):
        w = alphabeta(child, alpha, beta)
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
