# ruff: noqa: F821 - the notebook defines math and the functions of its other cells
# wrong: test_deepen
# bug: depth_shallower
# why: iterations from depth 0 to max_depth - 1
# %% deepen
def deepen(node, max_depth, reorder=True):
    best = {}
    for depth in range(max_depth):
        value = search(node, depth, -math.inf, math.inf, best, reorder)
        yield value, best.get(node)
