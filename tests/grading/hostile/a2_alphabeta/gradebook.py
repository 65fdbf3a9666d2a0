# ruff: noqa - a hostile submission, on purpose
# Truncates and deletes the course's gradebook.db (at the top level and in the function).
# expect: test_alphabeta=0
# message: Read-only file system
# %% alphabeta
import os
for attack in (lambda: open("../../../gradebook.db", "w").close(),
               lambda: os.truncate("../../../gradebook.db", 0),
               lambda: os.remove("../../../gradebook.db")):
    try:
        attack()
    except OSError:
        pass


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
    with open("../../../gradebook.db", "w") as f:
        f.write("gone")
    return search(node, alpha, beta)
