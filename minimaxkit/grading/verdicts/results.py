"""The pieces of every verdict: a run's record as verdicts read it, a tree's result, and the
words for values and leaves.

>>> halves(1.0), halves(2 / 3), halves(0.5), halves(1 / 3)
(1.0, 0.5, 0.5, 0.0)
>>> what({"seq": [{"number": 1}]}), what({"none": True})
('a sequence of 1 item', 'None (is a return statement missing?)')
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field
from typing import Any, Protocol

from ...tree import GameTree
from .compare import Comparison, names, value_text

__all__ = ["Record", "Picture", "TreeResult", "Returned", "halves", "failed", "number_of", "what",
           "leaves_text", "same_value", "mismatch_lines", "OK", "NO"]

Path = tuple[int, ...]
OK, NO = "✔", "✘"


class Record(Protocol):
    """What a run of student code on one tree left (a recording's ``Outcome``)."""

    @property
    def status(self) -> str: ...
    @property
    def message(self) -> str: ...
    @property
    def result(self) -> Any: ...
    @property
    def calls(self) -> list[tuple[str, Path]]: ...
    @property
    def marks(self) -> list[int]: ...
    @property
    def printed(self) -> str: ...
    @property
    def ok(self) -> bool: ...


@dataclass(frozen=True)
class Picture:
    """What to draw for a mismatch: tree, reference trace, marks, title."""

    tree: GameTree
    trace: Any
    marks: dict[Path, str]
    title: str


@dataclass
class TreeResult:
    """One tree's verdict: ``score`` in [0, 1], ``summary``, detail ``lines``, ``picture``."""

    score: float
    summary: str
    lines: list[str] = field(default_factory=list)
    picture: Picture | None = None
    printed: str = ""
    status: str = "ok"


def halves(share: float) -> float:
    """A share of the parts right, rounded down to a half."""
    return math.floor(share * 2 + 1e-9) / 2


def failed(out: Record) -> TreeResult:
    """The verdict of a tree the function did not finish."""
    return TreeResult(0.0, out.message.splitlines()[0], out.message.splitlines()[1:],
                      printed=out.printed, status=out.status)


@dataclass(frozen=True)
class Returned:
    """A value the student's function returned, as it was described where it ran
    (:func:`~minimaxkit.grading.recording.outcome.describe`): a number, None, a sequence, a
    node of the tree, or something else (its type and a short repr).

    >>> Returned.read({"seq": [{"number": 3}, {"node": [1], "name": "C"}]}).items[1].path
    (1,)
    >>> Returned.read({"other": "str", "repr": "'x'"}).words()
    "str 'x'"
    """

    kind: str  # "number", "none", "seq", "node", "other" or "unknown"
    number: float | None = None
    items: tuple[Returned, ...] = ()
    path: Path | None = None
    name: str = ""
    type_name: str = ""
    text: str = ""

    @classmethod
    def read(cls, desc: Any) -> Returned:
        """The description ``desc`` (plain data from the child) as a :class:`Returned`."""
        if not isinstance(desc, dict):
            return cls("unknown")
        if "number" in desc:
            return cls("number", number=float(desc["number"]))
        if "none" in desc:
            return cls("none")
        if "seq" in desc and isinstance(desc["seq"], list):
            return cls("seq", items=tuple(cls.read(d) for d in desc["seq"]))
        if "node" in desc and isinstance(desc["node"], list):
            return cls("node", path=tuple(int(i) for i in desc["node"]),
                       name=str(desc.get("name", "")))
        return cls("other", type_name=str(desc.get("other", "")),
                   text=str(desc.get("repr", "")))

    def words(self) -> str:
        """What was returned, in words."""
        if self.kind == "none":
            return "None (is a return statement missing?)"
        if self.kind == "seq":
            n = len(self.items)
            return f"a sequence of {n} item{'' if n == 1 else 's'}"
        if self.kind == "node":
            return f"node {self.name}"
        if self.kind == "number":
            return f"the number {value_text(self.number)}"
        if self.kind == "other":
            return f"{self.type_name} {self.text}"
        return "nothing usable"

    def pair(self) -> tuple[Returned, Returned] | None:
        """The two items of a returned pair, or None."""
        return (self.items[0], self.items[1]) if self.kind == "seq" and \
            len(self.items) == 2 else None


def number_of(desc: Any) -> tuple[float | None, str]:
    """The number a description holds, or None and what it was instead."""
    got = desc if isinstance(desc, Returned) else Returned.read(desc)
    if got.kind == "number":
        return got.number, ""
    return None, "returned " + got.words() + "; expected a number (the value)"


def what(desc: Any) -> str:
    """A description (or :class:`Returned`) in words."""
    return (desc if isinstance(desc, Returned) else Returned.read(desc)).words()


def leaves_text(n: int) -> str:
    return f"{n} leaf" if n == 1 else f"{n} leaves"


def same_value(a: float | None, b: float) -> bool:
    return a is not None and (a == b or math.isclose(a, b, rel_tol=1e-9, abs_tol=1e-9))


def mismatch_lines(tree: GameTree, c: Comparison, label: str, *,
                    pruning: bool = True) -> list[str]:
    lines = [f"the reference ({label}) evaluates {len(c.reference)}: "
             f"{names(tree, c.reference)}",
             f"your search evaluated {len(c.submitted)}: {names(tree, c.submitted)}"]
    if c.divergence is not None:
        lines.append(f"they part {c.divergence.text}")
    extra, missing = ("should have been cut", "cut") if pruning else \
        ("should not have been", "skipped")
    lines.append(f"evaluated but {extra}: {names(tree, c.extra)}")
    lines.append(f"{missing} but should have been evaluated: {names(tree, c.missing)}")
    if c.repeated:
        lines.append(f"evaluated more than once: {names(tree, c.repeated)}")
    return lines
