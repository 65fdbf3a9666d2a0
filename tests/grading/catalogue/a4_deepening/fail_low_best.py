# ruff: noqa: F821 - the notebook defines math and the functions of its other cells
# wrong: test_deepen
# bug: fail_low_best
# why: keeps the best-scoring child everywhere, also where the node failed low
# %% helpers
def ordered(node, best, reorder):
    children = node.children()
    if not reorder:
        return children
    children = sorted(children, key=lambda child: child.estimate(), reverse=node.is_max())
    if node in best:
        children.remove(best[node])
        children.insert(0, best[node])
    return children


def search(node, depth, alpha, beta, best, reorder):
    if node.depth == depth or node.is_leaf():
        return node.static()
    top = None
    if node.is_max():
        v = -math.inf
        for child in ordered(node, best, reorder):
            w = search(child, depth, alpha, beta, best, reorder)
            if top is None or w > v:
                top = child
            v = max(v, w)
            if v >= beta:
                break
            alpha = max(alpha, v)
    else:
        v = math.inf
        for child in ordered(node, best, reorder):
            w = search(child, depth, alpha, beta, best, reorder)
            if top is None or w < v:
                top = child
            v = min(v, w)
            if v <= alpha:
                break
            beta = min(beta, v)
    best[node] = top
    return v
