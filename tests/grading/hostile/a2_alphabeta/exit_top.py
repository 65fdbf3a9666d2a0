# ruff: noqa - a hostile submission, on purpose
# A correct search, then os._exit at the top level of the answer cell.
# expect: test_alphabeta=0
# message: os._exit
# %% alphabeta
import os


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


os._exit(0)
