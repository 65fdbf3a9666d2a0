# ruff: noqa: F821 - math comes from the notebook's setup cell
# 002's fail-hard loop with strict cuts: go on while alpha <= beta, return the bound. Correct
# under strict cuts, fail-hard on every tree (it parts from the lectures' convention on the
# example sheet's tree and on the tree with ties): full marks, graded as what it is.
# expect: test_alphabeta=8
# message: graded as strict cuts (v > β, v < α), fail-hard
# %% alphabeta
def alphabeta(node, alpha, beta):
    if node.is_leaf():
        return node.static()
    for child in node.children():
        if alpha > beta:
            break
        value = alphabeta(child, alpha, beta)
        if node.is_max():
            alpha = max(alpha, value)
        else:
            beta = min(beta, value)
    return alpha if node.is_max() else beta
