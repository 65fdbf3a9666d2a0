# ruff: noqa: F821 - the notebook defines math and the functions of its other cells
# wrong: test_deepen
# bug: tie_last
# why: the root's own loop keeps the last of equally good children
# %% deepen
def deepen(node, max_depth, reorder=True):
    best = {}
    for depth in range(1, max_depth + 1):
        alpha, beta = -math.inf, math.inf
        value = -math.inf if node.is_max() else math.inf
        move = None
        for child in ordered(node, best, reorder):
            v = search(child, depth, alpha, beta, best, reorder)
            if node.is_max() and v >= value:
                value, move = v, child
                alpha = max(alpha, v)
            elif not node.is_max() and v <= value:
                value, move = v, child
                beta = min(beta, v)
        best[node] = move
        yield value, move
