"""Reference searches. Each is a plain function over the game protocol that returns a
:class:`SearchResult` with the value, the best move, the principal variation, the trace
and the counts.

One core serves minimax, simple pruning and alpha-beta: every node maximises ``s·v`` with
``s = +1`` at MAX and ``-1`` at MIN, so MAX and MIN share one loop. :func:`negamax` is a
separate, independent formulation (values negated at each level) whose traces are equal.

>>> from minimaxkit import GameTree
>>> tree = GameTree.from_nested([[3, 12, 8], [2, 4, 6], [14, 5, 2]])
>>> r = alphabeta(tree)
>>> r.value, r.move, r.pv, r.stats.leaves
(3, 0, (0, 0), 7)
>>> minimax(tree).stats.leaves
9
>>> alphabeta(tree, prune_on_equal=False, fail="hard").value
3
"""

from __future__ import annotations

import contextlib
import difflib
import gc
import math
import numbers
import sys
from collections.abc import Callable, Hashable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from types import MappingProxyType
from typing import Any

from ..errors import OptionError, TreeError
from ..game import Game
from ..trace import CUTOFF, ENTER, EXIT, LEAF, TTHIT, Path, Stats, Trace
from ..tree import GameTree
from .transposition import EXACT as _EXACT
from .transposition import FLIP as _FLIP
from .transposition import LOWER as _LOWER
from .transposition import UPPER as _UPPER
from .transposition import Entry, ReplayEntry, TranspositionTable, decides, replay_rule

__all__ = ["SearchResult", "minimax", "simple_pruning", "alphabeta", "negamax", "OrderKey"]

INF = math.inf
OrderKey = Callable[[Any, Any, Any], float]
Order = str | OrderKey | None
_ORDERS = (None, "natural", "static", "perfect")


@dataclass(frozen=True)
class SearchResult:
    """What a search found and how: ``value`` and ``move`` at the root, the principal
    variation ``pv`` (move labels), the ``trace`` (None when ``trace=False``) and ``stats``."""

    value: float
    move: Any
    pv: tuple[Any, ...]
    trace: Trace | None
    stats: Stats
    algorithm: str
    options: Mapping[str, Any] = field(default_factory=dict)
    game: Any = field(default=None, repr=False, compare=False)
    state: Any = field(default=None, repr=False, compare=False)

    def __post_init__(self) -> None:
        # a result is a record of what happened: its options are read-only
        object.__setattr__(self, "options", MappingProxyType(dict(self.options)))

    def __reduce__(self) -> Any:
        fields = [getattr(self, f) for f in ("value", "move", "pv", "trace", "stats",
                                              "algorithm")]
        return (SearchResult, (*fields, dict(self.options), self.game, self.state))

    def _repr_png_(self) -> bytes | None:
        try:
            from ..draw import result_png
        except ImportError:
            return None
        return result_png(self)

    def _repr_mimebundle_(self, include: Any = None, exclude: Any = None
                          ) -> tuple[dict[str, Any], dict[str, Any]] | None:
        """The picture as PNG, and as HTML ``<img>`` with its text alternative (drawn once)."""
        try:
            from ..draw.render import result_bundle
        except ImportError:
            return None
        return result_bundle(self)


# ----- option checking ---------------------------------------------------------------------
def check_game(game: Any) -> Game:
    """Raise :class:`OptionError` unless ``game`` follows the protocol."""
    if isinstance(game, (list, tuple)):
        raise OptionError("game", "got a nested list; make a tree first with "
                                  "GameTree.from_nested(...)")
    if not isinstance(game, Game):
        missing = [m for m in ("initial_state", "moves", "play", "is_max", "evaluate",
                               "value_range") if not hasattr(game, m)]
        raise OptionError("game", f"{type(game).__name__} is not a game: it lacks {missing}")
    return game


def check_depth(depth: Any, name: str = "depth") -> int | None:
    """``depth`` as given, after checking it is None or a whole number >= 0."""
    if depth is not None and (isinstance(depth, bool) or not isinstance(depth, int)
                              or depth < 0):
        raise OptionError(name, f"must be None or a whole number >= 0, got {depth!r}")
    return depth  # type: ignore[no-any-return,unused-ignore]


def reject_unknown(unknown: dict[str, Any], known: Sequence[str]) -> None:
    """Raise :class:`OptionError` for the first unknown keyword, suggesting a near name."""
    for name in unknown:
        near = difflib.get_close_matches(name, known, n=1)
        hint = f"; did you mean {near[0]!r}?" if near else ""
        raise OptionError(name, f"unknown option{hint} The options are {sorted(known)}")


def _check_order(game: Game, order: Any, depth: int | None, start: Any = None) -> None:
    if order not in _ORDERS and not callable(order):
        raise OptionError("order", f"must be None, 'static', 'perfect' or a key function "
                                   f"f(game, state, move) -> float, got {order!r}")
    if order == "static" and isinstance(game, GameTree):
        # static ordering evaluates the children of every node the search expands: the
        # interior nodes from one move below the start down to the depth limit
        level = list(start.children) if start is not None else []
        while level and (depth is None or len(level[0].path) - len(start.path) <= depth):
            for node in level:
                if node.children:
                    game.evaluate(node)  # raises TreeError naming the node without a value
            level = [c for n in level for c in n.children]


#: What a node returns (docs/design.md, *Return conventions*): "soft" the best value found,
#: "hard" that value clamped into the node's window [α, β], "one-sided" the value of a search
#: that starts at the node's own bound (α at MAX, β at MIN) and is never clamped at the other.
FAIL_MODES = ("soft", "hard", "one-sided")


def check_conventions(prune_on_equal: Any, fail: Any) -> None:
    """Raise :class:`OptionError` unless the cut rule and the fail mode are ones the kit has."""
    if not isinstance(prune_on_equal, bool):
        raise OptionError("prune_on_equal", f"must be True or False, got {prune_on_equal!r}")
    if fail not in FAIL_MODES:
        raise OptionError("fail", f"must be 'soft', 'hard' (clamped into [alpha, beta]) or "
                                  f"'one-sided' (the example sheet's form), got {fail!r}")


def check_table(table: Any, tt: Any = False) -> None:
    """Raise :class:`OptionError` unless ``table`` is None or a TranspositionTable (and
    ``tt`` is not also asked for: one table at a time)."""
    if table is not None and not isinstance(table, TranspositionTable):
        raise OptionError("table", f"must be None or a TranspositionTable() (from "
                                   f"minimaxkit.search.transposition), got {table!r}")
    if table is not None and tt:
        raise OptionError("table", "give tt=True or a table, not both")


def _check_window(window: Any) -> tuple[float, float]:
    try:
        lo, hi = window
        ok = all(isinstance(x, numbers.Real) and not isinstance(x, bool) for x in (lo, hi)) \
            and lo < hi
    except (TypeError, ValueError):
        ok = False
    if not ok:
        raise OptionError("window", f"must be a pair (alpha, beta) with alpha < beta, "
                                    f"got {window!r}")
    return lo, hi


# ----- ordering ------------------------------------------------------------------------------
def _sorted_indices(keys: Sequence[float | None], mx: bool) -> list[int]:
    """MAX children high to low, MIN children low to high; unknown keys last; ties stable."""
    sign = -1 if mx else 1
    return sorted(range(len(keys)), key=lambda i: (keys[i] is None, sign * (keys[i] or 0)))


def _make_order(game: Game, order: Order, limit: int) -> Callable[..., list[int]] | None:
    """A function (state, d, path, moves, mx) -> child indices in search order."""
    play, evaluate = game.play, game.evaluate
    if order in (None, "natural"):
        return None
    if order == "static":
        def by_static(state: Any, d: int, path: Path, moves: Sequence[Any], mx: bool) -> list[int]:
            return _sorted_indices([evaluate(play(state, m)) for m in moves], mx)
        return by_static
    if order == "perfect":
        memo: dict[Hashable, float] = {}

        def exact(state: Any, d: int) -> float:
            key = (state, d)
            if key not in memo:
                depth = None if limit < 0 else limit - d
                memo[key] = alphabeta(game, state, depth=depth, trace=False).value
            return memo[key]

        def by_value(state: Any, d: int, path: Path, moves: Sequence[Any], mx: bool) -> list[int]:
            return _sorted_indices([exact(play(state, m), d + 1) for m in moves], mx)
        return by_value
    assert callable(order)
    key: OrderKey = order

    def by_key(state: Any, d: int, path: Path, moves: Sequence[Any], mx: bool) -> list[int]:
        return _sorted_indices([key(game, state, m) for m in moves], mx)
    return by_key


def _flag(prune: bool, v: float, a0: float, b: float, mx: bool) -> str | None:
    """A table entry's flag from MAX's view, found in the node's own view (where it
    maximises ``v`` in the window (a0, b)): a value never raised above the window's low end
    is an upper bound, one at or past its high end a lower bound, anything between exact.
    None when it is neither: strict cuts can close a child's window to α = β, and a value
    equal to both ends may have come from a child's upper or lower bound.

    >>> _flag(True, 3, 3, 5, True), _flag(True, 5, 3, 5, True), _flag(True, 4, 3, 5, False)
    ('upper', 'lower', 'exact')
    >>> _flag(True, 3, 3, 3, True) is None
    True
    """
    if not prune:
        return _EXACT
    if v == a0 == b:
        return None
    own = _UPPER if v <= a0 else _LOWER if v >= b else _EXACT
    return own if mx else _FLIP[own]


# ----- the core ----------------------------------------------------------------------------
@dataclass
class Collected:
    """What progressive deepening needs from a search, trace or not: the best child (its
    natural index) of every node where a move raised the node's value into its window or
    cut it off, by path (one dict, kept from iteration to iteration: the next one searches
    that child first), and the depth of the deepest node evaluated statically."""

    best: dict[Path, int] = field(default_factory=dict)
    deepest: int = 0


def _run(game: Game, state: Any, algorithm: str, *, depth: int | None, prune: bool,
         narrow: bool, window: tuple[float, float], prune_on_equal: bool, fail: str,
         order: Order, tt: bool, trace: bool, first: Mapping[Path, int] | None = None,
         table: TranspositionTable | None = None, check: Callable[[], None] | None = None,
         options: dict[str, Any], collect: Collected | None = None) -> SearchResult:
    moves_f, play_f, is_max_f, eval_f = game.moves, game.play, game.is_max, game.evaluate
    limit = -1 if depth is None else depth
    rec: list[tuple[Any, ...]] | None = [] if trace else None
    emit = rec.append if rec is not None else None
    order_fn = _make_order(game, order, limit)
    need_path = emit is not None or first is not None or collect is not None
    best_found = collect.best if collect is not None else None
    replay: dict[Any, ReplayEntry] | None = {} if tt else None
    cut_kind = ("beta", "alpha") if narrow else ("best", "best")
    leaves = expanded = cutoffs = tt_hits = 0
    # for deepening and the table: reach[0] is the deepest depth evaluated statically
    # below the node being searched, and each node's best move is noted
    track = collect is not None or table is not None
    hints = first is not None or table is not None
    after = track or tt  # work after a node's loop beyond the trace: tables, best moves
    reach = [0]

    # pvs[d] holds the principal variation below the node last returned at depth d
    # (grown on demand: a huge depth limit costs nothing up front)
    pvs: list[tuple[Any, ...]] = [()] * 64

    tt_answers = replay_rule(replay_same_window=first is None)
    starts_at_bound = fail != "soft"  # hard and one-sided: v starts at the node's own bound
    clamped = fail == "hard"  # hard: and never returns more than the other bound

    def node(state: Any, d: int, alpha: float, beta: float, path: Path) -> float:
        nonlocal leaves, expanded, cutoffs, tt_hits
        if check is not None:
            check()
        moves = moves_f(state)
        if not moves or d == limit:
            v = eval_f(state)
            leaves += 1
            pvs[d] = ()
            if emit is not None:
                emit((LEAF, path, v, alpha, beta, is_max_f(state), d))
            if track and d > reach[0]:
                reach[0] = d
            return v
        entry = None
        if after:
            if replay is not None:
                hit = replay.get((state, limit - d if limit >= 0 else -1))
                if hit is not None and tt_answers(hit, alpha, beta):
                    tt_hits += 1
                    pvs[d] = hit[4]
                    if emit is not None:
                        emit((TTHIT, path, hit[2], hit[3]))
                    return hit[2]
            elif table is not None:
                entry = table.get(state)
                if entry is not None and decides(entry, limit - d if limit >= 0 else -1,
                                                 alpha, beta, prune_on_equal):
                    tt_hits += 1
                    pvs[d] = entry.pv
                    reach[0] = max(reach[0], d + entry.reached)
                    if emit is not None:
                        emit((TTHIT, path, entry.value, entry.flag))
                    return entry.value
            if track:
                outer, reach[0] = reach[0], d
        mx = is_max_f(state)
        expanded += 1
        if emit is not None:
            emit((ENTER, path, alpha, beta, mx, d))
        if len(pvs) <= d + 1:
            pvs.extend([()] * len(pvs))
        # the node's own view: it maximises s*v inside the window (a, b)
        if mx:
            s, a, b = 1, alpha, beta
        else:
            s, a, b = -1, -beta, -alpha
        ca, cb = alpha, beta  # the children's window, from MAX's view
        v = a if starts_at_bound else -INF
        idx: Sequence[int] = (order_fn(state, d, path, moves, mx) if order_fn is not None
                              else range(len(moves)))
        if hints:
            # the move remembered as best here (by the table, or by path) is searched first
            hint = (moves.index(entry.move) if entry is not None and entry.move in moves
                    else first.get(path) if first is not None else None)
            if hint is not None and hint != idx[0]:
                idx = [hint, *(i for i in idx if i != hint)]
        a0 = a
        best = idx[0]
        pv: tuple[Any, ...] = ()
        d1 = d + 1
        for i in idx:
            cv = s * node(play_f(state, moves[i]), d1, ca, cb,
                          path + (i,) if need_path else path)
            if cv > v or not pv:
                # the first child stands for the node until a better one comes, so that a
                # node whose every move loses still has its whole principal variation
                best, pv = i, (moves[i], *pvs[d1])
                v = max(v, cv)
            if prune and (v >= b if prune_on_equal else v > b):
                cutoffs += 1
                if emit is not None:
                    rest = idx[list(idx).index(i) + 1:]
                    emit((CUTOFF, path, s * v, s * b, cut_kind[0 if mx else 1], tuple(rest)))
                break
            if narrow and v > a:
                a = v
                ca, cb = (a, b) if mx else (-b, -a)
        if clamped and v > b:
            v = b
        value = s * v
        pvs[d] = pv
        if emit is not None:
            emit((EXIT, path, value, best))
        if not after:
            return value
        if replay is not None:
            replay[(state, limit - d if limit >= 0 else -1)] = (
                alpha, beta, value, _flag(prune, v, a0, b, mx) or (_UPPER if mx else _LOWER), pv)
        if not track:
            return value
        # a best move is one that raised the value into the window (or cut): where every
        # move failed low, the values are only upper bounds and name no best move
        raised = v > a0
        if best_found is not None and raised:
            best_found[path] = best
        below, reach[0] = reach[0], max(outer, reach[0])
        flag = _flag(prune, v, a0, b, mx) if table is not None else None
        if table is not None and flag is not None:
            table.store(state, Entry(limit - d if limit >= 0 else -1, value, flag,
                                     moves[best] if raised else None, pv, below - d))
        return value

    # The trace is hundreds of thousands of small tuples that hold no cycles; the cyclic
    # garbage collector would rescan them again and again (measured: tracing cost 2.3x the
    # untraced time with it, 1.5x without), so it pauses during the search.
    collecting = gc.isenabled()
    gc.disable()
    try:
        with _recursion_room():
            value = node(state, 0, window[0], window[1], ())
    finally:
        if collecting:
            gc.enable()
    if collect is not None:
        collect.deepest = max(collect.deepest, reach[0])
    pv = pvs[0]
    stats = Stats(expanded + leaves + tt_hits, leaves, expanded, cutoffs, tt_hits)
    trace_ = Trace._of_walk(rec) if rec is not None else None
    return SearchResult(value, pv[0] if pv else None, pv, trace_, stats, algorithm, options,
                        game, state)


#: The deepest tree a search will recurse into (one Python frame per level; the recursion
#: limit is raised for the search's duration). Deeper trees get a TreeError before the search.
MAX_TREE_DEPTH = 50_000


@contextlib.contextmanager
def _recursion_room(levels: int = MAX_TREE_DEPTH) -> Iterator[None]:
    """Raise the interpreter's recursion limit, if needed, so that a search can recurse
    ``levels`` deep, and put it back afterwards."""
    old = sys.getrecursionlimit()
    need = old + levels
    if need > old:
        sys.setrecursionlimit(need)
    try:
        yield
    finally:
        sys.setrecursionlimit(old)


def _prepare(game: Any, state: Any, depth: Any, order: Any) -> tuple[Game, Any, int | None]:
    game = check_game(game)
    depth = check_depth(depth)
    state = game.initial_state() if state is None else state
    if isinstance(game, GameTree):
        if not game.contains(state):
            raise TreeError(getattr(state, "path", ()),
                            f"the start state {state!r} is not a node of the tree being "
                            "searched (a node of another tree?); pass tree.node(path)")
        height = game.height - len(state.path)
        if height > MAX_TREE_DEPTH and (depth is None or depth > MAX_TREE_DEPTH):
            raise TreeError(state.path, f"the tree is {height} levels deep below the start; "
                                        f"searches go at most {MAX_TREE_DEPTH} levels deep "
                                        "(give a smaller depth)")
        game.check_static(depth, state)
    _check_order(game, order, depth, state if isinstance(game, GameTree) else None)
    return game, state, depth


_COMMON = ("depth", "trace", "order", "tt")


def minimax(game: Any, state: Any = None, *, depth: int | None = None, trace: bool = True,
            order: Order = None, tt: bool = False, **unknown: Any) -> SearchResult:
    """Plain minimax (the recursive-minimax handout's MaxMin/MinMax, the MIT 6.034
    recitation's MINIMAX, the blog post's depth-limited form): every node is searched; nodes
    at ``depth`` are evaluated statically.

    >>> from minimaxkit.examples import sheet_tree
    >>> r = minimax(sheet_tree())
    >>> r.value, r.move, r.stats.leaves
    (5, 1, 27)
    >>> minimax(sheet_tree(), depth=-1)
    Traceback (most recent call last):
    ...
    minimaxkit.errors.OptionError: option 'depth': must be None or a whole number >= 0, got -1
    """
    reject_unknown(unknown, _COMMON)
    game, state, depth = _prepare(game, state, depth, order)
    return _run(game, state, "minimax", depth=depth, prune=False, narrow=False,
                window=(-INF, INF), prune_on_equal=True, fail="soft", order=order, tt=tt,
                trace=trace, options={"depth": depth, "order": order, "tt": tt})


def simple_pruning(game: Any, state: Any = None, *, depth: int | None = None,
                   trace: bool = True, order: Order = None, **unknown: Any) -> SearchResult:
    """Minimax that stops at a node as soon as one move reaches the best value possible there
    (the machine-player tutorial's §1.2: ``value_range[1]`` for MAX, ``value_range[0]`` for MIN).

    >>> from minimaxkit.games import TicTacToe
    >>> r = simple_pruning(TicTacToe(), TicTacToe().state_from_text("XX.\\nOO.\\n..."))
    >>> r.value, r.move, r.stats.leaves
    (1, 2, 1)
    """
    reject_unknown(unknown, ("depth", "trace", "order"))
    game, state, depth = _prepare(game, state, depth, order)
    return _run(game, state, "simple_pruning", depth=depth, prune=True, narrow=False,
                window=(game.value_range[0], game.value_range[1]), prune_on_equal=True,
                fail="soft", order=order, tt=False, trace=trace,
                options={"depth": depth, "order": order})


def alphabeta(game: Any, state: Any = None, *, depth: int | None = None,
              prune_on_equal: bool = True, fail: str = "soft",
              window: tuple[float, float] = (-INF, INF), order: Order = None, tt: bool = False,
              table: TranspositionTable | None = None, trace: bool = True,
              **unknown: Any) -> SearchResult:
    """Alpha-beta search.

    ``prune_on_equal=True`` cuts when v ≥ β (MAX) or v ≤ α (MIN), as all five sources do;
    ``False`` cuts only on v > β or v < α. What a node returns: ``fail="soft"`` the best
    value v it found, which may lie outside [α, β] (the recursive-minimax handout, the MIT
    6.034 recitation, the blog post); ``fail="hard"`` v clamped into [α, β] (α where every
    move failed low, β at a β-cut: the textbooks' fail-hard); ``fail="one-sided"`` starts v
    at the node's own bound, α at MAX and β at MIN, and returns it unclamped, so a cut can
    return more than β (the example sheet's form, and the machine-player tutorial's).
    All three give the same root value.
    ``window`` is the initial (α, β); ``order`` reorders children (see ``docs/design.md``);
    ``tt=True`` adds a transposition table that never changes the result (hashable states);
    ``table=`` a :class:`~minimaxkit.search.transposition.TranspositionTable` to read and
    fill: bounds that decide the window answer a node, and each position's stored best move is
    searched first (the root's value and best move are those without it; ``docs/design.md``).

    >>> from minimaxkit.examples import sheet_tree
    >>> r = alphabeta(sheet_tree())
    >>> r.value, [sheet_tree().node(p).value for p in r.trace.leaves]
    (5, [8, 7, 3, 9, 2, 4, 1, 1, 3, 5, 3, 9, 6, 1, 2, 3])
    """
    reject_unknown(unknown, (*_COMMON, "prune_on_equal", "fail", "window", "table"))
    check_conventions(prune_on_equal, fail)
    window = _check_window(window)
    check_table(table, tt)
    game, state, depth = _prepare(game, state, depth, order)
    return _run(game, state, "alphabeta", depth=depth, prune=True, narrow=True, window=window,
                prune_on_equal=prune_on_equal, fail=fail, order=order, tt=tt,
                table=table, trace=trace,
                options={"depth": depth, "prune_on_equal": prune_on_equal, "fail": fail,
                         "window": window, "order": order, "tt": tt,
                         "table": table is not None})


def negamax(game: Any, state: Any = None, *, depth: int | None = None,
            prune_on_equal: bool = True, fail: str = "soft",
            window: tuple[float, float] = (-INF, INF), order: Order = None, tt: bool = False,
            trace: bool = True, **unknown: Any) -> SearchResult:
    """Alpha-beta as negamax: each node returns its value for the player to move there and
    a child's value is negated where the player changes. Traces (α, β from MAX's view) are
    equal to :func:`alphabeta`'s under the same options, and ``tt=True`` gives the same
    guarantee: the value is the value without the table.

    >>> from minimaxkit.examples import sheet_tree
    >>> negamax(sheet_tree()).trace == alphabeta(sheet_tree()).trace
    True
    >>> from minimaxkit.games import Nim
    >>> negamax(Nim((1, 3, 4)), depth=6, tt=True).value == alphabeta(Nim((1, 3, 4)), depth=6).value
    True
    """
    reject_unknown(unknown, (*_COMMON, "prune_on_equal", "fail", "window"))
    check_conventions(prune_on_equal, fail)
    lo, hi = _check_window(window)
    game, state, depth = _prepare(game, state, depth, order)
    limit = -1 if depth is None else depth
    order_fn = _make_order(game, order, limit)
    rec: list[tuple[Any, ...]] = []
    emit = rec.append if trace else None
    counts = [0, 0, 0, 0]  # leaves, expanded, cut-offs, table hits: counted, traced or not
    starts_at_bound, clamped = fail != "soft", fail == "hard"
    table: dict[Any, ReplayEntry] | None = {} if tt else None
    tt_answers = replay_rule(replay_same_window=True)

    def max_view(color: int, a: float, b: float) -> tuple[float, float]:
        return (a, b) if color > 0 else (-b, -a)

    def nega(st: Any, d: int, a: float, b: float, color: int, path: Path) -> tuple[float, tuple]:
        moves = game.moves(st)
        if not moves or d == limit:
            v = color * game.evaluate(st)
            counts[0] += 1
            if emit is not None:
                emit((LEAF, path, color * v, *max_view(color, a, b), color > 0, d))
            return v, ()
        key = (st, limit - d if limit >= 0 else -1)
        if table is not None and key in table and tt_answers(table[key], *max_view(color, a, b)):
            _, _, value, flag, tpv = table[key]
            counts[3] += 1
            if emit is not None:
                emit((TTHIT, path, value, flag))
            return color * value, tpv
        counts[1] += 1
        if emit is not None:
            emit((ENTER, path, *max_view(color, a, b), color > 0, d))
        a0 = a
        v, best, best_pv = (a if starts_at_bound else -INF), None, ()
        idx = order_fn(st, d, path, moves, color > 0) if order_fn else list(range(len(moves)))
        for k, i in enumerate(idx):
            child = game.play(st, moves[i])
            c = 1 if game.is_max(child) else -1
            if c == color:
                cv, cpv = nega(child, d + 1, a, b, c, path + (i,))
            else:
                cv, cpv = nega(child, d + 1, -b, -a, c, path + (i,))
                cv = -cv
            if best is None or cv > v:
                best, best_pv, v = i, cpv, max(v, cv)
            if v >= b if prune_on_equal else v > b:
                counts[2] += 1
                if emit is not None:
                    emit((CUTOFF, path, color * v, color * b,
                          "beta" if color > 0 else "alpha", tuple(idx[k + 1:])))
                break
            a = max(a, v)
        if clamped and v > b:
            v = b
        if emit is not None:
            emit((EXIT, path, color * v, best))
        pv = (moves[best],) + best_pv
        if table is not None:
            own = _UPPER if v <= a0 else _LOWER if v >= b else _EXACT
            table[key] = (*max_view(color, a0, b), color * v,
                          own if color > 0 or own == _EXACT else _FLIP[own], pv)
        return v, pv

    color = 1 if game.is_max(state) else -1
    with _recursion_room():
        v, pv = nega(state, 0, *max_view(color, lo, hi), color, ())
    t = Trace._of_walk(rec) if trace else None
    leaves, expanded, cutoffs, tt_hits = counts
    stats = Stats(expanded + leaves + tt_hits, leaves, expanded, cutoffs, tt_hits)
    return SearchResult(color * v, pv[0] if pv else None, pv, t, stats, "negamax",
                        {"depth": depth, "prune_on_equal": prune_on_equal, "fail": fail,
                         "window": (lo, hi), "order": order, "tt": tt}, game, state)
