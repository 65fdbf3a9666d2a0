"""The pieces of every verdict: a run's record as verdicts read it, a tree's result, and the
words for values and leaves.

>>> halves(1.0), halves(2 / 3), halves(0.5), halves(1 / 3)
(1.0, 0.5, 0.5, 0.0)
>>> what({"seq": [{"number": 1}]}), what({"none": True})
('a sequence of 1 items', 'None (is a return statement missing?)')
"""

from __future__ import annotations

import math
from collections import Counter
from dataclasses import dataclass, field
from typing import Any, Protocol

from ...tree import GameTree
from .compare import Comparison, names, value_text

__all__ = ["Record", "Picture", "TreeResult", "halves", "failed", "number_of", "what",
           "leaves_text", "same_value", "mismatch_lines", "read_twice", "OK", "NO"]

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


def number_of(desc: Any) -> tuple[float | None, str]:
    if isinstance(desc, dict) and "number" in desc:
        return float(desc["number"]), ""
    return None, "returned " + what(desc) + "; expected a number (the value)"


def what(desc: Any) -> str:
    if not isinstance(desc, dict):
        return "nothing usable"
    if "none" in desc:
        return "None (is a return statement missing?)"
    if "seq" in desc:
        return f"a sequence of {len(desc['seq'])} items"
    if "node" in desc:
        return f"node {desc.get('name')}"
    if "number" in desc:
        return f"the number {value_text(desc['number'])}"
    return f"{desc.get('other')} {desc.get('repr')}"


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


def read_twice(calls: list[tuple[str, Path]]) -> list[Path]:
    """Paths whose static value was read more than once, counting every call.

    >>> read_twice([("static", (0,)), ("static", (0,)), ("static", (1,))])
    [(0,)]
    """
    counts = Counter(path for kind, path in calls if kind == "static")
    return [p for p, n in counts.items() if n > 1]
