# ruff: noqa: F821 - the notebook defines math and the functions of its other cells
# wrong: test_order
# why: sorted low to high, then reversed at MAX nodes (equal estimates come out backwards)
# %% order_children
def order_children(node):
    children = sorted(node.children(), key=lambda child: child.estimate())
    if node.is_max():
        children = children[::-1]
    return children
