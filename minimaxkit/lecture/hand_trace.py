"""Alpha-beta traced by hand: the reader fills in, for every interior node, the window
(α, β) the search enters it with and the value it returns, and names the pruned edges;
the check says which entries are wrong, one by one, without giving the right ones away.

A node the search never enters is written ``None``. A pruned edge is named by the node it
leads to: the children a cut-off skips (not the nodes below them, which are never reached).

Every correct convention is accepted (``conventions``): cutting on equality or strictly
changes the windows and what is pruned; fail-soft, fail-hard and one-sided fail-hard change
the values returned. The answer is judged against the convention it is closest to, and a
right answer outside the course's convention is told which it is.

>>> from minimaxkit import GameTree
>>> trace = HandTrace(GameTree.from_nested([[3, 5], [2, 9]]))
>>> print(trace.blank())
answer = {
    #     α     β     returns
    "A": (..., ..., ...),
    "B": (..., ..., ...),
    "C": (..., ..., ...),
}
pruned = {...}  # the names of the nodes at the ends of pruned edges
>>> v = trace.judge({"A": (-inf, inf, 3), "B": (-inf, inf, 3), "C": (3, inf, 2)}, {"G"})
>>> v.ok, v.wrong
(True, ())
>>> v = trace.judge({"A": (-inf, inf, 3), "B": (-inf, 3, 3), "C": (3, inf, 9)}, set())
>>> for line in v.wrong:
...     print(line)
B: β is wrong
C: the value it returns is wrong
the pruned edges: the edge to G is pruned but not marked
"""

from __future__ import annotations

import math
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from typing import Any

from ..search import alphabeta
from ..support.text import listed
from ..trace import Cutoff, Enter, Exit
from ..tree import GameTree
from ._reader import Failed, number, shown
from .conventions import CONVENTIONS, COURSE, FAIL_WORDS, Convention, course_note

__all__ = ["HandTrace", "TraceVerdict", "Expected", "EXERCISE_TREE", "exercise_tree",
           "check_hand_trace"]

inf = math.inf
#: The tree of lecture 3's hand-trace exercise, as nested lists (a MAX root).
EXERCISE_TREE = [[[4, 6], [7, -1]], [[2, -3], [8, 5]], [[-2, 9], [3, 1]]]


def exercise_tree() -> GameTree:
    """Lecture 3's tree to trace by hand: values below 0, a β-cut, α-cuts, a pruned
    subtree."""
    return GameTree.from_nested(EXERCISE_TREE)


@dataclass(frozen=True)
class Expected:
    """What a convention's search does: each entered interior node's (α, β, returned
    value) by name, and the names of the nodes at the ends of pruned edges."""

    convention: Convention
    entries: dict[str, tuple[float, float, float]]
    pruned: frozenset[str]


@dataclass(frozen=True)
class Mistake:
    """One wrong entry of a hand trace. ``node`` is the node it is about (for an edge, the
    node the edge leads to); ``field`` is ``"alpha"``, ``"beta"``, ``"value"`` (one number
    of a node's entry), ``"entered"`` (filled in for a node the search never enters, or the
    other way round), ``"entry"`` (the entry missing or not three numbers), ``"edge"`` (an
    edge marked as pruned that is not) or ``"edges"`` (a pruned edge left unmarked);
    ``says`` is what is wrong in a few words and ``why`` the rule that gives the right
    entry, said without its value."""

    node: str | None
    field: str
    says: str
    why: str


@dataclass(frozen=True)
class TraceVerdict:
    """The judgement of a hand trace: ``wrong`` lists every wrong entry in words,
    ``mistakes`` the same entries with the node, the field and why."""

    ok: bool
    wrong: tuple[str, ...]
    note: str = ""
    mistakes: tuple[Mistake, ...] = ()

    def __repr__(self) -> str:
        if self.ok:
            return "✓ every entry is right." + (f" {self.note}" if self.note else "")
        return f"✗ {len(self.wrong)} wrong:\n" + "\n".join(f"  {w}" for w in self.wrong)


def _expected(tree: GameTree, convention: Convention) -> Expected:
    result = alphabeta(tree, **convention.options)  # type: ignore[arg-type]
    assert result.trace is not None
    windows: dict[str, tuple[float, float]] = {}
    entries: dict[str, tuple[float, float, float]] = {}
    pruned: set[str] = set()
    for e in result.trace.events:
        if isinstance(e, Enter):
            windows[tree.node(e.path).name] = (e.alpha, e.beta)
        elif isinstance(e, Exit) and tree.node(e.path).children:
            name = tree.node(e.path).name
            entries[name] = (*windows[name], e.value)
        elif isinstance(e, Cutoff):
            pruned |= {tree.node((*e.path, i)).name for i in e.pruned}
    return Expected(convention, entries, frozenset(pruned))


def _as_number(x: Any) -> float | None:
    """A written bound or value as a number: numbers, and texts like "-inf", "∞", "5"."""
    if number(x) is not None:
        return float(x)
    if isinstance(x, str):
        try:
            return float(x.strip().replace("−", "-").replace("∞", "inf"))
        except ValueError:
            return None
    return None


class HandTrace:
    """A tree to trace by hand, and the judge of a trace of it."""

    def __init__(self, tree: GameTree) -> None:
        self.tree = tree
        self.interior = [n.name for n in tree.nodes() if n.children]
        self.expected = [_expected(tree, c) for c in CONVENTIONS]

    @classmethod
    def random(cls, seed: int) -> HandTrace:
        """A small random tree to practise on (depth 3, two or three moves a node, values
        from -9 to 9), its root MAX for even seeds and MIN for odd ones."""
        return cls(GameTree.random(depth=3, branching=(2, 3), values=(-9, 9), seed=seed,
                                   root="max" if seed % 2 == 0 else "min"))

    def blank(self) -> str:
        """The answer to fill in, as Python to copy into a cell."""
        rows = "".join(f'    "{name}": (..., ..., ...),\n' for name in self.interior)
        return ("answer = {\n    #     α     β     returns\n" + rows + "}\n"
                "pruned = {...}  # the names of the nodes at the ends of pruned edges")

    def judge(self, answer: Any, pruned: Any) -> TraceVerdict:
        """Every wrong entry of ``answer`` (name -> (α, β, value), or None for a node never
        entered) and of ``pruned`` (names), against the closest correct convention (the
        course's where several are as close), each with why it is wrong."""
        answer, pruned = self._read(answer, pruned)
        judged = [(self._mistakes(answer, pruned, e), e.convention) for e in self.expected]
        right = [c for m, c in judged if not m]
        if right:
            return TraceVerdict(True, (), course_note(right))
        fewest = min(len(m) for m, _ in judged)
        closest = [(m, c) for m, c in judged if len(m) == fewest]
        mistakes = next((m for m, c in closest if c == COURSE), closest[0][0])
        return TraceVerdict(False, tuple(m.says for m in mistakes), mistakes=tuple(mistakes))

    def _other_convention(self, name: str, given: float, exp: Expected) -> Convention | None:
        """The other correct convention whose value at ``name`` is ``given``, if any: the
        sign of an answer that mixes conventions."""
        for other in self.expected:
            want = other.entries.get(name)
            if (other.convention.fail != exp.convention.fail and want is not None
                    and want[2] == given):
                return other.convention
        return None

    def _read(self, answer: Any, pruned: Any) -> tuple[dict[str, Any], set[str]]:
        if not isinstance(answer, dict):
            raise Failed(f"expected a dict of the interior nodes' entries, name -> (α, β, "
                         f"returns), got {shown(answer)}")
        if isinstance(pruned, str):
            pruned = {pruned}
        if not isinstance(pruned, Iterable):
            raise Failed(f"expected a set of node names for the pruned edges, got "
                         f"{shown(pruned)}")
        unknown = [k for k in answer if k not in self.interior]
        if unknown:
            raise Failed(f"{unknown[0]!r} is not an interior node of this tree; they are "
                         f"{', '.join(self.interior)}")
        return answer, {str(p) for p in pruned if p is not Ellipsis}

    def _mistakes(self, answer: dict[str, Any], pruned: set[str],
                  exp: Expected) -> list[Mistake]:
        rules = _Rules(self.tree, exp.convention,
                       lambda name, given: self._other_convention(name, given, exp))
        mistakes = [m for name in self.interior
                    for m in _entry_mistakes(name, answer.get(name, "missing"),
                                             exp.entries.get(name), rules)]
        mistakes += [_missing_edge(name) for name in sorted(exp.pruned - pruned)]
        mistakes += [rules.extra_edge(name, exp.pruned, pruned)
                     for name in sorted(pruned - exp.pruned)]
        return mistakes


def _missing_edge(name: str) -> Mistake:
    """A pruned edge (to ``name``) the reader left unmarked: named, so that the row of the
    node above it and the edge's own button can show it at the same Check as the rest."""
    return Mistake(name, "edges", f"the pruned edges: the edge to {name} is pruned but not "
                   "marked", "a node that stops at a cut skips the children after the one "
                   "that made it stop: the edge to each of them is pruned; mark it (press its "
                   "button, or in code put its name in the set of pruned nodes)")


#: The fields of an entry: (key, symbol, words).
ENTRY_FIELDS = (("alpha", "α", "α"), ("beta", "β", "β"),
                ("value", "returns", "the value it returns"))


def _entry_mistakes(name: str, given: Any, want: tuple[float, float, float] | None,
                    rules: _Rules) -> list[Mistake]:
    """What is wrong with one node's entry (an empty list when nothing)."""
    if isinstance(given, str) and given == "missing":
        return [Mistake(name, "entry", f"{name}: no entry (write None if the search never "
                        "enters it)", "every interior node needs an entry")]
    if want is None:
        return [] if given is None else [Mistake(
            name, "entered", f"{name}: the search never enters it",
            "a cut-off above it stops the search before it is reached")]
    if given is None:
        return [Mistake(name, "entered", f"{name}: the search enters it",
                        "no cut-off above it stops the search before it is reached")]
    if not isinstance(given, (tuple, list)) or len(given) != 3:
        return [Mistake(name, "entry", f"{name}: expected (α, β, returns), got {shown(given)}",
                        "an entry is three numbers: α, β and the value the node returns")]
    out = []
    # a window started again at (-∞, ∞), not one bound left unmoved: both bounds say so
    restarted = _as_number(given[0]) == -inf and _as_number(given[1]) == inf
    for (key, _, words), x, w in zip(ENTRY_FIELDS, given, want, strict=True):
        mine = _as_number(x)
        if x is Ellipsis:
            out.append(Mistake(name, key, f"{name}: {words} is not filled in",
                               "fill in every number; write ∞ as inf or ∞ (math.inf in code)"))
        elif mine is None:
            out.append(Mistake(name, key, f"{name}: {words} is not a number",
                               f"{shown(x)} is not a number; write ∞ as inf or ∞ "
                               "(math.inf in code)"))
        elif mine != w:
            out.append(Mistake(name, key, f"{name}: {words} is wrong",
                               rules.why(name, key, mine, w, restarted=restarted)))
    return out


class _Rules:
    """The rule that gives each entry of a node, in words, without the entry's value: what
    a reader needs to find a wrong entry again without being told it."""

    def __init__(self, tree: GameTree, convention: Convention,
                 other_convention: Callable[[str, float], Convention | None]) -> None:
        self.tree, self.convention = tree, convention
        self.other_convention = other_convention

    def why(self, name: str, key: str, given: float, want: float, *,
            restarted: bool = False) -> str:
        """Why ``given`` is not ``name``'s ``key`` (``"alpha"``, ``"beta"``, ``"value"``),
        with the likely bug first where the entry shows one (``restarted``: the reader's
        window for the node is (-∞, ∞), both bounds, as a window never passed down is)."""
        direction = "yours is too high" if given > want else "yours is too low"
        rule = self.value(name) if key == "value" else self.window(name, key)
        bug = self.likely_bug(name, key, given, restarted=restarted)
        return f"{bug}{direction.capitalize() if bug else direction}: {rule}"

    def likely_bug(self, name: str, key: str, given: float, *, restarted: bool = False) -> str:
        """A sentence naming the slip a wrong entry points to (empty when none): a window
        restarted at the root's (-∞, ∞) instead of passed down, or a value right in another
        convention than the rest of the answer."""
        node = self.tree.by_name(name)
        if key != "value":
            root_bound = -inf if key == "alpha" else inf
            if node.path and given == root_bound and restarted:
                symbol = "α" if key == "alpha" else "β"
                parent = self.tree.node(node.path[:-1]).name
                return (f"{name}'s {symbol} should be {parent}'s {symbol} at the time {name} "
                        f"is entered: the window is passed down, not started again at "
                        "(-∞, ∞). ")
            return ""
        other = self.other_convention(name, given)
        if other is None:
            return ""
        return (f"yours is what {FAIL_WORDS[other.fail]} returns here, but your other "
                f"entries are {FAIL_WORDS[self.convention.fail]}: keep to one convention "
                "throughout. ")

    def window(self, name: str, key: str) -> str:
        """Where a node's α (``key == "alpha"``) or β comes from."""
        node = self.tree.by_name(name)
        symbol = "α" if key == "alpha" else "β"
        if not node.path:
            return (f"{name} is the root: the search starts there with nothing secured for "
                    "either player, the widest window there is")
        parent = self.tree.node(node.path[:-1])
        earlier = [c.name for c in parent.children[: node.path[-1]]]
        who, own = ("MAX", "α") if parent.is_max else ("MIN", "β")
        if symbol != own:
            return (f"{parent.name} ({who}) never changes its {symbol}: {name} gets the "
                    f"{symbol} {parent.name} was entered with")
        if not earlier:
            return (f"{name} is {parent.name}'s first child: it gets {parent.name}'s window as "
                    f"{parent.name} was entered with it")
        best = "largest" if parent.is_max else "smallest"
        return (f"{parent.name} ({who}) moves its {own} after each child returns: {name} "
                f"gets the {best} of the {own} {parent.name} was entered with and what "
                f"{listed(earlier)} returned")

    def value(self, name: str) -> str:
        """What a node returns, in the convention the answer is judged against."""
        node = self.tree.by_name(name)
        who, best, bound = (("MAX", "largest", "β") if node.is_max else
                            ("MIN", "smallest", "α"))
        reach = "reaches" if self.convention.prune_on_equal else "goes past"
        stop = f"stopping at the first child whose value {reach} its {bound} (a cut)"
        if self.convention.fail == "soft":
            return (f"{name} ({who}) returns the {best} value its children returned, "
                    f"{stop}, even where that lies outside its window (fail-soft)")
        if self.convention.fail == "hard":
            return (f"{name} ({who}) returns the {best} value its children returned, {stop}, "
                    "clamped into its window: never below α, never above β (fail-hard)")
        start = "α" if node.is_max else "β"
        return (f"{name} ({who}) starts from its {start} and keeps the {best} of that and "
                f"each child's value, {stop}, and returns what it kept (one-sided "
                "fail-hard)")

    def extra_edge(self, name: str, pruned: frozenset[str], marked: set[str]) -> Mistake:
        """An edge marked as pruned (``marked``: all the reader marked) that the search goes
        down, or that lies below one the cut-off skips (``pruned``: the right ones)."""
        says = f"the pruned edges: the edge to {name} is not pruned"
        try:
            node = self.tree.by_name(name)
        except KeyError:
            return Mistake(name, "edge", f"the pruned edges: {name!r} is no node of this "
                           "tree", "name each pruned edge by the node it leads to")
        above = [self.tree.node(node.path[:i]).name for i in range(1, len(node.path))]
        cut = [a for a in above if a in pruned]
        if cut:
            return self._below_cut(name, cut[0] if cut[0] in marked else None)
        if not node.path:
            return Mistake(name, "edge", says, "the root has no edge leading to it")
        parent = self.tree.node(node.path[:-1]).name
        return Mistake(name, "edge", says, f"the search goes down it: when {parent} comes to "
                       f"{name}, {parent}'s window is still open")


    @staticmethod
    def _below_cut(name: str, cut: str | None) -> Mistake:
        """An edge marked below a pruned one: it is pruned too (the glossary's "pruning"),
        but only the edge the cut-off skips is marked. ``cut`` names that edge when the
        reader marked it too (so naming it gives nothing away)."""
        where = f"the pruned edge to {cut}" if cut else "an edge a cut-off prunes higher up"
        says = f"the pruned edges: {name} lies below {where}"
        return Mistake(name, "edge", says, f"the cut-off skips {'it' if cut else 'that edge'}, "
                       f"and {name} with everything under it is never reached, so it is pruned "
                       "with it; mark only the edge where the cut happens, not the ones "
                       "under it")


def check_hand_trace(answer: Any, pruned: Any = None) -> tuple[bool, str]:
    """Lecture 3's hand trace of :data:`EXERCISE_TREE`; every correct convention passes. Refuses:

    * a wrong α, β or returned value (each named);
    * a node the search never enters filled in;
    * a pruned edge missing (named);
    * the nodes below a pruned edge named as pruned.
    """
    verdict = HandTrace(exercise_tree()).judge(answer, set() if pruned is None else pruned)
    if verdict.ok:
        return True, "every window, value and pruned edge is right." + (
            f" {verdict.note}" if verdict.note else "")
    shown_wrong = "\n".join(f"- {m.says}: {m.why}" for m in verdict.mistakes[:8])
    more = "\n- …" if len(verdict.mistakes) > 8 else ""
    return False, f"{len(verdict.wrong)} wrong:\n{shown_wrong}{more}"
