# ruff: noqa: F821 - the notebook defines math and the functions of its other cells
# wrong: test_order
# why: MAX or MIN from the depth's parity
# %% order_children
def order_children(node):
    return sorted(node.children(), key=lambda child: child.estimate(),
                  reverse=node.depth % 2 == 0)
