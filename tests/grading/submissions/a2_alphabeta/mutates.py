# ruff: noqa: F821 - math comes from the notebook's setup cell
# Caches values on the nodes.
# expect: test_alphabeta=0
# message: tried to change the tree
# %% alphabeta
def alphabeta(node, alpha, beta):
    if node.is_leaf():
        return node.static()
    values = [alphabeta(child, alpha, beta) for child in node.children()]
    node.value = max(values) if node.is_max() else min(values)
    return node.value
