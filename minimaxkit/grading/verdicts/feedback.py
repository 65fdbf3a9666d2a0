"""A question's report: per-tree verdicts, the points, and the words a student reads.

>>> points_text(4.5), points_text(7.0), points_text(14 / 3)
('4.5', '7', '14/3')
"""

from __future__ import annotations

from dataclasses import dataclass, field
from fractions import Fraction
from typing import Any

from ...support.text import VALIDATE_WIDTH, wrap
from .conventions import Convention
from .diagnosis import Diagnosis
from .records import ConventionRecord, Parted, TreeRecord, VerdictRecord
from .results import NO, OK, TreeResult

__all__ = ["GradeReport", "TreeVerdict", "points_text", "wrap", "VALIDATE_WIDTH", "SEE_OUTPUT"]

#: the Validate dialog's last line where the test cell's output shows the same verdict
SEE_OUTPUT = "(the cell's output has the details and a picture)"


@dataclass
class TreeVerdict:
    """One tree of a question: its name, what it is, its result, visible, hidden or seeded."""

    name: str
    about: str
    result: TreeResult
    kind: str = "visible"


def points_text(x: float) -> str:
    """Whole and half points as decimals, anything else as an exact fraction."""
    if (2 * x).is_integer():
        return f"{x:g}"
    return str(Fraction(x).limit_denominator(1000))


@dataclass
class GradeReport:
    """What one ``grade`` call found: verdicts, points, convention, diagnosis."""

    question: str
    points: float
    trees: list[TreeVerdict] = field(default_factory=list)
    problem: str = ""
    hidden: bool = False
    note: str = ""
    convention: Convention | None = None
    diagnosis: Diagnosis | None = None
    in_all: int | None = None

    @property
    def per_tree(self) -> float:
        """What a tree is worth: the points shared among all trees (``in_all``, hidden ones
        included), else among the visible ones."""
        return self.points / max(self.in_all or len(self.trees), 1)

    @property
    def earned(self) -> float:
        """Points earned: the trees' scores times what a tree is worth."""
        return self.per_tree * sum(t.result.score for t in self.trees)

    @property
    def available(self) -> float:
        """The points these trees are worth (without the hidden ones, the visible share)."""
        if self.hidden or not self.trees:
            return self.points
        return min(self.points, self.per_tree * len(self.trees))

    def head(self, width: int = 100) -> list[str]:
        """The score and convention (one line, never folded), then why that convention and
        what the hidden trees add."""
        first = f"{self.question}: {points_text(self.earned)} of " \
                f"{points_text(self.available)} points"
        if not self.hidden:
            first += " on the visible trees"
        c = self.convention
        more = []
        if c is not None and c.claimed:
            first += f", graded as {c.label}"
            why = c.why
            if self.diagnosis is not None and self.diagnosis.about_returns:
                why += "; what a node returns is the bug named below, not a convention"
            more.append(f"one convention for all your trees; this one because {why}")
        elif c is not None:
            first += f", compared with the lectures' convention, {c.label}"
            more.append(f"{c.why}: your trees are compared with the lectures' convention")
        if not self.hidden:
            rest = self.points - self.available
            more.append("the hidden trees are added when your work is graded" +
                        (f": {points_text(rest)} more {'point' if rest == 1 else 'points'}, "
                         f"{points_text(self.points)} in all" if rest > 0 else ""))
        return [first] + [ln for m in more for ln in wrap(f"({m})", width)]

    def tree_lines(self, index: int) -> list[str]:
        """Tree ``index``'s summary, details and likely bug."""
        t = self.trees[index]
        r = t.result
        mark = OK if r.score == 1 else NO
        about = f" ({t.about})" if t.about else ""
        share = "" if r.score in (0, 1) else f" [{points_text(r.score * self.per_tree)} of " \
                                               f"{points_text(self.per_tree)}]"
        lines = wrap(f"{mark} {t.name}{about}: {r.summary}{share}")
        detail = list(r.lines)
        if self.diagnosis is not None and r.score < 1:
            detail += self.diagnosis.tree_lines(index)
        for ln in detail:
            lines.extend(wrap(f"    {ln}"))
        if r.printed:
            shown = r.printed.rstrip("\n").splitlines()
            lines.append("    your function printed:")
            lines.extend(f"      {ln}" for ln in shown[:10])
            if len(shown) > 10:
                lines.append(f"      [... {len(shown) - 10} more lines]")
        return lines

    def top(self) -> list[str]:
        """The head, a rule, the notes and the likely bug for all trees."""
        head = self.head()
        lines = head + ["-" * max(len(ln) for ln in head[:1])]
        if self.note:
            lines.append(f"({self.note})")
        if self.problem:
            lines.append(f"{NO} {self.problem}")
        if self.diagnosis is not None:
            for ln in self.diagnosis.top_lines():
                lines.extend(wrap(ln))
        return lines

    def text(self) -> str:
        """The verdicts as printed, without pictures."""
        lines = self.top()
        for i in range(len(self.trees)):
            lines += self.tree_lines(i)
        return "\n".join(lines)

    def record(self) -> VerdictRecord:
        """The verdict as a typed record, for the class report: points, convention, the
        bugs named for every tree and where they show, whether the function finished on some
        tree, and per tree its kind, score, the bugs named for it alone, where the search
        parted from the reference, and whether its picture is shown."""
        d, c = self.diagnosis, self.convention
        shown = next((i for i, t in enumerate(self.trees) if t.result.picture), None)
        trees = []
        for i, t in enumerate(self.trees):
            r = t.result
            bugs = tuple(d.per_tree.get(i, [])[:3]) if d and not d.overall else ()
            part = next((x.strip().removeprefix("they part ") for x in r.lines
                         if x.strip().startswith("they part ")), "")
            node = next((r.picture.tree.node(p).name for p, m in r.picture.marks.items()
                         if m == "diverge"), None) if r.picture else None
            trees.append(TreeRecord(t.name, t.kind, r.score, r.status, bugs,
                                    Parted(node, part) if part else None, i == shown))
        return VerdictRecord(
            self.question, self.points, self.earned,
            ConventionRecord(c.name, c.label, c.why, c.claimed) if c else None,
            tuple(d.overall[:3]) if d else (), d.shown if d else "",
            any(t.result.status == "ok" for t in self.trees), tuple(trees))

    def data(self) -> dict[str, Any]:
        """:meth:`record` as plain data (JSON), as the trusted grader stores it.

        >>> tree = TreeVerdict("t", "", TreeResult(0.5, "value 3 ✔"), "seeded")
        >>> data = GradeReport("q", 2, [tree]).data()
        >>> data["earned"], data["trees"][0]["kind"], data["trees"][0]["parted"]
        (1.0, 'seeded', None)
        """
        return self.record().to_json()

    def summary(self, pointer: str = SEE_OUTPUT) -> str:
        """A short form for nbgrader's Validate dialog, lines of at most
        :data:`VALIDATE_WIDTH` characters (it cuts longer ones), ending with ``pointer``:
        where the student finds the rest (the grader says whether the cell's output is
        current: :mod:`minimaxkit.grading.api.stamps`)."""
        head = self.head(VALIDATE_WIDTH)
        lines = wrap(head[0], VALIDATE_WIDTH) + head[1:]
        if self.diagnosis is not None:
            lines += [ln for t in self.diagnosis.top_lines()
                      for ln in wrap(t, VALIDATE_WIDTH)]
        bugs: list[str] = []  # the likely bugs named per tree (checks without a diagnosis)
        for t in self.trees:
            mark = OK if t.result.score == 1 else NO
            lines += wrap(f"{mark} {t.name}: {t.result.summary}", VALIDATE_WIDTH)
            bugs += [ln for ln in t.result.lines if ln.startswith("likely bug")
                     and ln not in bugs]
        lines += [w for ln in bugs for w in wrap(ln, VALIDATE_WIDTH)]
        lines += wrap(pointer, VALIDATE_WIDTH)
        return "\n".join(lines)
