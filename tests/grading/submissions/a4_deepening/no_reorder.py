# ruff: noqa: F821 - math comes from the notebook's setup cell
# Deepens correctly but never reorders: iterations after the first lose their leaves points
# (values and moves right, leaves not: half of each of the 7 trees, 3.5 of 7 points; on the
# turn tree depth 1 is right and depths 2-3 are not, 2 of 3 parts, rounded down to half a point).
# expect: test_deepen=3.5 test_deepen_plain=2
# bug: no_reordering
# message: no reordering
# %% helpers
def search(node, depth, alpha, beta):
    if depth == 0 or node.is_leaf():
        return node.static()
    v = -math.inf if node.is_max() else math.inf
    for child in node.children():
        w = search(child, depth - 1, alpha, beta)
        if node.is_max():
            v = max(v, w)
            if v >= beta:
                return v
            alpha = max(alpha, v)
        else:
            v = min(v, w)
            if v <= alpha:
                return v
            beta = min(beta, v)
    return v
# %% deepen
def deepen(node, max_depth, reorder=True):
    for depth in range(1, max_depth + 1):
        best_value, best_child = None, None
        alpha, beta = -math.inf, math.inf
        for child in node.children():
            w = search(child, depth - 1, alpha, beta)
            if best_child is None or (w > best_value if node.is_max() else w < best_value):
                best_value, best_child = w, child
            if node.is_max():
                alpha = max(alpha, w)
            else:
                beta = min(beta, w)
        yield best_value, best_child
