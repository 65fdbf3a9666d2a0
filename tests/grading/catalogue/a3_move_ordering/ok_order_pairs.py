# ruff: noqa: F821 - the notebook defines math and the functions of its other cells
# correct: order_children sorting (estimate, index) pairs, ties kept in the tree's order
# %% order_children
def order_children(node):
    children = node.children()
    sign = -1 if node.is_max() else 1
    ranked = sorted(range(len(children)), key=lambda i: (sign * children[i].estimate(), i))
    return [children[i] for i in ranked]
