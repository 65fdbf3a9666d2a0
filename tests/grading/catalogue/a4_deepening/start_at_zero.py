# ruff: noqa: F821 - the notebook defines math and the functions of its other cells
# wrong: test_deepen
# bug: start_at_zero
# why: a running max started at 0
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
    if node.is_max():
        v = 0
        for child in ordered(node, best, reorder):
            v = max(v, search(child, depth, alpha, beta, best, reorder))
            if v > alpha:
                best[node] = child
            if v >= beta:
                break
            alpha = max(alpha, v)
    else:
        v = math.inf
        for child in ordered(node, best, reorder):
            v = min(v, search(child, depth, alpha, beta, best, reorder))
            if v < beta:
                best[node] = child
            if v <= alpha:
                break
            beta = min(beta, v)
    return v
