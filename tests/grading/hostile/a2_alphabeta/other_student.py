# ruff: noqa - a hostile submission, on purpose
# Overwrites and deletes another student's autograded notebook.
# expect: test_alphabeta=0
# message: No such file or directory
# %% alphabeta
import os
import shutil
shutil.rmtree("../../solution", ignore_errors=True)


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
    with open("../../solution/a2_alphabeta/a2_alphabeta.ipynb", "w") as f:
        f.write("{}")
    return search(node, alpha, beta)
