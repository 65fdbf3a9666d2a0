# ruff: noqa: F821 - the notebook defines math and the functions of its other cells
# correct: negamax, fail-soft, strict cuts
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
    color = 1 if node.is_max() else -1
    return color * negamax(node, depth, *((alpha, beta) if color == 1 else (-beta, -alpha)),
                           best, reorder)


def negamax(node, depth, alpha, beta, best, reorder):
    color = 1 if node.is_max() else -1
    if node.depth == depth or node.is_leaf():
        return color * node.static()
    v = -math.inf
    for child in ordered(node, best, reorder):
        w = -negamax(child, depth, -beta, -max(alpha, v), best, reorder)
        if w > v:
            if w > alpha:
                best[node] = child
            v = w
        if v > beta:
            break
    return v
