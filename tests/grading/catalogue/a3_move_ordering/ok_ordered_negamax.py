# ruff: noqa: F821 - the notebook defines math and the functions of its other cells
# correct: negamax on ordered children, one-sided fail-hard
# %% ordered_alphabeta
def negamax(node, alpha, beta, color):
    if node.is_leaf():
        return color * node.static()
    v = alpha
    for child in order_children(node):
        v = max(v, -negamax(child, -beta, -v, -color))
        if v >= beta:
            return v
    return v


def ordered_alphabeta(node, alpha, beta):
    if node.is_max():
        return negamax(node, alpha, beta, 1)
    return -negamax(node, -beta, -alpha, -1)
