"""Replaying a trace: what a search had done after each event, and why, in words.

A :class:`Replay` reads a trace once and then answers, for any step ``k`` (the number of
events applied, ``0 .. len(trace)``), a :class:`Frame`: the event of that step, the call
stack with α and β at each level, what is visited, pruned and backed up so far, the best
line so far and an explanation. Everything is read from the trace events (and names from
the tree); nothing searches again.

>>> import textwrap
>>> from minimaxkit import alphabeta
>>> from minimaxkit.examples import sheet_tree
>>> tree = sheet_tree()
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
from collections.abc import Callable, Iterator, Mapping, Sequence
from collections.abc import Set as AbstractSet
from dataclasses import dataclass, field
from typing import Any

from ..support.gc_pause import paused_gc
from ..trace import (
    CUTOFF,
    ENTER,
    EXIT,
    LEAF,
    Cutoff,
    Event,
    Path,
    Trace,
)
from ..tree import GameTree
from .narration import Narrator, fmt, node_namer, state_at
from .views import (
    Before,
    Events,
    Exactness,
    ValuesBefore,
    again,
    raises_bound_first,
    starts_at_bound,
    table_claim,
)

__all__ = ["Level", "Frame", "Replay", "replay", "frame_at", "fmt", "first_divergence", "state_at",
           "node_namer"]


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
    """The search after its first ``step`` events (``event`` is the last of them).

    ``visited``, ``pruned``, ``values`` and ``cuts`` are read-only views of the replay's
    index at this step (a set and mappings answering membership in constant time), so a
    frame costs the same at step 10 and at step 800,000.
    """

    step: int
    steps: int
    event: Event | None
    current: Path | None
    stack: tuple[Level, ...]
    visited: AbstractSet[Path]
    pruned: AbstractSet[Path]
    values: Mapping[Path, float] = field(repr=False)
    cuts: Mapping[Path, Cutoff] = field(repr=False)
    pv: tuple[Path, ...] = ()
    text: str = ""
    #: for the interior nodes returned so far: "lower" (≥ v) or "upper" (≤ v) when the value
    #: they returned is only a bound, None when it is exact. The one rule
    #: (:class:`~minimaxkit.replay.views.Exactness`): a value is exact when the search
    #: below pins it down (every child searched, whatever the window); a cut leaves a bound.
    bounds: Mapping[Path, str | None] = field(default_factory=dict, repr=False)

    @property
    def done(self) -> bool:
        """True at the last step."""
        return self.step == self.steps

    @property
    def on_stack(self) -> frozenset[Path]:
        """Paths of the nodes on the call stack."""
        return frozenset(lv.path for lv in self.stack)


def first_divergence(a: Trace, b: Trace) -> tuple[int, Path] | None:
    """The first step where two traces differ and the path of ``a``'s event there (or
    ``b``'s, if ``a`` ended); None if they are equal.

    >>> from minimaxkit import alphabeta
    >>> from minimaxkit.examples import sheet_tree
    >>> first_divergence(alphabeta(sheet_tree(), fail="one-sided").trace,
    ...                  alphabeta(sheet_tree(), fail="one-sided", prune_on_equal=False).trace)
    (39, (2,))
    """
    ea, eb = a.raw, b.raw
    for i, (x, y) in enumerate(zip(ea, eb, strict=False)):
        if x != y:
            return i, x[1]
    if len(ea) == len(eb):
        return None
    i = min(len(ea), len(eb))
    return i, (ea[i] if i < len(ea) else eb[i])[1]


#: The index of a replay grows by at least this many events at a time.
_CHUNK = 512


class Replay:
    """A trace read as far as it is asked, answering :meth:`frame` for any step.

    ``source`` is a :class:`~minimaxkit.search.SearchResult` (its trace, game and options
    are used) or a :class:`~minimaxkit.trace.Trace`. ``names`` maps paths to names (by
    default the tree's names, or move names for a game). ``prune_on_equal`` and
    ``narrowing`` (whether α and β tighten as children return, as in alpha-beta) are taken
    from the result's options, else inferred from the events.

    The replay keeps the trace's raw event tuples and indexes them once, as far as the
    furthest step asked for so far (each node's events, each parent's returns); a frame is
    then read from that index in time proportional to the node's depth and branching, not
    to the step: back, forward and random access cost the same.

    >>> from minimaxkit import minimax
    >>> from minimaxkit.games import TicTacToe
    >>> r = Replay(minimax(TicTacToe()))
    >>> r.indexed                         # nothing read yet
    0
    >>> r.frame(12).text.split(" (MIN)")[0]
    'a1 b1 c1 a2 b2 c2 b3 a3 returns 1 to a1 b1 c1 a2 b2 c2 b3'
    >>> r.indexed < 1_000                 # only the first chunk of 844,724 events
    True
    """

    def __init__(  # noqa: PLR0913 - the options are keyword-only, as networkx writes them
            self, source: Any, *, tree: Any = None, state: Any = None,
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
        self._raw = trace.raw
        self.events: Sequence[Event] = Events(trace)
        if names is None:
            namer: Callable[[Path], str] = (node_namer(game, state) if game is not None
                                            else lambda p: "root" if not p else str(p))
        elif isinstance(names, Mapping):
            mapping = names
            namer = lambda p: mapping.get(p, str(p))  # noqa: E731
        else:
            namer = names
        self.name = namer
        #: the words of each step (:class:`~minimaxkit.replay.narration.Narrator`): a view that
        #: leaves something out gives the replay a narrator told so, before reading frames
        self.narrator = Narrator(self)
        if prune_on_equal is None:
            prune_on_equal = options.get("prune_on_equal")
        self.prune_on_equal: bool | None = prune_on_equal
        self.fail: str | None = options.get("fail")
        self._start_index()
        if narrowing is None:
            narrowing = (algorithm in ("alphabeta", "negamax") if algorithm is not None
                         else self._infer_narrowing())
        self.narrowing = narrowing

    # ----- indexing ---------------------------------------------------------------------
    def _start_index(self) -> None:
        self.indexed = 0  #: how many events the index covers
        self.is_max: dict[Path, bool] = {}
        self._enter: dict[Path, int] = {}
        self._exit: dict[Path, int] = {}
        self._returns: dict[Path, list[int]] = {}  # parent -> events returning to it
        self._visit: dict[Path, int] = {}  # first event reaching the node
        self._visit_order: list[Path] = []
        self._ret: dict[Path, Any] = {}  # events returning the node's value: int or list
        self._ret_order: list[Path] = []
        self._cut: dict[Path, Any] = {}  # cut-off events of the node: int or list
        self._cut_order: list[Path] = []
        self._prune: dict[Path, int] = {}  # first cut-off pruning the node
        self._prune_order: list[Path] = []
        # exits and table answers, and which of them are only a bound (the one rule:
        # replay/views.py, Exactness)
        self._bound: dict[Path, Any] = {}
        self._bound_order: list[Path] = []
        self._bound_kinds: dict[int, str | None] = {}  # event -> "lower", "upper" or None
        self._exact = Exactness()

    def _ensure(self, step: int) -> None:
        """Index the events before ``step`` (and a chunk more), if not done yet."""
        if step <= self.indexed:
            return
        raw = self._raw
        stop = min(len(raw), max(step, self.indexed + _CHUNK))
        visit, vorder = self._visit, self._visit_order.append
        with paused_gc():
            for i in range(self.indexed, stop):
                r = raw[i]
                kind, p = r[0], r[1]
                if kind == CUTOFF:
                    self._index_cutoff(i, r)
                    continue
                if kind == ENTER:
                    self._enter[p] = i
                    self.is_max[p] = r[4]
                    self._exact.enter(p, r[4])
                else:  # a value returned: EXIT, LEAF or TTHIT
                    self._index_return(i, r)
                    if kind == EXIT:
                        continue
                if p not in visit:  # entered, evaluated or found in the table
                    visit[p] = i
                    vorder(p)
        self.indexed = stop

    def _index_return(self, i: int, r: tuple[Any, ...]) -> None:
        """Index event ``i``, ``r``: a node returning its value to its parent."""
        kind, p = r[0], r[1]
        if p in self._ret:
            again(self._ret, p, i)
        else:
            self._ret[p] = i
            self._ret_order.append(p)
        if p:
            self._returns.setdefault(p[:-1], []).append(i)
        if kind == LEAF:
            self.is_max[p] = r[5]
            self._exact.returned(p, (r[2], r[2]))
            return
        if kind == EXIT:
            self._exit[p] = i
            self._bound_kinds[i] = self._exact.exit(p, r[2], self.is_max[p])
            self._exact.returned(p, self._exact.claim(p, r[2]))
        else:  # a table answer: exact, or the bound the table kept
            self._bound_kinds[i] = {"lower": "lower", "upper": "upper"}.get(r[3])
            self._exact.returned(p, table_claim(r[2], r[3]))
        if p in self._bound:
            again(self._bound, p, i)
        else:
            self._bound[p] = i
            self._bound_order.append(p)

    def _index_cutoff(self, i: int, r: tuple[Any, ...]) -> None:
        """Index event ``i``, ``r``: a cut-off at a node, pruning the children it names."""
        p = r[1]
        if p in self._cut:
            again(self._cut, p, i)
        else:
            self._cut[p] = i
            self._cut_order.append(p)
        if r[4] != "best":  # simple pruning cuts at the best value possible: still exact
            self._exact.cut(p, r[5])
        for c in r[5]:
            q = p + (c,)
            if q not in self._prune:
                self._prune[q] = i
                self._prune_order.append(q)

    def index_more(self, events: int) -> None:
        """Read ``events`` more events into the index (a step widget does this in the
        background, so that a far jump finds the trace read)."""
        self._ensure(min(self.indexed + events, len(self._raw)))

    def _infer_narrowing(self) -> bool:
        windows: dict[Path, tuple[float, float]] = {}
        for r in self._raw:
            kind = r[0]
            if kind == ENTER or kind == LEAF:
                p = r[1]
                window = (r[2], r[3]) if kind == ENTER else (r[3], r[4])
                if p:
                    parent = windows.get(p[:-1])
                    if parent is not None and window != parent:
                        return True
                if kind == ENTER:
                    windows[p] = window
        return False

    def __len__(self) -> int:
        """The number of frames: one more than the number of events."""
        return len(self._raw) + 1

    # ----- the state at a step ------------------------------------------------------------
    def _best(self, q: Path, step: int) -> tuple[float | None, int | None, float | None,
                                                  int | None]:
        """At ``q`` after ``step`` events: the best value so far and its child, and the same
        two before the last return. Fail-hard searches start from α (MAX) or β (MIN)."""
        self._ensure(step)
        raw = self._raw
        ei = self._enter.get(q)
        mx = self.is_max.get(q, True)
        best: float | None = None
        if starts_at_bound(self.fail) and ei is not None:
            best = raw[ei][2] if mx else raw[ei][3]
        child: int | None = None
        before, before_child = best, child
        for s in self._returns.get(q, ()):
            if s >= step:
                break
            r = raw[s]
            v = r[2]
            before, before_child = best, child
            if best is None or (v > best if mx else v < best):
                best, child = v, r[1][-1]
        return best, child, before, before_child

    def window(self, q: Path, step: int) -> tuple[float, float]:
        """The window (α, β) of the entered node ``q`` after ``step`` events, as its next
        child would get it."""
        self._ensure(step + 1)  # the event after the step too: is it q's cut-off?
        e = self._raw[self._enter[q]]
        alpha, beta, mx = e[2], e[3], e[4]
        best, _, before, _ = self._best(q, step)
        if not raises_bound_first(self.fail) and self._cut_step(q) <= step:
            # the value that cuts is tested against the other bound first: the node stops
            # without raising its own (the example sheet's fail-hard loop raises it first)
            best = before
        if not self.narrowing or best is None:
            return alpha, beta
        if mx:
            return max(alpha, best), beta
        return alpha, min(beta, best)

    def _cut_step(self, q: Path) -> float:
        """The index of ``q``'s (last indexed) cut-off event; infinity if none."""
        i = self._cut.get(q)
        if i is None:
            return math.inf
        return i[-1] if type(i) is list else i  # type: ignore[no-any-return]

    def _bound_kind(self, i: int) -> str | None:
        """``"upper"``, ``"lower"`` or None (exact): what the exit or table answer ``i``
        returned (see :class:`~minimaxkit.replay.views.Exactness`)."""
        return self._bound_kinds[i]

    def _stack_paths(self, step: int) -> list[Path]:
        if step == 0:
            return []
        r = self._raw[step - 1]
        p = r[1]
        top = len(p) + 1 if r[0] in (ENTER, CUTOFF) else len(p)
        return [p[:j] for j in range(top)]

    def frame(self, step: int) -> Frame:
        """The search after its first ``step`` events (``0 <= step <= len(trace)``)."""
        n = len(self._raw)
        if not 0 <= step <= n:
            raise IndexError(f"step must be in 0..{n}, got {step}")
        self._ensure(step)
        stack = []
        for q in self._stack_paths(step):
            a, b = self.window(q, step)
            best, child, _, _ = self._best(q, step)
            stack.append(Level(q, self.name(q), self.is_max[q], a, b, best, child))
        visited = Before(self._visit, self._visit_order, step)
        pruned = Before(self._prune, self._prune_order, step)
        raw = self._raw
        values = ValuesBefore(self._ret, lambda i: raw[i][2], self._ret_order, step)
        cuts = ValuesBefore(self._cut, lambda i: Cutoff(*raw[i][1:]), self._cut_order, step)
        bounds: Mapping[Path, str | None] = (
            ValuesBefore(self._bound, self._bound_kind, self._bound_order, step)
            if self.narrowing else {})
        event = self.trace.event(step - 1) if step else None
        return Frame(step, n, event, event.path if event is not None else None, tuple(stack),
                     visited, pruned, values, cuts, self._pv(step, stack, visited),
                     self.explain(step), bounds)

    def frames(self) -> Iterator[Frame]:
        """Every frame, step 0 to the end."""
        for k in range(len(self)):
            yield self.frame(k)

    def _pv(self, step: int, stack: list[Level], visited: AbstractSet[Path]
            ) -> tuple[Path, ...]:
        if step == 0:
            return ()
        best_on_stack = {lv.path: lv.best for lv in stack}
        line: list[Path] = [()]
        p: Path = ()
        while True:
            if p in best_on_stack:
                move = best_on_stack[p]
            elif p in self._exit and self._exit[p] < step:
                move = self._raw[self._exit[p]][3]
            else:
                move = None
            if move is None or p + (move,) not in visited:
                break
            p = p + (move,)
            line.append(p)
        return tuple(line) if len(line) > 1 or () in visited else ()

    def _cut_event(self, p: Path) -> Cutoff | None:
        """The (last indexed) cut-off of ``p``, if any."""
        i = self._cut.get(p)
        if i is None:
            return None
        r = self._raw[i[-1] if type(i) is list else i]
        return Cutoff(*r[1:])

    # ----- words (minimaxkit.replay.narration) ---------------------------------------------------
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

    def explain(self, step: int) -> str:
        """The event of ``step`` (the ``step``-th event) in words (see
        :mod:`minimaxkit.replay.narration`)."""
        return self.narrator.explain(step)


def replay(source: Any, step: int, **options: Any) -> Frame:
    """The :class:`Frame` of ``source`` (a search result or a trace) after ``step`` events;
    ``options`` go to :class:`Replay`.

    >>> from minimaxkit import alphabeta
    >>> from minimaxkit.examples import sheet_tree
    >>> replay(alphabeta(sheet_tree()), 5).text
    'Leaf O = 7. Not used: E (MAX) already has 8.'
    """
    return Replay(source, **options).frame(step)


def frame_at(rp: Replay | None, step: int | None) -> Frame | None:
    """The frame after ``step`` events of the replay ``rp`` (all of them when ``step`` is
    None); None with no replay (a tree drawn without a search). A step outside the trace
    raises ``ValueError`` naming the steps there are."""
    if rp is None:
        return None
    last = len(rp) - 1
    step = last if step is None else step
    if not 0 <= step <= last:
        raise ValueError(f"step must be in 0..{last} for this trace, got {step}")
    return rp.frame(step)
