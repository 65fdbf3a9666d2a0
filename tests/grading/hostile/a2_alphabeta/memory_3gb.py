# ruff: noqa - a hostile submission, on purpose
# Allocates 3 GB in the function.
# expect: test_alphabeta=0
# message: ran out of memory
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
    hog = bytearray(3 << 30)
    return search(node, alpha, beta) + len(hog) * 0
