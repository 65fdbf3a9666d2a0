# ruff: noqa: F821 - math comes from the notebook's setup cell
# A separate loop at the root, as for choosing a move, that never narrows the window it
# passes to the root's children; below the root the search is right.
# expect: test_alphabeta=5
# bug: root_forgets_alpha
# message: the root's loop forgets its bound
# %% alphabeta
def search(node, alpha, beta):
    if node.is_leaf():
        return node.static()
    v = -math.inf if node.is_max() else math.inf
    for child in node.children():
        w = search(child, alpha, beta)
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


def alphabeta(node, alpha, beta):
    values = [search(child, alpha, beta) for child in node.children()]
    return max(values) if node.is_max() else min(values)
