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
the pruned edges: one is missing
"""

from __future__ import annotations

import math
from collections.abc import Iterable
from dataclasses import dataclass
from typing import Any

from ..search import alphabeta
from ..trace import Cutoff, Enter, Exit
from ..tree import GameTree
from ._reader import Failed, number, shown
from .conventions import CONVENTIONS, COURSE, Convention, course_note

__all__ = ["HandTrace", "TraceVerdict", "Expected", "EXERCISE_TREE", "exercise_tree",
           "check_hand_trace"]

inf = math.inf
#: The tree of lecture 3's hand-trace exercise, as nested lists (a MAX root).
EXERCISE_TREE = [[[4, 6], [7, -1]], [[2, -3], [8, 5]], [[-2, 9], [3, 1]]]
FIELDS = ("α", "β", "the value it returns")


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
class TraceVerdict:
    """The judgement of a hand trace: ``wrong`` lists every wrong entry in words."""

    ok: bool
    wrong: tuple[str, ...]
    note: str = ""

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
        entered) and of ``pruned`` (names), against the closest correct convention."""
        answer, pruned = self._read(answer, pruned)
        judged = [(self._wrong(answer, pruned, e), e.convention) for e in self.expected]
        fewest = min(len(w) for w, _ in judged)
        right = [c for w, c in judged if not w]
        if right:
            return TraceVerdict(True, (), course_note(right))
        wrong = next(w for w, c in judged if len(w) == fewest and c == COURSE) if any(
            len(w) == fewest and c == COURSE for w, c in judged) else next(
            w for w, _ in judged if len(w) == fewest)
        return TraceVerdict(False, tuple(wrong))

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

    def _wrong(self, answer: dict[str, Any], pruned: set[str], exp: Expected) -> list[str]:
        wrong = [w for name in self.interior
                 for w in _entry_wrong(name, answer.get(name, "missing"),
                                       exp.entries.get(name))]
        missing = len(exp.pruned - pruned)
        extra = sorted(pruned - exp.pruned)
        if missing:
            wrong.append(f"the pruned edges: {'one is' if missing == 1 else f'{missing} are'}"
                         " missing")
        wrong += [f"the pruned edges: the edge to {name} is not pruned" for name in extra]
        return wrong


def _entry_wrong(name: str, given: Any, want: tuple[float, float, float] | None) -> list[str]:
    """What is wrong with one node's entry (an empty list when nothing)."""
    if isinstance(given, str) and given == "missing":
        return [f"{name}: no entry (write None if the search never enters it)"]
    if want is None:
        return [] if given is None else [f"{name}: the search never enters it"]
    if given is None:
        return [f"{name}: the search enters it"]
    if not isinstance(given, (tuple, list)) or len(given) != 3:
        return [f"{name}: expected (α, β, returns), got {shown(given)}"]
    out = []
    for field, x, w in zip(FIELDS, given, want, strict=True):
        if x is Ellipsis:
            out.append(f"{name}: {field} is not filled in")
        elif _as_number(x) != w:
            out.append(f"{name}: {field} is wrong")
    return out


def check_hand_trace(answer: Any, pruned: Any = None) -> tuple[bool, str]:
    """Lecture 3's hand trace of :data:`EXERCISE_TREE`; every correct convention passes. Refuses:

    * a wrong α, β or returned value (each named);
    * a node the search never enters filled in;
    * a pruned edge missing;
    * the nodes below a pruned edge named as pruned.
    """
    verdict = HandTrace(exercise_tree()).judge(answer, set() if pruned is None else pruned)
    if verdict.ok:
        return True, "every window, value and pruned edge is right." + (
            f" {verdict.note}" if verdict.note else "")
    shown_wrong = "; ".join(verdict.wrong[:8]) + ("; …" if len(verdict.wrong) > 8 else "")
    return False, f"{len(verdict.wrong)} wrong: {shown_wrong}"
