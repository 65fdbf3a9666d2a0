# ruff: noqa: F821 - math comes from the notebook's setup cell
# Returns the value as text.
# expect: test_alphabeta=0
# message: expected a number
# %% alphabeta
def search(node, alpha, beta):
    if node.is_leaf():
        return node.static()
    values = [search(child, alpha, beta) for child in node.children()]
    return max(values) if node.is_max() else min(values)


def alphabeta(node, alpha, beta):
    return f"value: {search(node, alpha, beta)}"
