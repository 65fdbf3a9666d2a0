# ruff: noqa: F821 - math comes from the notebook's setup cell
# Orders the children worst first: MAX nodes from the lowest estimate, MIN from the highest.
# expect: test_order=0 test_ordered_alphabeta=2.5
# bug: reversed_ordering
# message: ordering reversed
# %% order_children
def order_children(node):
    return sorted(node.children(), key=lambda child: child.estimate(), reverse=not node.is_max())
# %% ordered_alphabeta
def ordered_alphabeta(node, alpha, beta):
    if node.is_leaf():
        return node.static()
    v = -math.inf if node.is_max() else math.inf
    for child in order_children(node):
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
