# ruff: noqa: F821 - the notebook defines math and the functions of its other cells
# correct: one-sided fail-hard with strict cuts, best children kept by path
# %% helpers
def ordered(node, best, reorder):
    children = node.children()
    if not reorder:
        return children
    children = sorted(children, key=lambda child: child.estimate(), reverse=node.is_max())
    first = best.get(node.path)
    if first is not None:
        children = [c for c in children if c.path == first] + \
                   [c for c in children if c.path != first]
    return children


def search(node, depth, alpha, beta, best, reorder):
    if node.depth == depth or node.is_leaf():
        return node.static()
    if node.is_max():
        v = alpha
        for child in ordered(node, best, reorder):
            w = search(child, depth, alpha, beta, best, reorder)
            if w > v:
                v = w
                best[node.path] = child.path
            if v > beta:
                break
            alpha = v
        return v
    v = beta
    for child in ordered(node, best, reorder):
        w = search(child, depth, alpha, beta, best, reorder)
        if w < v:
            v = w
            best[node.path] = child.path
        if v < alpha:
            break
        beta = v
    return v
# %% deepen
def deepen(node, max_depth, reorder=True):
    best = {}
    for depth in range(1, max_depth + 1):
        value = search(node, depth, -math.inf, math.inf, best, reorder)
        child = next(c for c in node.children() if c.path == best[node.path])
        yield value, child
