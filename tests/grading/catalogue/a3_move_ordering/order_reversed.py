# ruff: noqa: F821 - the notebook defines math and the functions of its other cells
# wrong: test_order
# why: low to high at MAX and high to low at MIN
# %% order_children
def order_children(node):
    return sorted(node.children(), key=lambda child: child.estimate(), reverse=not node.is_max())
