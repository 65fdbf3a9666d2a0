# ruff: noqa: F821 - the notebook defines math and the functions of its other cells
# wrong: test_order
# why: sorted high to low, then reversed at MIN nodes (equal estimates come out backwards there);
# the solution's ordered_alphabeta, searching in this order, keeps its points (graded once)
# %% order_children
def order_children(node):
    children = sorted(node.children(), key=lambda child: child.estimate(), reverse=True)
    if not node.is_max():
        children = children[::-1]
    return children
