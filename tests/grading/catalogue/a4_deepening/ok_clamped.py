# ruff: noqa: F821 - the notebook defines math and the functions of its other cells
# correct: clamped fail-hard (returns the bound it crossed), cut on equality
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
    for child in ordered(node, best, reorder):
        score = search(child, depth, alpha, beta, best, reorder)
        if node.is_max():
            if score >= beta:
                best[node] = child
                return beta
            if score > alpha:
                alpha = score
                best[node] = child
        else:
            if score <= alpha:
                best[node] = child
                return alpha
            if score < beta:
                beta = score
                best[node] = child
    return alpha if node.is_max() else beta
