# ruff: noqa: F821 - the notebook defines math and the functions of its other cells
# wrong: test_deepen
# bug: previous_only
# why: orders by the previous iteration's best children only (a new dict each iteration)
# %% deepen
def deepen(node, max_depth, reorder=True):
    previous = {}
    for depth in range(1, max_depth + 1):
        best = {}
        value = search(node, depth, -math.inf, math.inf, best, reorder, previous)
        yield value, best[node]
        previous = best
# %% helpers
def ordered(node, known, reorder):
    children = node.children()
    if not reorder:
        return children
    children = sorted(children, key=lambda child: child.estimate(), reverse=node.is_max())
    if node in known:
        children.remove(known[node])
        children.insert(0, known[node])
    return children


def search(node, depth, alpha, beta, best, reorder, known):
    if node.depth == depth or node.is_leaf():
        return node.static()
    if node.is_max():
        v = -math.inf
        for child in ordered(node, known, reorder):
            v = max(v, search(child, depth, alpha, beta, best, reorder, known))
            if v > alpha:
                best[node] = child
            if v >= beta:
                break
            alpha = max(alpha, v)
    else:
        v = math.inf
        for child in ordered(node, known, reorder):
            v = min(v, search(child, depth, alpha, beta, best, reorder, known))
            if v < beta:
                best[node] = child
            if v <= alpha:
                break
            beta = min(beta, v)
    return v
