# ruff: noqa: F821 - the notebook defines math and the functions of its other cells
# correct: negamax (values from the player to move's side)
# %% minimax
def negamax(node, color):
    if node.is_leaf():
        return color * node.static()
    return max(-negamax(child, -color) for child in node.children())


def minimax(node):
    color = 1 if node.is_max() else -1
    return color * negamax(node, color)
