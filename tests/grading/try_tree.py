"""Which catalogued programs a candidate test tree catches: the maintainer's tool for choosing
a new test tree (docs/grading.md, *Adding a test tree*).

Run from the repository's root, in the kit's environment::

    python tests/grading/try_tree.py a1_minimax minimax \\
        '{"name": "all-below-zero", "tree": {"nested": [[-3, -5], [-2, -8]]}}'

The last argument is the tree's entry as it would go into the question's ``trees`` in
``tests.json`` or ``hidden_tests.json`` (``name``, ``tree``, and ``options`` where the
question needs them, e.g. ``{"depth": 2}`` for ``minimax_limited``); its reference is
computed here, as ``python -m minimaxkit.grading.refresh`` would. Every program of
``tests/grading/catalogue/<assignment>/`` that is correct, or wrong on this question, is
graded on that one tree by the trusted grader, in this process (the catalogue is trusted
code): the tree as built (each node's value, static values at interior nodes: what a hand
check needs), a line per program with its score on the tree (0, ½ or 1) and its verdict,
then what the tree catches. An entry without the options the question's trees give (a
depth limit) is refused, naming them. The exit status is 0 when every correct program
scores 1, else 1 (a tree no correct program may lose a point on), and 2 for an argument
that is wrong.

A tree is worth adding when it catches a wrong program the question's other trees let
through (``tests/grading/test_catalogue.py`` grades every tree for 40 student ids and says
which wrong program earns full marks).
"""

from __future__ import annotations

import argparse
import json
import sys
import tempfile
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from catalogue_programs import (
    REPO,
    Program,
    Question,
    grade_program,
    programs,
    questions,
)

from minimaxkit.classroom.refresh import refresh
from minimaxkit.grading.testdata.places import TESTS
from minimaxkit.grading.testdata.trees import build_tree
from minimaxkit.tree import GameTree

#: a fixed tree is the same for every student id: one id grades it
STUDENT = "student00"


@dataclass(frozen=True)
class Caught:
    """One program's score on the candidate tree (0, 0.5 or 1) and the grader's words."""

    program: Program
    score: float
    summary: str

    @property
    def wrong_answer_seen(self) -> bool:
        """A wrong program lost a point's share here; a correct one never should."""
        return self.score < 1


class BadArgument(ValueError):
    """An argument that names no assignment, question or tree entry the kit has."""


def _question(assignment: str, name: str) -> tuple[Question, dict[str, Any]]:
    """The test cell grading question ``name`` and the question as ``tests.json`` has it (its
    ``check``, its visible trees)."""
    suite_path = REPO / "solutions" / assignment / TESTS
    if not suite_path.is_file():
        known = sorted(p.parent.name for p in (REPO / "solutions").glob(f"*/{TESTS}"))
        raise BadArgument(f"no assignment {assignment!r}: the assignments with test trees "
                          f"are {', '.join(known)}")
    suite = json.loads(suite_path.read_text())["questions"]
    cells = {q.question: q for q in questions(assignment)}
    if name not in suite or name not in cells:
        raise BadArgument(f"{assignment} has no question {name!r}: its questions are "
                          f"{', '.join(sorted(suite))}")
    return cells[name], suite[name]


def _entry(text: str) -> dict[str, Any]:
    """The candidate's entry, read from its JSON."""
    try:
        entry = json.loads(text)
    except json.JSONDecodeError as err:
        raise BadArgument(f"the tree entry is not JSON: {err}") from err
    if not isinstance(entry, dict) or "tree" not in entry:
        raise BadArgument('the tree entry must be an object with a "tree", as in tests.json: '
                          '{"name": "t", "tree": {"nested": [[3, 1], [-2, 5]]}}')
    return {"name": "candidate", **entry}


def _check_options(question: str, suite: dict[str, Any], entry: dict[str, Any]) -> None:
    """The entry names the options the question's trees (in ``suite``, the question as
    ``tests.json`` has it) give (``depth`` for ``minimax_limited``, ``max_depth`` and
    ``reorder`` for ``deepen``, ...): without them every program, correct or not, would be
    graded with none, which the check refuses."""
    needed = set().union(*(t.get("options", {}) for t in suite["trees"]))
    needed.discard("window")  # a narrow root window is a choice, not a need
    missing = sorted(needed - set(entry.get("options", {})))
    if missing:
        example = {k: suite["trees"][0].get("options", {}).get(k) for k in missing}
        raise BadArgument(f"the entry has no option {', '.join(missing)}, which {question}'s "
                          f"trees give: add \"options\": {json.dumps(example)} (or your own "
                          f"values) to it")


def tree_lines(tree: GameTree) -> list[str]:
    """The tree the spec built, a line a depth: each node's name, ▲ (MAX) or ▼ (MIN), its
    value (a leaf's, or an interior node's static value where the spec gives them) and
    "leaf" where it is one.

    >>> from minimaxkit.grading.testdata.trees import build_tree
    >>> for line in tree_lines(build_tree({"nested": [[3, -2], 5]})):
    ...     print(line)
    depth 0: A▲
    depth 1: B▼, C▼ 5 leaf
    depth 2: D▲ 3 leaf, E▲ -2 leaf
    """
    by_depth: dict[int, list[str]] = {}
    for node in tree.nodes():
        said = f"{node.name}{'▲' if node.is_max else '▼'}"
        said += "" if node.value is None else f" {node.value:g}"  # (no static: no value)
        by_depth.setdefault(len(node.path), []).append(said + ("" if node.children else " leaf"))
    return [f"depth {d}: {', '.join(nodes)}" for d, nodes in sorted(by_depth.items())]


def _suite_with(folder: Path, assignment: str, question: str, check: str,
                entry: dict[str, Any]) -> None:
    """A ``tests.json`` in ``folder`` whose question has the candidate as its only tree, with
    its reference (a tree spec written wrong fails here, naming its key)."""
    suite = {"assignment": assignment, "questions": {question: {"check": check,
                                                                "trees": [entry]}}}
    (folder / TESTS).write_text(json.dumps(suite))
    refresh(folder)


def try_tree(assignment: str, question: str, entry: dict[str, Any]) -> list[Caught]:
    """Every correct program, and every program wrong on ``question``, graded on the one tree
    ``entry`` (worth one point)."""
    cell, suite = _question(assignment, question)
    _check_options(question, suite, entry)
    concerned = [p for p in programs(assignment) if p.correct or p.question == cell.grade_id]
    with tempfile.TemporaryDirectory() as tmp:
        folder = Path(tmp)
        _suite_with(folder, assignment, question, suite["check"], entry)
        one_point = Question(cell.grade_id, cell.fn, cell.question, 1.0)
        out = []
        for program in concerned:
            report = grade_program(program, one_point, STUDENT, here=folder, hidden=False)
            summary = report.problem or "; ".join(t.result.summary for t in report.trees)
            out.append(Caught(program, report.earned, summary))
    return out


def said(results: list[Caught]) -> str:
    """The lines the command prints: each program's score, then what the tree catches."""
    lines = []
    for r in sorted(results, key=lambda r: (not r.program.correct, r.program.name)):
        kind = "correct" if r.program.correct else f"wrong ({r.program.bug})"
        lines.append(f"{r.score:>4g}  {r.program.name}: {kind}: {r.summary}")
    wrong = [r for r in results if not r.program.correct]
    caught = [r.program.name for r in wrong if r.wrong_answer_seen]
    refused = [r.program.name for r in results if r.program.correct and r.wrong_answer_seen]
    through = sorted(r.program.name for r in wrong if not r.wrong_answer_seen)
    lines.append(f"catches {len(caught)} of {len(wrong)} wrong programs"
                 + (f"; lets through: {', '.join(through)}" if through else ""))
    lines.append("every correct program scores 1" if not refused else
                 f"correct programs that lose points here (the tree must not be used): "
                 f"{', '.join(refused)}")
    return "\n".join(lines)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("assignment", help="e.g. a2_alphabeta")
    parser.add_argument("question", help="the question's name in tests.json, e.g. alphabeta")
    parser.add_argument("entry", help="the tree's entry as in tests.json, as JSON")
    args = parser.parse_args(argv)
    try:
        entry = _entry(args.entry)
        results = try_tree(args.assignment, args.question, entry)
    except (ValueError, KeyError) as err:  # (a BadArgument is a ValueError)
        print(f"try_tree: {err}", file=sys.stderr)
        return 2
    print("\n".join(["the tree (static values at interior nodes):",
                     *(f"  {line}" for line in tree_lines(build_tree(entry["tree"]))), ""]))
    print(said(results))
    return 0 if all(r.score == 1 for r in results if r.program.correct) else 1


if __name__ == "__main__":
    sys.exit(main())
