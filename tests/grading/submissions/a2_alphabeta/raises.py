# ruff: noqa: F821 - math comes from the notebook's setup cell
# Indexes past the end of the children.
# expect: test_alphabeta=0
# message: raised IndexError
# %% alphabeta
def alphabeta(node, alpha, beta):
    if node.is_leaf():
        return node.static()
    children = node.children()
    return alphabeta(children[len(children)], alpha, beta)
