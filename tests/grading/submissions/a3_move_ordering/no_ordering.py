# ruff: noqa: F821 - math comes from the notebook's setup cell
# Orders correctly in question 1 but forgets to use the order in the search.
# expect: test_order=4 test_ordered_alphabeta=2.5
# bug: no_ordering
# message: no move ordering
# %% order_children
def order_children(node):
    return sorted(node.children(), key=lambda child: child.estimate(), reverse=node.is_max())
# %% ordered_alphabeta
def ordered_alphabeta(node, alpha, beta):
    if node.is_leaf():
        return node.static()
    v = -math.inf if node.is_max() else math.inf
    for child in node.children():
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
