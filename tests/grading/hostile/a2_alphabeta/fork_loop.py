# ruff: noqa - a hostile submission, on purpose
# Searches correctly but forks 40 sleeping processes at the root.
# expect: test_alphabeta=0
# message: still running when it returned
# %% alphabeta
import os
import time


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
    if node.depth == 0:
        for _ in range(40):
            if os.fork() == 0:
                time.sleep(3143)
                os._exit(0)
    return search(node, alpha, beta)
