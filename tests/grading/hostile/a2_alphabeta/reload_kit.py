# ruff: noqa - a hostile submission, on purpose
# Undoes the grader's refusal of the kit's searches by reloading the kit's modules (and by
# loading a fresh copy of the search module from its file), then lets the kit search: in the
# sandbox those modules are a stub that refuses, whatever is reloaded or copied.
# expect: test_alphabeta=0
# message: minimaxkit's own search
# %% alphabeta
import importlib
import importlib.util
import sys

import minimaxkit
import minimaxkit.deepening
import minimaxkit.search
import minimaxkit.search.core


def fresh_kit():
    for name in ("minimaxkit.search", "minimaxkit.search.core", "minimaxkit.deepening"):
        importlib.reload(sys.modules[name])
    # a copy of the search module from its file, as a module of the kit (its relative imports
    # work): no patch of the loaded module reaches it
    spec = importlib.util.spec_from_file_location("minimaxkit.search.core_copy",
                                                  minimaxkit.search.core.__file__)
    copy = sys.modules[spec.name] = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(copy)
    return copy


def alphabeta(node, alpha, beta):
    kit = fresh_kit()
    # the tree, copied through the node interface without evaluating (estimate() is not
    # counted), then searched by the kit, whose leaves are then read in its order
    def copy(n):
        return n.estimate() if n.is_leaf() else [copy(c) for c in n.children()]
    tree = minimaxkit.GameTree.from_nested(copy(node), root="max" if node.is_max() else "min")
    result = kit.alphabeta(tree)
    for path in result.trace.leaves:
        leaf = node
        for i in path:
            leaf = leaf.children()[i]
        leaf.static()
    return result.value
