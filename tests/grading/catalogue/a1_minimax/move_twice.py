# ruff: noqa: F821 - the notebook defines math and the functions of its other cells
# wrong: test_best_move
# why: searches the best child twice (once to find the value, once to find the child)
# %% best_move
def best_move(node, max_depth):
    values = [minimax_limited(child, max_depth) for child in node.children()]
    value = max(values) if node.is_max() else min(values)
    for child in node.children():
        if minimax_limited(child, max_depth) == value:
            return value, child
