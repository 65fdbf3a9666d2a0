# ruff: noqa: F821 - math comes from the notebook's setup cell
# Rebuilds the tree and asks minimaxkit's own alpha-beta for the answer.
# expect: test_alphabeta=0
# message: called minimaxkit's own search
# %% alphabeta
import minimaxkit


def rebuild(node):
    return node.static() if node.is_leaf() else [rebuild(c) for c in node.children()]


def alphabeta(node, alpha, beta):
    tree = minimaxkit.GameTree.from_nested(rebuild(node), root="max" if node.is_max() else "min")
    try:
        return minimaxkit.alphabeta(tree).value
    except Exception:
        return 0
