"""Where a known bug shows on a tree, in a sentence that names the node: the MAX node whose
children are all below 0, the MIN root a search by depth parity maximises at, the leaf a
depth-limited search asked for its children, the MIN node that returned its α...

>>> from minimaxkit import GameTree
>>> tree = GameTree.from_nested([[-3, -5], [2, 4]], root="min")
>>> import textwrap
>>> print(textwrap.fill(where("start_at_zero", tree), 95))
it shows at node B (MAX, path (0,)): its children are all below 0 (the largest is -3), and a
maximum started at 0 gives 0 there
>>> print(textwrap.fill(where("parity", tree), 95))
it shows at node A (MIN, path ()): the root is MIN, and a search that takes even depths for MAX
maximises there

A best move started at 0 shows where no child of the root beats 0 strictly (a tie is not
better), though every value is right:

>>> print(textwrap.fill(where("start_at_zero", GameTree.from_nested([[-1, 0], [0, 3]],
...                                                                root="min")), 95))
it shows at the root, node A (MIN, path ()): none of its children is below 0 (the least is 0),
so a best value started at 0 is never beaten and no move is chosen
"""

from __future__ import annotations

import math
from collections.abc import Callable

from ...search import minimax
from ...student import Recorder
from ...tree import GameTree, Node
from ..samples.alphabeta import AlphaBetaSample
from ..samples.deepening import DeepeningSample
from .compare import value_text
from .observed import Observed, Options

__all__ = ["where", "where_seen"]

Path = tuple[int, ...]


def _node(node: Node) -> str:
    return f"node {node.name} ({node.player.upper()}, path {node.path})"


def _values(tree: GameTree, depth: int | None) -> dict[Path, float]:
    trace = minimax(tree, depth=depth).trace
    assert trace is not None
    return dict(trace.values)


def _start_at_zero(tree: GameTree, options: Options) -> str:
    """The first MAX node whose children are all below 0 (a maximum started at 0, the
    common form, is looked for first), else the first MIN node whose children are all above
    0, else the root where no move beats 0."""
    values = _values(tree, options.depth)
    searched = [(node, [values[c.path] for c in node.children if c.path in values])
                for node in tree.nodes() if node.path in values]
    for node, kids in searched:
        if kids and node.is_max and max(kids) < 0:
            return (f"it shows at {_node(node)}: its children are all below 0 (the largest "
                    f"is {value_text(max(kids))}), and a maximum started at 0 gives 0 there")
    for node, kids in searched:
        if kids and not node.is_max and min(kids) > 0:
            return (f"it shows at {_node(node)}: its children are all above 0 (the least "
                    f"is {value_text(min(kids))}), and a minimum started at 0 gives 0 there")
    return _no_move_beats_zero(tree, values)


def _no_move_beats_zero(tree: GameTree, values: dict[Path, float]) -> str:
    """Where every value is right but the move is not: at the root, no child beats a start of
    0 strictly (a tie with 0 is not better), so a best move started at 0 chooses none."""
    root = tree.root
    kids = [values[c.path] for c in root.children if c.path in values]
    if not kids:
        return ""
    if root.is_max and max(kids) <= 0:
        return (f"it shows at the root, {_node(root)}: none of its children is above 0 (the "
                f"largest is {value_text(max(kids))}), so a best value started at 0 is never "
                "beaten and no move is chosen")
    if not root.is_max and min(kids) >= 0:
        return (f"it shows at the root, {_node(root)}: none of its children is below 0 (the "
                f"least is {value_text(min(kids))}), so a best value started at 0 is never "
                "beaten and no move is chosen")
    return ""


def _parity(tree: GameTree, options: Options) -> str:
    for node in tree.nodes():
        if node.children and node.is_max != (len(node.path) % 2 == 0):
            does = "maximises" if not node.is_max else "minimises"
            what = "the root" if not node.path else f"at depth {len(node.path)} it"
            return (f"it shows at {_node(node)}: {what} is {node.player.upper()}, and a "
                    f"search that takes even depths for MAX {does} there")
    return ""


def _returns_bound(tree: GameTree, options: Options) -> str:
    """The first node whose returned value is not its v, in a search that returns the bound."""
    for bug in ("returns_alpha", "returns_beta"):
        log: list[tuple[Path, bool, float, float]] = []
        AlphaBetaSample(bug, log=log)(Recorder(tree).root(), *options.bounds)
        found = next(((p, mx, v, r) for p, mx, v, r in log if r != v), None)
        if found is not None:
            path, at_max, v, returned = found
            bound, least = ("β", "greatest") if at_max else ("α", "least")
            return (f"it shows first at {_node(tree.node(path))}: v there is {value_text(v)}, "
                    f"the {least} of its children's values, but it returns "
                    f"{value_text(returned)}, the {bound} it was given, so the nodes above it "
                    f"see {value_text(returned)} instead of {value_text(v)}")
    return ""


def _cut_returns_infinity(tree: GameTree, options: Options) -> str:
    """The first node that cuts, and the ±∞ it returns there instead of its v."""
    log: list[tuple[Path, bool, float, float]] = []
    AlphaBetaSample("cut_returns_infinity", log=log)(Recorder(tree).root(), *options.bounds)
    found = next(((p, mx, v, r) for p, mx, v, r in log if math.isinf(r) and r != v), None)
    if found is None:
        return ""
    path, at_max, v, returned = found
    test = "v ≥ β" if at_max else "v ≤ α"
    return (f"it shows first at {_node(tree.node(path))}: it cuts ({test}) with "
            f"v = {value_text(v)} and returns {value_text(returned)} instead"
            + _window_clause(options))


def _window_clause(options: Options) -> str:
    if options.window is None:
        return ""
    lo, hi = (value_text(b) for b in options.window)
    return f"; on this tree the root is called with the window ({lo}, {hi})"


def _window_ignored(tree: GameTree, options: Options) -> str:
    if options.window is None:
        return ""
    lo, hi = (value_text(b) for b in options.window)
    value = _values(tree, None)[()]
    return (f"it shows on the tree searched in the window ({lo}, {hi}): the root is called "
            f"as alphabeta(root, {lo}, {hi}), and a search from (-∞, ∞) returns the tree's "
            f"value {value_text(value)}, not the value in that window, and evaluates the "
            "leaves a search of the whole tree evaluates")


def _always_max(tree: GameTree, options: Options) -> str:
    root = tree.root
    if root.is_max:
        return ""
    values = _values(tree, options.depth)
    best = min(root.children, key=lambda c: values[c.path])
    return (f"it shows at the root, node {root.name}, which is MIN: its best move is "
            f"{best.name} (value {value_text(values[best.path])}), the least")


def _fixed_depth(tree: GameTree, options: Options) -> str:
    return (f"it shows on this tree: with max_depth = {options.depth}, your search evaluated "
            "the nodes at depth 2")


def _previous_not_first(tree: GameTree, options: Options, got: Observed | None) -> str:
    """The first node, in the first iteration, where an earlier iteration's best child goes
    ahead of the static order, and the child the student's own iteration searched first
    there (read from its leaves: the first leaf below the node)."""
    if got is None or options.max_depth is None:
        return ""
    moved: list[tuple[int, Path, Path]] = []
    deepen = DeepeningSample(moved_first=moved)
    for _ in deepen(Recorder(tree).root(), options.max_depth, options.reorder):
        pass
    for depth, path, best in moved:
        if depth > len(got.steps):
            break
        below = [leaf for leaf in got.steps[depth - 1].leaves if leaf[:len(path)] == path]
        if not below or len(below[0]) <= len(path):
            continue
        first = tree.node(below[0][:len(path) + 1])
        if first.path == best:
            continue
        node = tree.node(path)
        where_ = "at the root, " if not path else "at "
        return (f"it shows in the iteration to depth {depth}, {where_}{_node(node)}: depth "
                f"{depth - 1} found {tree.node(best).name} best there, but your deepening did "
                "not search the previous iteration's best move first: it searched "
                f"{first.name} first")
    return ""


_WHERE: dict[str, Callable[[GameTree, Options], str]] = {
    "start_at_zero": _start_at_zero, "parity": _parity, "returns_bound": _returns_bound,
    "move_always_max": _always_max, "fixed_depth": _fixed_depth,
    "cut_returns_infinity": _cut_returns_infinity, "window_ignored": _window_ignored,
}


def where_seen(bug: str, tree: GameTree, options: Options, got: Observed | None) -> str:
    """A sentence naming where ``bug`` shows in what the search showed on ``tree`` (``got``:
    its iterations, for deepening), for the bugs placed by the student's own calls; "" for
    the others (see :func:`where`)."""
    if bug == "previous_not_first":
        return _previous_not_first(tree, options, got)
    return ""


def where(bug: str, tree: GameTree, options: Options | None = None, *,
          asked: tuple[Path, ...] = (), check: str = "") -> str:
    """A sentence naming the node where ``bug`` shows on ``tree`` ("" if there is none to
    say): ``asked`` are the leaves the search asked for their children; for ``check``
    ``best_move`` a start at 0 is looked for at the root first (the question's own loop)."""
    options = options or Options()
    if bug == "start_at_zero" and check == "best_move":
        at_root = _no_move_beats_zero(tree, _values(tree, options.depth))
        if at_root:
            return at_root
    if bug == "leaf_not_checked" and asked:
        leaf = tree.node(asked[0])
        limit = options.depth if options.depth is not None else options.max_depth
        above = f", above the depth limit {limit}" if limit is not None else ""
        return (f"it shows at node {leaf.name} (path {leaf.path}): a leaf at depth "
                f"{len(leaf.path)}{above}, which your search asked for its children")
    found = _WHERE.get(bug)
    return found(tree, options) if found is not None else ""
