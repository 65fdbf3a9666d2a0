# ruff: noqa - a hostile submission, on purpose
# A correct search that prints one line of 20 MB: the search keeps its points, and what
# the cell showed is cut (nbgrader limits lines, not their length).
# expect: test_alphabeta=8
# message: cut by the grader
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
                break
            alpha = max(alpha, v)
        else:
            v = min(v, w)
            if v <= alpha:
                break
            beta = min(beta, v)
    return v


def alphabeta(node, alpha, beta):
    return search(node, alpha, beta)


print("x" * 20_000_000)
