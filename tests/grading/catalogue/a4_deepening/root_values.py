# ruff: noqa: F821 - the notebook defines math and the functions of its other cells
# wrong: test_deepen
# bug: root_values
# why: root ordered by the previous iteration's values (bounds too), not previous best first
# %% deepen
def deepen(node, max_depth, reorder=True):
    best = {}
    previous = {}   # the root's children's values in the last iteration
    for d in range(1, max_depth + 1):
        kids = node.children()
        if reorder:
            kids = sorted(kids, key=lambda c: c.estimate(), reverse=node.is_max())
        if reorder and previous:
            kids = sorted(kids, key=lambda c: previous[c], reverse=node.is_max())
        alpha, beta = -math.inf, math.inf
        value, move = (-math.inf if node.is_max() else math.inf), None
        for c in kids:
            w = search(c, d, alpha, beta, best, reorder)
            previous[c] = w
            if node.is_max():
                if w > value:
                    value, move = w, c
                alpha = max(alpha, value)
            else:
                if w < value:
                    value, move = w, c
                beta = min(beta, value)
        best[node] = move
        yield value, move


# %% helpers
def ordered(node, best, reorder):
    kids = node.children()
    if not reorder:
        return kids
    kids = sorted(kids, key=lambda c: c.estimate(), reverse=node.is_max())
    first = best.get(node)
    if first is not None and first in kids:
        kids.remove(first)
        kids.insert(0, first)
    return kids


def search(node, depth, alpha, beta, best, reorder):
    if node.is_leaf() or node.depth == depth:
        return node.static()
    if node.is_max():
        v = -math.inf
        for c in ordered(node, best, reorder):
            v = max(v, search(c, depth, alpha, beta, best, reorder))
            if v >= beta:
                best[node] = c
                return v
            if v > alpha:
                alpha = v
                best[node] = c
        return v
    v = math.inf
    for c in ordered(node, best, reorder):
        v = min(v, search(c, depth, alpha, beta, best, reorder))
        if v <= alpha:
            best[node] = c
            return v
        if v < beta:
            beta = v
            best[node] = c
    return v
