# ruff: noqa: F821 - the notebook defines math and the functions of its other cells
# correct: the solution's form with key=-estimate at MAX nodes
# %% order_children
def order_children(node):
    if node.is_max():
        return sorted(node.children(), key=lambda child: -child.estimate())
    return sorted(node.children(), key=lambda child: child.estimate())
# %% ordered_alphabeta
def ordered_alphabeta(node, alpha, beta):
    if node.is_leaf():
        return node.static()
    if node.is_max():
        v = -math.inf
        for child in order_children(node):
            v = max(v, ordered_alphabeta(child, alpha, beta))
            if v >= beta:
                return v
            alpha = max(alpha, v)
        return v
    v = math.inf
    for child in order_children(node):
        v = min(v, ordered_alphabeta(child, alpha, beta))
        if v <= alpha:
            return v
        beta = min(beta, v)
    return v
