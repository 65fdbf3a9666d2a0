# ruff: noqa: F821 - the notebook defines math and the functions of its other cells
# wrong: test_order
# why: sorts (estimate, node) pairs, so equal estimates are ordered by the nodes, reversed at MAX
# %% order_children
def order_children(node):
    pairs = sorted(((child.estimate(), child) for child in node.children()),
                   reverse=node.is_max())
    return [child for _, child in pairs]
