# ruff: noqa: F821 - the notebook defines math and the functions of its other cells
# wrong: test_order
# why: highest estimate first at every node (MIN forgotten)
# %% order_children
def order_children(node):
    return sorted(node.children(), key=lambda child: child.estimate(), reverse=True)
