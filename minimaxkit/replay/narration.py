"""A search's events in words: what each step of a replay did and why.

The words are read from a :class:`~minimaxkit.replay.Replay`'s index (the windows, the best
values so far, the cut-offs); nothing here searches. :meth:`Replay.explain
<minimaxkit.replay.Replay.explain>` and every frame's ``text`` come from :class:`Narrator`.

>>> from minimaxkit import alphabeta
>>> from minimaxkit.examples import sheet_tree
>>> from minimaxkit.replay import Replay
>>> words = Narrator(Replay(alphabeta(sheet_tree())))
>>> words.explain(1)
'Enter the root A (MAX) with α = −∞, β = ∞.'
>>> words.explain(5)
'Leaf O = 7. Not used: E (MAX) already has 8.'
"""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING, Any

from ..trace import Cutoff, Enter, Exit, Leaf, Path, TTHit
from ..tree import GameTree
from .views import fail_words, raises_bound_first, starts_at_bound

if TYPE_CHECKING:
    from . import Replay

__all__ = ["Narrator", "fmt", "player", "state_at", "node_namer"]


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


def player(is_max: bool) -> str:
    """``"MAX"`` or ``"MIN"``."""
    return "MAX" if is_max else "MIN"


# ----- names: a node's path in words ----------------------------------------------------
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



class Narrator:
    """The words of ``r``'s steps (a :class:`~minimaxkit.replay.Replay`). With
    ``windows=False`` a node is entered without naming its window (α, β): for minimax,
    before α and β are taught (the step widget's ``bounds=False``).

    >>> from minimaxkit import minimax
    >>> from minimaxkit.examples import sheet_tree
    >>> from minimaxkit.replay import Replay
    >>> Narrator(Replay(minimax(sheet_tree())), windows=False).explain(2)
    'Enter B (MIN), child of A (MAX).'
    """

    def __init__(self, r: Replay, *, windows: bool = True) -> None:
        self.r = r
        self.windows = windows

    def _node(self, p: Path) -> str:
        name = self.r.name(p)
        name = "the root" if not p and name == "root" else name
        return f"{name} ({player(self.r.is_max.get(p, True))})"

    def _effect(self, child: Path, step: int) -> str:
        """What the value returned by ``child`` at event ``step - 1`` does to its parent."""
        q, child_index = child[:-1], child[-1]
        if q not in self.r._enter:
            return ""
        mx = self.r.is_max[q]
        best, best_child, before, before_child = self.r._best(q, step)
        v = self.r._raw[step - 1][2]
        old_a, old_b = self.r.window(q, step - 1)
        new_a, new_b = self.r.window(q, step)
        bound = ""
        self.r._ensure(step + 1)
        cut_kind = self.r._raw[step][4] if self.r._cut_step(q) == step else None
        if self.r.narrowing and not raises_bound_first(self.r.fail) and cut_kind in ("alpha",
                                                                                  "beta"):
            what = "α" if mx else "β"
            bound = (f" ({what} stays {fmt(old_a if mx else old_b)}: the cut test comes "
                     f"before {what} is updated)")
        elif self.r.narrowing:
            if mx and new_a != old_a:
                bound = f", so α = {fmt(new_a)} at {self.r.name(q)}"
            elif not mx and new_b != old_b:
                bound = f", so β = {fmt(new_b)} at {self.r.name(q)}"
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
        cut = self.r._cut_event(p)
        assert cut is not None
        for j in range(len(p) - 1, -1, -1):
            q = p[:j]
            if self.r.is_max[q] != want_max:
                continue
            best, child, _, _ = self.r._best(q, step)
            if best is not None and best == cut.bound:
                src = f" (from {self.r.name(q + (child,))})" if child is not None else ""
                worth = "at least" if kind == "beta" else "at most"
                return (f" {self._node(q)} already has {fmt(best)}{src}, so it will never "
                        f"choose {self.r.name(p)}, which is worth {worth} {fmt(cut.value)}.")
        side = "β" if kind == "beta" else "α"
        return f" ({side} = {fmt(cut.bound)} comes from the initial window.)"

    def _pruned_words(self, p: Path, pruned: tuple[int, ...]) -> str:
        if not pruned:
            return "but that was its last child: nothing is left to cut"
        names = ", ".join(self.r.name(p + (i,)) for i in pruned)
        tail = list(pruned) == list(range(pruned[0], pruned[0] + len(pruned)))
        if self.r.tree is not None:
            tail = tail and pruned[-1] == len(self.r.tree.node(p).children) - 1
        which = "last" if tail else "remaining"
        if len(pruned) == 1:
            return f"its {which} child ({names}) is not searched"
        return f"its {which} {len(pruned)} children ({names}) are not searched"

    def _exit_note(self, p: Path, step: int, value: float) -> str:
        """Why the value ``p`` returns at event ``step - 1`` is a bound, or exact though
        outside its window (the one rule: :class:`~minimaxkit.replay.views.Exactness`)."""
        if not self.r.narrowing:
            return ""
        kind = self.r._bound_kind(step - 1)
        cut = self.r._cut_event(p)
        best, child, _, _ = self.r._best(p, step)
        side = "α" if self.r.is_max[p] else "β"
        if kind is None:
            alpha, beta = self.r._raw[self.r._enter[p]][2:4]
            if alpha < value < beta:
                return ""
            return " (exact: every child was searched, though it lies outside its window)"
        what = "a lower bound" if kind == "lower" else "an upper bound"
        if cut is not None and cut.kind != "best" and cut.pruned:
            return f" ({what}: it was cut off)"
        if child is None and starts_at_bound(self.r.fail):
            return (f" ({fail_words(self.r.fail)}: no child beat {side} = {fmt(value)}, so "
                    f"it returns {side}: {what})")
        return f" ({what}: its best child's value is only a bound)"

    def explain(self, step: int) -> str:
        """The event of ``step`` (the ``step``-th event) in words."""
        self.r._ensure(step)
        if step == 0:
            return self._start()
        e = self.r.trace.event(step - 1)
        words: dict[type, Callable[[Any, int], str]] = {
            Enter: self._enter, Leaf: self._leaf, Cutoff: self._cutoff, Exit: self._exit,
            TTHit: self._table}
        said = words.get(type(e))
        return said(e, step) if said is not None else repr(e)

    def _start(self) -> str:
        """Step 0: the root, before any event."""
        if not self.r._raw:
            return "The trace is empty."
        first = self.r._raw[0]
        root = first[1]
        # the root's player, from its first event (the index may not have read it yet)
        mx = self.r.is_max.get(root, first[4] if first[0] == "enter" else first[5])
        name = self.r.name(root)
        called = "" if name == "root" else f" {name}"
        return f"Start: nothing is searched yet. The root{called} is a {player(mx)} node."

    def _enter(self, e: Enter, step: int) -> str:
        p = e.path
        where = "the root " if not p and self.r.name(p) != "root" else ""
        parent = f", child of {self._node(p[:-1])}," if p else ""
        if not self.windows:
            return f"Enter {where}{self._node(p)}{parent.rstrip(',')}."
        return (f"Enter {where}{self._node(p)}{parent} with α = {fmt(e.alpha)}, "
                f"β = {fmt(e.beta)}.")

    def _leaf(self, e: Leaf, step: int) -> str:
        p = e.path
        if self.r._is_real_leaf(p):
            head = f"Leaf {self.r.name(p)} = {fmt(e.value)}."
        else:
            head = f"{self.r.name(p)} is evaluated statically (depth limit): {fmt(e.value)}."
        return head + self._effect(p, step)

    def _cutoff(self, e: Cutoff, step: int) -> str:
        p = e.path
        if e.kind == "best":
            side = "highest" if self.r.is_max[p] else "lowest"
            return (f"Cut at {self.r.name(p)}: v = {fmt(e.value)} is the {side} value "
                    f"possible, so {self._pruned_words(p, e.pruned)} (simple pruning).")
        strict = self.r.prune_on_equal is False
        if e.kind == "beta":
            head = (f"β-cut at {self.r.name(p)}: v = {fmt(e.value)} {'>' if strict else '≥'} "
                    f"β = {fmt(e.bound)}")
        else:
            head = (f"α-cut at {self.r.name(p)}: v = {fmt(e.value)} {'<' if strict else '≤'} "
                    f"α = {fmt(e.bound)}")
        if e.value == e.bound:
            head += " (a cut on equality)"
        return f"{head}, {self._pruned_words(p, e.pruned)}." + self._source_of_bound(
            p, step, e.kind)

    def _exit(self, e: Exit, step: int) -> str:
        p = e.path
        note = self._exit_note(p, step, e.value)
        if not p:
            move = f"; best move: to {self.r.name((e.move,))}" if e.move is not None else ""
            who = self._node(p)
            who = who if who.startswith("the root") else "the root " + who
            return f"Search done: {who} returns {fmt(e.value)}{note}{move}."
        return (f"{self.r.name(p)} returns {fmt(e.value)}{note} to "
                f"{self._node(p[:-1])}." + self._effect(p, step))

    def _table(self, e: TTHit, step: int) -> str:
        p = e.path
        kinds = {"exact": "exact value", "lower": "lower bound", "upper": "upper bound"}
        return (f"{self.r.name(p)} is in the transposition table ({kinds[e.flag]} "
                f"{fmt(e.value)}); it is not searched again." + self._effect(p, step))
