# ruff: noqa: F821 - math comes from the notebook's setup cell
# Debugging output left in: prints the whole path at every call.
# expect: test_alphabeta=0
# message: printed more than 200 kB
# %% alphabeta
def alphabeta(node, alpha, beta):
    print("visiting", node.name, "with", alpha, beta, "." * 100000)
    if node.is_leaf():
        return node.static()
    values = [alphabeta(child, alpha, beta) for child in node.children()]
    return max(values) if node.is_max() else min(values)
