# ruff: noqa: F821 - the notebook defines math and the functions of its other cells
# wrong: test_best_move
# bug: fixed_depth
# why: best_move hard-codes a depth of 2
# %% best_move
def best_move(node, max_depth):
    pairs = [(minimax_limited(child, 2), child) for child in node.children()]
    if node.is_max():
        return max(pairs, key=lambda pair: pair[0])
    return min(pairs, key=lambda pair: pair[0])
