"""What a tree drawing shows, before any matplotlib: its nodes, their kinds and a tidy
top-down layout, kept in a networkx graph.

A :class:`~minimaxkit.tree.GameTree` is drawn whole. A searched *game* is drawn as the part
its trace reached: the visited nodes and the roots of the subtrees cut off.

>>> from minimaxkit.examples import sheet_tree
>>> m = TreeModel.of_tree(sheet_tree())
>>> len(m), m.n_leaves, m.pos[()], m.pos[(0,)], m.pos[(0, 0, 0)]
(40, 27, (13.0, 0.0), (4.0, -1.0), (0.0, -3.0))
>>> m.graph.number_of_edges(), m.graph.nodes[(1,)]["name"]
(39, 'C')
>>> m.statics, TreeModel.of_tree(sheet_tree().with_static()).statics[(1,)]
({}, 5)
"""

from __future__ import annotations

import math
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass, field
from typing import Any

from ..replay import Frame, Replay, fmt, state_at
from ..replay.narration import _move_label
from ..trace import CUTOFF, Path, Trace
from ..tree import GameTree
from .reached import add_pruned_roots, children_of, read_events

__all__ = ["TreeModel", "tidy_layout", "TooLargeToDraw", "MAX_DRAWN", "check_drawable",
           "side_room", "window_side", "corner_away", "MarkSpace", "RowMeasures"]

#: The most nodes a tree drawing lays out (about 3 s of matplotlib; labels stop at 100
#: leaves anyway). Larger trees and traces are refused at once with :class:`TooLargeToDraw`.
MAX_DRAWN = 20_000


class TooLargeToDraw(ValueError):
    """A tree or trace has more nodes than a drawing can show; the message says how many,
    the limit, and what to draw instead."""


def check_drawable(tree: Any, trace: Any = None, *, caller: str = "draw_tree") -> None:
    """Raise :class:`TooLargeToDraw` when drawing ``tree`` (and ``trace``) would lay out
    more than ``MAX_DRAWN`` nodes; counted before anything is built, so it answers at once.

    >>> from minimaxkit import GameTree
    >>> check_drawable(GameTree.random(depth=3, branching=3, seed=1))
    >>> try:
    ...     check_drawable(GameTree.random(depth=10, branching=3, seed=1))
    ... except TooLargeToDraw as err:
    ...     print(str(err)[:72])
    draw_tree: this tree has 88,573 nodes, more than the 20,000 a drawing la
    """
    if hasattr(tree, "trace") and hasattr(tree, "stats"):  # a search result
        trace = trace if trace is not None else tree.trace
        tree = tree.game
    elif isinstance(tree, Trace):
        trace, tree = tree, None
    if isinstance(tree, GameTree):
        n, what = len(tree), "this tree has"
    elif trace is not None:
        t = trace if isinstance(trace, Trace) else getattr(trace, "trace", None)
        if not isinstance(t, Trace):
            return
        n, what = TreeModel.size_of_trace(t, MAX_DRAWN), "this search reached"
    else:
        return
    if n > MAX_DRAWN:
        raise TooLargeToDraw(
            f"{caller}: {what} {n:,} nodes, more than the {MAX_DRAWN:,} a drawing lays out "
            "(past 100 leaves it shows no labels anyway). Draw a smaller tree, a search "
            "with a depth limit, or the top levels: result_png(result) draws a large game "
            "search two levels deep.")


def tidy_layout(children: dict[Path, list[Path]], root: Path = ()
                ) -> dict[Path, tuple[float, float]]:
    """Leaves one unit apart, left to right; each parent centred over its first and last
    child; depth ``d`` at ``y = -d``.

    >>> pos = tidy_layout({(): [(0,), (1,)], (0,): [(0, 0), (0, 1)], (1,): []})
    >>> [pos[p] for p in [(), (0,), (1,), (0, 0), (0, 1)]]
    [(1.25, 0.0), (0.5, -1.0), (2.0, -1.0), (0.0, -2.0), (1.0, -2.0)]
    """
    pos: dict[Path, tuple[float, float]] = {}
    x = 0.0
    # iterative post-order (game trees can be deep)
    stack: list[tuple[Path, bool]] = [(root, False)]
    while stack:
        p, done = stack.pop()
        kids = children.get(p, [])
        if not kids:
            pos[p] = (x, float(-len(p)))
            x += 1.0
        elif done:
            pos[p] = ((pos[kids[0]][0] + pos[kids[-1]][0]) / 2, float(-len(p)))
        else:
            stack.append((p, True))
            stack.extend((k, False) for k in reversed(kids))
    return pos


@dataclass
class TreeModel:
    """The nodes to draw (paths, breadth-first), their children, names, players, the
    leaves (drawn as squares) with their values, positions, and the static values of
    interior nodes that carry one (drawn beside them in a dashed box)."""

    paths: list[Path]
    children: dict[Path, list[Path]]
    names: dict[Path, str]
    is_max: dict[Path, bool]
    leaves: set[Path]
    values: dict[Path, float]
    pos: dict[Path, tuple[float, float]] = field(default_factory=dict)
    _graph: Any = field(default=None, repr=False)
    statics: dict[Path, float] = field(default_factory=dict)
    #: the longest value an interior node will show, without its ``≤``/``≥``, when a
    #: drawing knows it beforehand (0: as long as the longest leaf value)
    inner_chars: int = 0

    def __post_init__(self) -> None:
        if not self.pos:
            self.pos = tidy_layout(self.children)

    def __len__(self) -> int:
        return len(self.paths)

    @property
    def n_leaves(self) -> int:
        """How many nodes are drawn without children (the width of the drawing)."""
        return sum(1 for p in self.paths if not self.children.get(p))

    @property
    def height(self) -> int:
        """The depth of the deepest node drawn."""
        return max(len(p) for p in self.paths)

    def kind(self, p: Path) -> str:
        """``"leaf"``, ``"max"`` or ``"min"``: which shape the node gets."""
        if p in self.leaves:
            return "leaf"
        return "max" if self.is_max[p] else "min"

    @property
    def graph(self) -> Any:
        """The tree as a networkx ``DiGraph`` (nodes are paths, with ``name``, ``player``,
        ``value`` and ``pos`` attributes; edges parent to child)."""
        if self._graph is None:
            import networkx as nx  # imported here: it takes half a second

            g = nx.DiGraph()
            for p in self.paths:
                g.add_node(p, name=self.names[p], player="max" if self.is_max[p] else "min",
                           value=self.values.get(p), pos=self.pos[p], leaf=p in self.leaves)
            g.add_edges_from((p, c) for p in self.paths for c in self.children.get(p, []))
            self._graph = g
        return self._graph

    @classmethod
    def of_tree(cls, tree: GameTree) -> TreeModel:
        """Every node of an explicit tree."""
        nodes = tree.nodes()
        return cls(
            paths=[n.path for n in nodes],
            children={n.path: [c.path for c in n.children] for n in nodes},
            names={n.path: n.name for n in nodes},
            is_max={n.path: n.is_max for n in nodes},
            leaves={n.path for n in nodes if n.is_leaf},
            values={n.path: n.value for n in nodes if n.is_leaf and n.value is not None},
            statics={n.path: n.value for n in nodes
                     if not n.is_leaf and n.value is not None},
        )

    @staticmethod
    def size_of_trace(trace: Trace, limit: int | None = None) -> int:
        """How many nodes :meth:`of_trace` would hold, counted without laying anything out:
        the nodes reached plus the roots of pruned subtrees (every node of a search's
        trace is reached once). With ``limit``, any count above it may be returned as
        soon as it is certain (a trace has at least a node per three events).

        >>> from minimaxkit import alphabeta
        >>> from minimaxkit.games import TicTacToe
        >>> r = alphabeta(TicTacToe())
        >>> TreeModel.size_of_trace(r.trace) == len(TreeModel.of_trace(r.trace, r.game))
        True
        """
        if limit is not None and len(trace) > 3 * limit:
            return len(trace) // 3
        return trace.stats.nodes + sum(len(r[5]) for r in trace.raw if r[0] == CUTOFF)

    @classmethod
    def of_trace(cls, trace: Trace, game: Any = None, state: Any = None, *,
                 max_depth: int | None = None) -> TreeModel:
        """The part of a searched game that ``trace`` reached: visited nodes and the roots of
        pruned subtrees (down to ``max_depth`` levels, if given). With ``game`` (and the
        root ``state``, by default its initial state) nodes are named by their last move
        and pruned roots get their player. The stages are in :mod:`~minimaxkit.draw.reached`."""
        reached = read_events(trace, max_depth)
        root_state = None
        if game is not None:
            root_state = game.initial_state() if state is None else state
        add_pruned_roots(reached, game, root_state)
        paths = sorted(reached.seen, key=lambda p: (len(p), p))
        children = children_of(paths)
        names = _names(paths, game, root_state)
        return cls(paths, children, names, reached.is_max, reached.leaves, reached.values)


def _names(paths: Iterable[Path], game: Any, root_state: Any) -> dict[Path, str]:
    if game is None:
        return {p: str(p[-1]) if p else "root" for p in paths}
    names: dict[Path, str] = {}
    states: dict[Path, Any] = {(): root_state}
    for p in paths:  # breadth-first: parents come first
        if not p:
            names[p] = "root"
            continue
        parent = states.get(p[:-1])
        if parent is None:
            parent = states[p[:-1]] = state_at(game, root_state, p[:-1])
        move = game.moves(parent)[p[-1]]
        names[p] = _move_label(game, move)
        states[p] = game.play(parent, move)
    return names


def node_statuses(model: TreeModel, frame: Frame | None, traced: bool) -> dict[Path, str]:
    """Each node's state at ``frame``: plain (no trace), unvisited, visited, active (on the
    call stack) or pruned. Both renderers (matplotlib and SVG) draw from this."""
    if frame is None:
        return {p: "visited" if traced else "plain" for p in model.paths}
    out: dict[Path, str] = {}
    stack = frame.on_stack
    for p in model.paths:  # breadth-first: a parent's state is known first
        if p in frame.pruned or (p and out.get(p[:-1]) == "pruned"):
            out[p] = "pruned"
        elif p in stack:
            out[p] = "active"
        elif p in frame.visited:
            out[p] = "visited"
        else:
            out[p] = "unvisited"
    return out


def value_text(p: Path, frame: Frame | None) -> str:
    """The backed-up value shown at interior node ``p``: the value it returned, as a bound
    ``≥``/``≤`` when it is only one (the one rule, :attr:`Frame.bounds
    <minimaxkit.replay.Frame.bounds>`: exact when every child was searched and the best
    is exact, whatever window the node had; a cut leaves a bound); ``≥v``/``≤v`` while it
    is on the stack (the best so far); else nothing."""
    if frame is None:
        return ""
    if p in frame.values:
        kind = frame.bounds.get(p)
        if kind is not None:
            return ("≥" if kind == "lower" else "≤") + fmt(frame.values[p])
        return fmt(frame.values[p])
    for lv in frame.stack:
        if lv.path == p and lv.best is not None and lv.value is not None:
            return ("≥" if lv.is_max else "≤") + fmt(lv.value)
    return ""


def label_plan(labels: Any, n_leaves: int) -> tuple[bool, bool, bool]:
    """Which labels to draw: (values, interior names, leaf names).

    ``labels`` is ``"auto"`` (all up to 40 leaves, no leaf names up to 100, none beyond),
    ``"all"``/True, ``"values"`` or ``"none"``/False.

    >>> label_plan("auto", 27), label_plan("auto", 80), label_plan("auto", 500)
    ((True, True, True), (True, True, False), (False, False, False))
    """
    if labels is True or labels == "all":
        return True, True, True
    if labels is False or labels is None or labels == "none":
        return False, False, False
    if labels == "values":
        return True, False, False
    if labels == "auto":
        if n_leaves <= 40:
            return True, True, True
        if n_leaves <= 100:
            return True, True, False
        return False, False, False
    raise ValueError(f"labels must be 'auto', 'all', 'values' or 'none', got {labels!r}")


def resolve(tree: Any, trace: Any = None, game: Any = None, state: Any = None, *,
            caller: str = "draw_tree") -> tuple[TreeModel, Replay | None]:
    """The model to draw and the replay of its trace, from a tree, a search result, a
    trace or a game (see :func:`~minimaxkit.draw.draw_tree`)."""
    check_drawable(tree if game is None or not isinstance(game, GameTree) else game,
                   trace, caller=caller)
    result = None
    if hasattr(tree, "trace") and hasattr(tree, "stats"):  # a SearchResult
        result = tree
        trace = trace if trace is not None else result.trace
        tree = game if game is not None else result.game
        if state is None:  # a search that started mid-game is drawn from where it started
            state = getattr(result, "state", None)
    elif isinstance(tree, Trace):
        trace, tree = tree, game
    if isinstance(tree, GameTree):
        model = TreeModel.of_tree(tree)
    elif trace is not None:
        model = TreeModel.of_trace(trace if isinstance(trace, Trace) else trace.trace, tree,
                                   state)
    else:
        raise TypeError(f"{caller} needs a GameTree, a search result or a trace, got "
                        f"{type(tree).__name__}")
    replay = None
    if trace is not None:
        source = result if result is not None and trace is result.trace else trace
        replay = Replay(source, tree=tree, state=state)
    return model, replay


def check_marks(model: TreeModel, marks: Mapping[Path, str]) -> dict[Path, str]:
    """``marks`` with tuple paths, after checking every kind is known and every path drawn."""
    from .style import MARKS

    out: dict[Path, str] = {}
    for p, kind in marks.items():
        p = tuple(p)
        if kind not in MARKS:
            raise ValueError(f"unknown mark {kind!r} at path {p}; the marks are "
                             f"{sorted(MARKS)}")
        if p not in model.pos:
            raise ValueError(f"mark {kind!r}: no node at path {p} in this drawing")
        out[p] = kind
    return out


def name_sides(model: TreeModel, size: Mapping[Path, float], xpt: float,
               width: Callable[[Path], float]) -> dict[Path, int]:
    """The side (-1 left, 1 right) each node's name goes on, shared by the matplotlib and
    SVG drawings: away from the edge coming in from the parent, except that two neighbours'
    names never face each other across the gap between them ("E F" between two triangles
    reads as either's): of such a pair, the right one's name moves to its other side, left
    to right along each level. ``size``, ``xpt`` and ``width`` are kept for the callers
    (marker sizes, points per unit of x, a label's width).

    >>> from minimaxkit import GameTree
    >>> m = TreeModel.of_tree(GameTree.from_nested([[[1, 2], [3, 4]], [[5, 6], [7, 8]]]))
    >>> size = {p: 10.0 for p in m.paths}
    >>> [name_sides(m, size, 100.0, lambda p: 8.0)[p] for p in [(0, 1), (1, 0)]]
    [1, 1]
    """
    pos = model.pos
    side = {p: -1 if not p or pos[p[:-1]][0] >= pos[p][0] else 1 for p in model.paths}
    by_depth: dict[int, list[Path]] = {}
    for p in model.paths:
        if p not in model.leaves:
            by_depth.setdefault(len(p), []).append(p)
    for row in by_depth.values():
        row.sort(key=lambda p: pos[p][0])
        for a, b in zip(row, row[1:], strict=False):
            if side[a] > 0 and side[b] < 0:
                side[b] = 1
    return side


def window_side(model: TreeModel, sides: Mapping[Path, int], p: Path) -> tuple[int, bool]:
    """Where the (α, β) window of ``p`` goes, shared by the matplotlib and SVG drawings:
    ``(side, beyond_name)``. It goes on the side opposite ``p``'s name, unless the
    neighbour there (same level) has its name facing ``p``: then it would cover that name,
    and it goes on the name's side instead, beyond the name (``beyond_name``). A name on
    that side never faces ``p``'s (:func:`name_sides`), so that side is free.

    >>> from minimaxkit import GameTree
    >>> m = TreeModel.of_tree(GameTree.from_nested([[[1, 2], [3, 4], [5, 6]], [[7, 8]]]))
    >>> sides = {p: 1 for p in m.paths}     # every name on the right
    >>> window_side(m, sides, (0, 0)), window_side(m, sides, (0, 1))
    ((-1, False), (1, True))
    """
    side = sides[p]
    if p in model.leaves or not p:
        return -side, False
    x = model.pos[p][0]
    row = [q for q in model.paths if len(q) == len(p) and q not in model.leaves and q != p
           and (model.pos[q][0] - x) * -side > 0]
    if row:
        near = min(row, key=lambda q: abs(model.pos[q][0] - x))
        if sides[near] == side:  # its name points at p, across the gap the window would use
            return side, True
    return -side, False


def corner_away(model: TreeModel, p: Path, side: int) -> int:
    """The side of ``p`` away from the edge coming in from its parent: -1 or 1; 0 when the
    parent is straight above, or ``p`` is the root (``side`` is kept for the callers)."""
    if not p:
        return 0
    dx = model.pos[p[:-1]][0] - model.pos[p][0]
    return 0 if dx == 0 else (-1 if dx > 0 else 1)


@dataclass(frozen=True)
class MarkSpace:
    """What a mark beside a node must keep clear of, in points: the node's name, ``name_width``
    wide (an interior node's, beside it) and ``name_height`` high (0 when names are not
    drawn); the mark's own width ``mark``; the ``room`` in the node's row on the name's side
    (points from the node's centre to the nearest thing drawn there, see
    :func:`side_room`); and the ``corner`` away from the edge from the parent (see
    :func:`corner_away`; 0: the parent straight above, or the root)."""

    name_width: float = 0.0
    name_height: float = 0.0
    mark: float = 0.0
    room: float = math.inf
    corner: int = 0


def mark_offset(where: str, leaf: bool, side: int, size: float,
                space: MarkSpace) -> tuple[float, float]:
    """Where a mark's centre sits from its node's centre, in points (x right, y up), shared
    by the matplotlib and SVG drawings, so that a mark never covers a value, a name or an
    edge (``space`` says what is around it): below a leaf's name, where nothing else is
    drawn; beyond an interior node's name (on ``side``, see :func:`name_sides`), at the
    name's height, which is away from the edge from the parent and above the edges to the
    children; when the row has no room for it there, over the node's upper corner on the
    side ``space.corner`` (``side`` when that is 0), where it is nearer its own node than
    any other. ``size`` is the node's width; ``where`` is kept for the callers (every mark
    is placed this way now).

    >>> mark_offset("ne", True, 1, 10.0, MarkSpace(name_height=8.0, mark=6.0))
    (0.0, -20.0)
    >>> mark_offset("nw", False, -1, 10.0, MarkSpace(name_width=7.0, mark=6.0))
    (-23.0, 0.8)
    >>> mark_offset("nw", False, -1, 10.0, MarkSpace(name_width=7.0, name_height=9.0,
    ...                                               mark=6.0, room=20, corner=-1))
    (-5.0, 10.0)
    >>> mark_offset("nw", False, -1, 10.0, MarkSpace(name_width=7.0, name_height=9.0,
    ...                                               mark=6.0, room=20))
    (-5.0, 10.0)
    """
    from .style import CURRENT

    name_width, name_height, mark = space.name_width, space.name_height, space.mark
    room, corner = space.room, space.corner
    ring = 0.5 * CURRENT.scale * size  # the current node's ring: names sit outside it
    if leaf:
        return 0.0, -(ring + 1.0 + name_height + 1.0 + 0.5 * mark)
    beyond = ring + 3.0 + name_width + 3.0 + 0.5 * mark
    if beyond + 0.5 * mark + 2.0 <= room:
        return side * beyond, 0.08 * size
    # no room in the row: over the node's upper corner away from the edge from the parent,
    # nearer its own node than any neighbour (under the name it sat between two triangles)
    return (corner or side) * max(0.3 * size, 0.5 * mark + 2.0), 0.5 * size + 0.5 * mark + 2.0


@dataclass(frozen=True)
class RowMeasures:
    """The measures of a drawing that :func:`side_room` reads: ``xpt`` points per unit of
    the layout's x, each node's ``size`` (points), the side of each interior node's name
    (``sides``, see :func:`name_sides`) and the width (points) of a node's name as drawn
    (``name_width``: 0 when it is not drawn)."""

    xpt: float
    size: Mapping[Path, float]
    sides: Mapping[Path, int]
    name_width: Callable[[Path], float]


def side_room(model: TreeModel, p: Path, side: int, measures: RowMeasures) -> float:
    """Points from ``p``'s centre, toward ``side``, to the nearest thing drawn in its row: a
    neighbour (its node, 3 points out), or its name when that faces ``p`` (for
    :class:`MarkSpace`'s ``room``)."""
    xpt, size, sides, name_width = (measures.xpt, measures.size, measures.sides,
                                    measures.name_width)

    x, depth = model.pos[p][0], len(p)
    best = math.inf
    for q in model.paths:
        if len(q) != depth or q == p or (model.pos[q][0] - x) * side <= 0:
            continue
        # to the neighbour's node and a little more: its current-node ring, shown at one
        # step, may reach under a mark (a mark between two nodes is worse)
        d = abs(model.pos[q][0] - x) * xpt - 0.5 * size[q] - 3.0
        if q not in model.leaves and sides.get(q) == -side:
            d -= name_width(q) + 3.0
        best = min(best, d)
    return best
