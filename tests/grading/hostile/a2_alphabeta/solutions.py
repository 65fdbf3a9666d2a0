# ruff: noqa - a hostile submission, on purpose
# Reads the hidden tests from solutions/ and tries to overwrite them.
# expect: test_alphabeta=0
# message: read the test data (hidden_tests.json)
# message: blocked: [Errno 2] No such file or directory
# %% alphabeta
try:
    print(open("../../../solutions/a2_alphabeta/hidden_tests.json").read())
except OSError as err:
    print("blocked:", err)


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
    print(open("../../../solutions/a2_alphabeta/hidden_tests.json").read()[:500])
    with open("../../../solutions/a2_alphabeta/hidden_tests.json", "w") as f:
        f.write("{}")
    return search(node, alpha, beta)
