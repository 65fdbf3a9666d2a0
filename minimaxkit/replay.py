"""Replaying a trace: what a search had done after each event, and why, in words.

A :class:`Replay` reads a trace once and then answers, for any step ``k`` (the number of
events applied, ``0 .. len(trace)``), a :class:`Frame`: the event of that step, the call
stack with α and β at each level, what is visited, pruned and backed up so far, the best
line so far and an explanation. Everything is read from the trace events (and names from
the tree); nothing searches again.

>>> import textwrap
>>> from minimaxkit import alphabeta
>>> from minimaxkit.examples import tree_002
>>> tree = tree_002()
>>> r = Replay(alphabeta(tree))
>>> f = r.frame(10)
>>> print(textwrap.fill(f.text, 88))
β-cut at F: v = 9 ≥ β = 8, its last 2 children (R, S) are not searched. B (MIN) already
has 8 (from E), so it will never choose F, which is worth at least 9.
>>> [(lv.name, fmt(lv.alpha), fmt(lv.beta)) for lv in f.stack]
[('A', '−∞', '∞'), ('B', '−∞', '8'), ('F', '−∞', '8')]
>>> sorted(tree.node(p).name for p in f.pruned)
['R', 'S']
>>> print(textwrap.fill(replay(alphabeta(tree), 40).text, 88))
α-cut at D: v = 3 ≤ α = 5, its last 2 children (L, M) are not searched. A (MAX) already
has 5 (from C), so it will never choose D, which is worth at most 3.
"""

from __future__ import annotations

import math
from bisect import bisect_left
from collections.abc import Callable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from .trace import Cutoff, Enter, Event, Exit, Leaf, Path, Trace, TTHit
from .tree import GameTree

__all__ = ["Level", "Frame", "Replay", "replay", "fmt", "first_divergence", "state_at",
           "node_namer"]


def fmt(v: float | None) -> str:
    """A value as the kit writes it: whole numbers without ``.0``, ``∞`` and ``−∞``.

    >>> [fmt(x) for x in (3, 3.0, 0.3333, -math.inf, math.inf, None)]
    ['3', '3', '0.333', '−∞', '∞', '?']
    >>> fmt(8497.31), fmt(-1234.5), fmt(7.654)   # large values rounded, never 8.5e+03
    ('8497', '-1234', '7.65')
    """
    if v is None:
        return "?"
    if isinstance(v, float):
        if math.isinf(v):
            return "∞" if v > 0 else "−∞"
        if v.is_integer() and abs(v) < 1e15:
            return str(int(v))
        if 1000 <= abs(v) < 1e15:
            return f"{v:.0f}"
        return f"{v:.3g}"
    return str(v)


def _player(is_max: bool) -> str:
    return "MAX" if is_max else "MIN"


@dataclass(frozen=True)
class Level:
    """One level of the call stack: a node entered and not yet exited, its window (α, β)
    as its next child would get it, and the best value and child returned to it so far."""

    path: Path
    name: str
    is_max: bool
    alpha: float
    beta: float
    value: float | None = None
    best: int | None = None


@dataclass(frozen=True)
class Frame:
    """The search after its first ``step`` events (``event`` is the last of them)."""

    step: int
    steps: int
    event: Event | None
    current: Path | None
    stack: tuple[Level, ...]
    visited: frozenset[Path]
    pruned: frozenset[Path]
    values: Mapping[Path, float] = field(repr=False)
    cuts: Mapping[Path, Cutoff] = field(repr=False)
    pv: tuple[Path, ...] = ()
    text: str = ""
    #: the nodes returned so far whose value is only a bound: "lower" (≥, it failed high:
    #: at or above the β it was searched with) or "upper" (≤, at or below its α)
    bounds: Mapping[Path, str] = field(default_factory=dict, repr=False)

    @property
    def done(self) -> bool:
        """True at the last step."""
        return self.step == self.steps

    @property
    def on_stack(self) -> frozenset[Path]:
        """Paths of the nodes on the call stack."""
        return frozenset(lv.path for lv in self.stack)


def state_at(game: Any, state: Any, path: Sequence[int]) -> Any:
    """The state at ``path`` below ``state`` (child indices in ``game.moves`` order).

    >>> from minimaxkit.games import TicTacToe
    >>> g = TicTacToe()
    >>> print(g.render(state_at(g, g.initial_state(), (4, 0))))
    O..
    .X.
    ...
    """
    for i in path:
        state = game.play(state, game.moves(state)[i])
    return state


def _move_label(game: Any, move: Any) -> str:
    namer = getattr(game, "move_name", None)
    if namer is not None:
        try:
            return str(namer(move))
        except (TypeError, ValueError):
            pass
    return str(move)


def node_namer(game: Any, state: Any = None) -> Callable[[Path], str]:
    """A function ``path -> name``: a tree's node names, or for a game the moves from
    ``state`` (its initial state by default) joined by spaces (``"root"`` for the root).

    >>> from minimaxkit.games import TicTacToe
    >>> node_namer(TicTacToe())((4, 0))
    'b2 a1'
    """
    if isinstance(game, GameTree):
        return lambda p: game.node(p).name
    root = game.initial_state() if state is None else state
    cache: dict[Path, tuple[Any, str]] = {(): (root, "root")}

    def name(path: Path) -> str:
        path = tuple(path)
        if path not in cache:
            parent, pname = cache[()] if len(path) == 1 else (None, "")
            if len(path) > 1:
                name(path[:-1])
                parent, pname = cache[path[:-1]]
            move = game.moves(parent)[path[-1]]
            label = _move_label(game, move)
            cache[path] = (game.play(parent, move), label if pname == "root" else
                           f"{pname} {label}")
        return cache[path][1]

    return name


def first_divergence(a: Trace, b: Trace) -> tuple[int, Path] | None:
    """The first step where two traces differ and the path of ``a``'s event there (or
    ``b``'s, if ``a`` ended); None if they are equal.

    >>> from minimaxkit import alphabeta
    >>> from minimaxkit.examples import tree_002
    >>> first_divergence(alphabeta(tree_002(), fail="hard").trace,
    ...                  alphabeta(tree_002(), fail="hard", prune_on_equal=False).trace)
    (39, (2,))
    """
    ea, eb = a.events, b.events
    for i, (x, y) in enumerate(zip(ea, eb, strict=False)):
        if x != y:
            return i, x.path
    if len(ea) == len(eb):
        return None
    i = min(len(ea), len(eb))
    return i, (ea[i] if i < len(ea) else eb[i]).path


class Replay:
    """A trace read once, answering :meth:`frame` for any step.

    ``source`` is a :class:`~minimaxkit.search.SearchResult` (its trace, game and options
    are used) or a :class:`~minimaxkit.trace.Trace`. ``names`` maps paths to names (by
    default the tree's names, or move names for a game). ``prune_on_equal`` and
    ``narrowing`` (whether α and β tighten as children return, as in alpha-beta) are taken
    from the result's options, else inferred from the events.
    """

    def __init__(self, source: Any, *, tree: Any = None, state: Any = None,
                 names: Mapping[Path, str] | Callable[[Path], str] | None = None,
                 prune_on_equal: bool | None = None, narrowing: bool | None = None) -> None:
        trace: Trace | None
        if isinstance(source, Trace):
            trace, options, algorithm, game = source, {}, None, tree
        else:
            trace = getattr(source, "trace", None)
            if not isinstance(trace, Trace):
                raise ValueError("this search result has no trace: search with trace=True")
            options = dict(getattr(source, "options", {}) or {})
            algorithm = getattr(source, "algorithm", None)
            game = tree if tree is not None else getattr(source, "game", None)
            if state is None:
                state = getattr(source, "state", None)
        self.trace: Trace = trace
        self.game = game
        self.tree: GameTree | None = game if isinstance(game, GameTree) else None
        self.root_state = state
        self.events: Sequence[Event] = trace.events
        if names is None:
            namer: Callable[[Path], str] = (node_namer(game, state) if game is not None
                                            else lambda p: "root" if not p else str(p))
        elif isinstance(names, Mapping):
            mapping = names
            namer = lambda p: mapping.get(p, str(p))  # noqa: E731
        else:
            namer = names
        self.name = namer
        if prune_on_equal is None:
            prune_on_equal = options.get("prune_on_equal")
        self.prune_on_equal: bool | None = prune_on_equal
        self.fail: str | None = options.get("fail")
        self._index()
        if narrowing is None:
            narrowing = (algorithm in ("alphabeta", "negamax") if algorithm is not None
                         else self._infer_narrowing())
        self.narrowing = narrowing

    # ----- indexing ---------------------------------------------------------------------
    def _index(self) -> None:
        self.entered: dict[Path, Enter] = {}
        self.is_max: dict[Path, bool] = {}
        self.cut_events: dict[Path, Cutoff] = {}
        self.returns: dict[Path, list[tuple[int, int, float]]] = {}  # parent -> (step, i, v)
        self._visit_steps: list[int] = []
        self._visit_paths: list[Path] = []
        self._value_steps: list[int] = []
        self._value_items: list[tuple[Path, float]] = []
        self._prune_steps: list[int] = []
        self._prune_paths: list[Path] = []
        self.cut_steps: dict[Path, int] = {}
        self.best_moves: dict[Path, tuple[int, int | None]] = {}  # path -> (step, move)
        self._bound_kinds: dict[Path, str] = {}  # returned outside the window it was given
        for i, e in enumerate(self.events):
            p = e.path
            if isinstance(e, (Enter, Leaf, TTHit)):
                self._visit_steps.append(i)
                self._visit_paths.append(p)
            if isinstance(e, Enter):
                self.entered[p] = e
                self.is_max[p] = e.is_max
            elif isinstance(e, Leaf):
                self.is_max[p] = e.is_max
            if isinstance(e, (Leaf, Exit, TTHit)):
                self._value_steps.append(i)
                self._value_items.append((p, e.value))
                if p:
                    self.returns.setdefault(p[:-1], []).append((i, p[-1], e.value))
            if isinstance(e, Exit):
                self.best_moves[p] = (i, e.move)
                en = self.entered.get(p)
                if en is not None and e.value <= en.alpha:
                    self._bound_kinds[p] = "upper"
                elif en is not None and e.value >= en.beta:
                    self._bound_kinds[p] = "lower"
            if isinstance(e, Cutoff):
                self.cut_events[p] = e
                self.cut_steps[p] = i
                for c in e.pruned:
                    self._prune_steps.append(i)
                    self._prune_paths.append(p + (c,))

    def _infer_narrowing(self) -> bool:
        for e in self.events:
            if isinstance(e, (Enter, Leaf)) and e.path:
                parent = self.entered.get(e.path[:-1])
                if parent is not None and (e.alpha, e.beta) != (parent.alpha, parent.beta):
                    return True
        return False

    def __len__(self) -> int:
        """The number of frames: one more than the number of events."""
        return len(self.events) + 1

    # ----- the state at a step ------------------------------------------------------------
    def _best(self, q: Path, step: int) -> tuple[float | None, int | None, float | None,
                                                  int | None]:
        """At ``q`` after ``step`` events: the best value so far and its child, and the same
        two before the last return. Fail-hard searches start from α (MAX) or β (MIN)."""
        e = self.entered.get(q)
        mx = e.is_max if e is not None else self.is_max.get(q, True)
        best: float | None = None
        if self.fail == "hard" and e is not None:
            best = e.alpha if mx else e.beta
        child: int | None = None
        before, before_child = best, child
        for s, i, v in self.returns.get(q, ()):
            if s >= step:
                break
            before, before_child = best, child
            if best is None or (v > best if mx else v < best):
                best, child = v, i
        return best, child, before, before_child

    def window(self, q: Path, step: int) -> tuple[float, float]:
        """The window (α, β) of the entered node ``q`` after ``step`` events, as its next
        child would get it."""
        e = self.entered[q]
        best, _, before, _ = self._best(q, step)
        if self.fail != "hard" and self.cut_steps.get(q, step + 1) <= step:
            # the value that cuts is tested against the other bound first: the node stops
            # without raising its own (the example sheet's fail-hard loop raises it first)
            best = before
        if not self.narrowing or best is None:
            return e.alpha, e.beta
        if e.is_max:
            return max(e.alpha, best), e.beta
        return e.alpha, min(e.beta, best)

    def _stack_paths(self, step: int) -> list[Path]:
        if step == 0:
            return []
        e = self.events[step - 1]
        p = e.path
        top = len(p) + 1 if isinstance(e, (Enter, Cutoff)) else len(p)
        return [p[:j] for j in range(top)]

    def frame(self, step: int) -> Frame:
        """The search after its first ``step`` events (``0 <= step <= len(trace)``)."""
        n = len(self.events)
        if not 0 <= step <= n:
            raise IndexError(f"step must be in 0..{n}, got {step}")
        stack = []
        for q in self._stack_paths(step):
            a, b = self.window(q, step)
            best, child, _, _ = self._best(q, step)
            stack.append(Level(q, self.name(q), self.entered[q].is_max, a, b, best, child))
        k = bisect_left(self._visit_steps, step)
        visited = frozenset(self._visit_paths[:k])
        k = bisect_left(self._prune_steps, step)
        pruned = frozenset(self._prune_paths[:k])
        k = bisect_left(self._value_steps, step)
        values = dict(self._value_items[:k])
        cuts = {p: c for p, c in self.cut_events.items() if self.cut_steps[p] < step}
        event = self.events[step - 1] if step else None
        bounds = ({p: self._bound_kinds[p] for p in values if p in self._bound_kinds}
                  if self.narrowing else {})
        return Frame(step, n, event, event.path if event is not None else None, tuple(stack),
                     visited, pruned, values, cuts, self._pv(step, stack, visited),
                     self.explain(step), bounds)

    def frames(self) -> Iterator[Frame]:
        """Every frame, step 0 to the end."""
        for k in range(len(self)):
            yield self.frame(k)

    def _pv(self, step: int, stack: list[Level], visited: frozenset[Path]) -> tuple[Path, ...]:
        if step == 0:
            return ()
        best_on_stack = {lv.path: lv.best for lv in stack}
        line: list[Path] = [()]
        p: Path = ()
        while True:
            if p in best_on_stack:
                move = best_on_stack[p]
            elif p in self.best_moves and self.best_moves[p][0] < step:
                move = self.best_moves[p][1]
            else:
                move = None
            if move is None or p + (move,) not in visited:
                break
            p = p + (move,)
            line.append(p)
        return tuple(line) if len(line) > 1 or () in visited else ()

    # ----- words ---------------------------------------------------------------------------
    def _node(self, p: Path) -> str:
        name = self.name(p)
        name = "the root" if not p and name == "root" else name
        return f"{name} ({_player(self.is_max.get(p, True))})"

    def _is_real_leaf(self, p: Path) -> bool:
        if self.tree is not None:
            return self.tree.node(p).is_leaf
        return self.game is not None and not self.game_moves(p)

    def game_moves(self, p: Path) -> Sequence[Any]:
        """The moves at ``p`` in the searched game (empty if no game is known)."""
        if self.game is None:
            return ()
        return self.game.moves(self._state(p))  # type: ignore[no-any-return]

    def _state(self, p: Path) -> Any:
        root = self.game.initial_state() if self.root_state is None else self.root_state
        return state_at(self.game, root, p)

    def _effect(self, child: Path, step: int) -> str:
        """What the value returned by ``child`` at event ``step - 1`` does to its parent."""
        q, child_index = child[:-1], child[-1]
        if q not in self.entered:
            return ""
        mx = self.entered[q].is_max
        best, best_child, before, before_child = self._best(q, step)
        v = self.events[step - 1].value  # type: ignore[union-attr]
        old_a, old_b = self.window(q, step - 1)
        new_a, new_b = self.window(q, step)
        bound = ""
        cut = self.cut_events.get(q)
        if (self.narrowing and self.fail != "hard" and cut is not None
                and self.cut_steps[q] == step and cut.kind in ("alpha", "beta")):
            what = "α" if mx else "β"
            bound = (f" ({what} stays {fmt(old_a if mx else old_b)}: the cut test comes "
                     f"before {what} is updated)")
        elif self.narrowing:
            if mx and new_a != old_a:
                bound = f", so α = {fmt(new_a)} at {self.name(q)}"
            elif not mx and new_b != old_b:
                bound = f", so β = {fmt(new_b)} at {self.name(q)}"
            else:
                what = "α" if mx else "β"
                bound = f" ({what} stays {fmt(old_a if mx else old_b)})"
        improved = best_child == child_index and before_child != best_child
        if improved and before_child is None:
            return f" {self._node(q)} now has {fmt(v)}{bound}."
        if improved:
            return (f" Better for {self._node(q)} than {fmt(before)}: it now has "
                    f"{fmt(v)}{bound}.")
        if before_child is None:  # fail-hard: the bound itself is the value to beat
            side = "α" if mx else "β"
            return f" Not used: it does not beat {side} = {fmt(before)} at {self._node(q)}."
        return f" Not used: {self._node(q)} already has {fmt(before)}."

    def _source_of_bound(self, p: Path, step: int, kind: str) -> str:
        """Which ancestor's best value is the bound that cut ``p``, in words."""
        want_max = kind == "alpha"
        cut = self.cut_events[p]
        for j in range(len(p) - 1, -1, -1):
            q = p[:j]
            if self.entered[q].is_max != want_max:
                continue
            best, child, _, _ = self._best(q, step)
            if best is not None and best == cut.bound:
                src = f" (from {self.name(q + (child,))})" if child is not None else ""
                worth = "at least" if kind == "beta" else "at most"
                return (f" {self._node(q)} already has {fmt(best)}{src}, so it will never "
                        f"choose {self.name(p)}, which is worth {worth} {fmt(cut.value)}.")
        side = "β" if kind == "beta" else "α"
        return f" ({side} = {fmt(cut.bound)} comes from the initial window.)"

    def _pruned_words(self, p: Path, pruned: tuple[int, ...]) -> str:
        if not pruned:
            return "but that was its last child: nothing is left to cut"
        names = ", ".join(self.name(p + (i,)) for i in pruned)
        tail = list(pruned) == list(range(pruned[0], pruned[0] + len(pruned)))
        if self.tree is not None:
            tail = tail and pruned[-1] == len(self.tree.node(p).children) - 1
        which = "last" if tail else "remaining"
        if len(pruned) == 1:
            return f"its {which} child ({names}) is not searched"
        return f"its {which} {len(pruned)} children ({names}) are not searched"

    def explain(self, step: int) -> str:
        """The event of ``step`` (the ``step``-th event) in words."""
        if step == 0:
            if not self.events:
                return "The trace is empty."
            root = self.events[0].path
            mx = self.is_max.get(root, True)
            name = self.name(root)
            called = "" if name == "root" else f" {name}"
            return f"Start: nothing is searched yet. The root{called} is a {_player(mx)} node."
        e = self.events[step - 1]
        p = e.path
        if isinstance(e, Enter):
            where = "the root " if not p and self.name(p) != "root" else ""
            parent = f", child of {self._node(p[:-1])}," if p else ""
            return (f"Enter {where}{self._node(p)}{parent} with α = {fmt(e.alpha)}, "
                    f"β = {fmt(e.beta)}.")
        if isinstance(e, Leaf):
            if self._is_real_leaf(p):
                head = f"Leaf {self.name(p)} = {fmt(e.value)}."
            else:
                head = f"{self.name(p)} is evaluated statically (depth limit): {fmt(e.value)}."
            return head + self._effect(p, step)
        if isinstance(e, Cutoff):
            if e.kind == "best":
                side = "highest" if self.entered[p].is_max else "lowest"
                return (f"Cut at {self.name(p)}: v = {fmt(e.value)} is the {side} value "
                        f"possible, so {self._pruned_words(p, e.pruned)} (simple pruning).")
            if e.kind == "beta":
                op = ">" if self.prune_on_equal is False else "≥"
                head = f"β-cut at {self.name(p)}: v = {fmt(e.value)} {op} β = {fmt(e.bound)}"
            else:
                op = "<" if self.prune_on_equal is False else "≤"
                head = f"α-cut at {self.name(p)}: v = {fmt(e.value)} {op} α = {fmt(e.bound)}"
            if e.value == e.bound:
                head += " (a cut on equality)"
            return f"{head}, {self._pruned_words(p, e.pruned)}." + self._source_of_bound(
                p, step, e.kind)
        if isinstance(e, Exit):
            best, child, _, _ = self._best(p, step)
            note = ""
            if p in self.cut_events and self.cut_events[p].kind != "best":
                note = (" (a lower bound: it was cut off)" if self.entered[p].is_max
                        else " (an upper bound: it was cut off)")
            elif child is None and self.fail == "hard":
                side = "α" if self.entered[p].is_max else "β"
                note = f" (fail-hard: no child beat {side} = {fmt(e.value)}, so it returns {side})"
            if not p:
                move = f"; best move: to {self.name((e.move,))}" if e.move is not None else ""
                who = self._node(p)
                who = who if who.startswith("the root") else "the root " + who
                return f"Search done: {who} returns {fmt(e.value)}{note}{move}."
            return (f"{self.name(p)} returns {fmt(e.value)}{note} to "
                    f"{self._node(p[:-1])}." + self._effect(p, step))
        if isinstance(e, TTHit):
            kinds = {"exact": "exact value", "lower": "lower bound", "upper": "upper bound"}
            return (f"{self.name(p)} is in the transposition table ({kinds[e.flag]} "
                    f"{fmt(e.value)}); it is not searched again." + self._effect(p, step))
        return repr(e)  # pragma: no cover


def replay(source: Any, step: int, **options: Any) -> Frame:
    """The :class:`Frame` of ``source`` (a search result or a trace) after ``step`` events;
    ``options`` go to :class:`Replay`.

    >>> from minimaxkit import alphabeta
    >>> from minimaxkit.examples import tree_002
    >>> replay(alphabeta(tree_002()), 5).text
    'Leaf O = 7. Not used: E (MAX) already has 8.'
    """
    return Replay(source, **options).frame(step)
