# ruff: noqa: F821 - the notebook defines math and the functions of its other cells
# wrong: test_deepen
# bug: depth_deeper
# why: iteration d searches to depth d + 1
# %% deepen
def deepen(node, max_depth, reorder=True):
    best = {}
    for depth in range(1, max_depth + 1):
        value = search(node, depth + 1, -math.inf, math.inf, best, reorder)
        yield value, best[node]
