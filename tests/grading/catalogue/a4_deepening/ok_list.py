# ruff: noqa: F821 - the notebook defines math and the functions of its other cells
# correct: yields each iteration from a loop over a list of depths, best children by name
# %% deepen
def deepen(node, max_depth, reorder=True):
    best = {}
    for depth in [d + 1 for d in range(max_depth)]:
        value = search(node, depth, -math.inf, math.inf, best, reorder)
        yield (value, best[node])
