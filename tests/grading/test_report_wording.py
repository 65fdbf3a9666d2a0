"""The class report says what it counts, and shows only what applies to the assignment
(instructor review 2, findings 7 and 8): its trees' count is of answers (a submission's
answer to one question), a1's page has no conventions table when no question has more than
one way to be right, a5's page (no trees, no bugs) has neither the bugs' sentences nor the
search columns, and report.csv's ``convention`` column holds conventions only.

The verdicts are written by the grader's own record type (``VerdictRecord.to_json``); the
report's real run on autograded classes is tests/grading/test_class_report_counts.py.
"""

from __future__ import annotations

import csv
from pathlib import Path

from minimaxkit.classroom.report import (
    NOT_FINISHED,
    Entry,
    _intro,
    _sections,
    _write_csv,
)
from minimaxkit.grading.verdicts.records import TreeRecord, VerdictRecord

A1 = ("test_minimax", "test_minimax_limited", "test_best_move")


def _a1_verdict(question: str, scores: tuple[float, ...], *, finished: bool = True) -> dict:
    """A verdict of a1 (no convention: one way to be right) on a visible and a hidden tree."""
    trees = tuple(TreeRecord(name, kind, score, "ok" if finished else "raised")
                  for name, kind, score in zip(("aima", "hidden-1"), ("visible", "hidden"),
                                               scores, strict=True))
    return VerdictRecord(question, 4.0, 4.0 * sum(scores) / 2, None, (), "", finished,
                         trees).to_json()


def _a1_class() -> list[Entry]:
    """alice right everywhere, bob right on the visible tree only, carol a stub."""
    out = []
    for q in A1:
        out += [Entry("alice", q, 4.0, 4.0, _a1_verdict(q, (1.0, 1.0))),
                Entry("bob", q, 2.0, 4.0, _a1_verdict(q, (1.0, 0.0))),
                Entry("carol", q, 0.0, 4.0, _a1_verdict(q, (0.0, 0.0), finished=False))]
    return out


def _a5_class() -> list[Entry]:
    verdict = {"items": [{"label": "exact on finished games", "passed": True}],
               "rungs": {"random": {"won": 9, "drawn": 1, "lost": 0, "forfeited": 0}}}
    return [Entry(s, "test_play", 5.0, 6.0, verdict) for s in ("alice", "bob", "dave")]


def _titles(sections: list) -> list[str]:
    return [title for title, _ in sections]


def test_a1_counts_answers_and_shows_no_empty_conventions_table() -> None:
    sections = dict(_sections(_a1_class(), ids=True))
    trees = str(sections["Trees most often wrong"])
    # bob: right on the visible tree, wrong on the hidden one, in each of the 3 questions
    assert ("3 of 9 answers (3 submissions × 3 questions) were right on every visible tree "
            "of their question and wrong on a hidden or seeded one.") in trees, trees
    assert "Conventions graded under" not in sections
    assert "A bug is counted" in _intro(_a1_class())


def test_a5_has_no_trees_bugs_or_search_columns() -> None:
    entries = _a5_class()
    sections = _sections(entries, ids=True)
    assert "Trees most often wrong" not in _titles(sections)
    assert "Bugs the grader named" not in _titles(sections)
    assert _intro(entries) == ("3 submissions in the gradebook, 3 with the grader's "
                               "verdicts. Counts are of submissions.")
    students = str(dict(sections)["Students"])
    assert '<th scope="col">points</th></tr>' in students  # the last column
    assert "convention" not in students and "fits some trees" not in students, students


def test_the_csv_convention_column_holds_conventions_only(tmp_path: Path) -> None:
    entries = _a1_class()
    _write_csv(tmp_path / "report.csv", entries, True, {})
    rows = list(csv.DictReader(open(tmp_path / "report.csv", encoding="utf-8")))
    carol = [r for r in rows if r["student"] == "carol"]
    assert len(carol) == 3
    assert all((r["finished"], r["convention"]) == ("no", "") for r in carol), carol
    assert not any(NOT_FINISHED in r["convention"] for r in rows)
