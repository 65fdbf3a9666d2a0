# ruff: noqa: F821 - the notebook defines math and the functions of its other cells
# wrong: test_deepen_plain
# bug: first_move
# why: yields the first iteration's move at every depth (judged without reordering)
# %% deepen
def deepen(node, max_depth, reorder=True):
    best = {}
    move = None
    for depth in range(1, max_depth + 1):
        value = search(node, depth, -math.inf, math.inf, best, reorder)
        if move is None:
            move = best[node]
        yield value, move
