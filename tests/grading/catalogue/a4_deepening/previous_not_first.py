# ruff: noqa: F821 - the notebook defines math and the functions of its other cells
# wrong: test_deepen
# bug: previous_not_first
# why: keeps best children in one dict, never moves the previous best first (estimate order only)
# %% helpers
def ordered(node, best, reorder):
    children = node.children()
    if not reorder:
        return children
    return sorted(children, key=lambda child: child.estimate(), reverse=node.is_max())


def search(node, depth, alpha, beta, best, reorder):
    if node.depth == depth or node.is_leaf():
        return node.static()
    if node.is_max():
        v = -math.inf
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
