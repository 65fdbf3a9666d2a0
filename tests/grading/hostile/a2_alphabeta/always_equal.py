# ruff: noqa - a hostile submission, on purpose
# Searches correctly but returns an object equal to everything.
# expect: test_alphabeta=4
# message: returned
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


class Anything:
    def __eq__(self, other):
        return True

    def __ne__(self, other):
        return False

    __hash__ = object.__hash__


def alphabeta(node, alpha, beta):
    search(node, alpha, beta)
    return Anything()
