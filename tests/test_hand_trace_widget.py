"""The hand-trace widget of lecture 3's Exercise 3.1 (issue 37: "the student fills α, β and
the returned value at each node of a tree and marks the pruned edges: a quiz mode that checks
each entry and says which is wrong"), without a browser: the boxes, ticks and edge toggles
set as a reader would, then Check; tests/browser/test_hand_trace_browser.py checks what the
page shows.

The right traces are the worked answer's hand computation (minimaxkit/lecture/exercises.py,
"hand_trace"), written out below, and the two other return conventions as that answer
describes them: one-sided fail-hard returns α = 6 at G, C, J and D; clamped fail-hard also 6
at F (clamped to its β = 6)."""

from __future__ import annotations

import math
from typing import Any

import pytest

from minimaxkit import GameTree
from minimaxkit.lecture.hand_trace import exercise_tree
from minimaxkit.lecture.hand_trace_widget import HandTraceWidget

INF = math.inf
#: The exercise tree [[[4, 6], [7, -1]], [[2, -3], [8, 5]], [[-2, 9], [3, 1]]] traced by
#: hand, cutting on equality, fail-soft: E = max(4, 6) = 6 sets B's β to 6; F's 7 ≥ 6 is a
#: β-cut (N pruned); A's α = 6; G = max(2, -3) = 2 ≤ 6 is an α-cut at C (H pruned, never
#: entered); I = max(-2, 9) = 9 sets D's β to 9; J = max(3, 1) = 3 ≤ 6, D returns 3.
SOFT = {"A": (-INF, INF, 6), "B": (-INF, INF, 6), "C": (6, INF, 2), "D": (6, INF, 3),
        "E": (-INF, INF, 6), "F": (-INF, 6, 7), "G": (6, INF, 2), "H": None,
        "I": (6, INF, 9), "J": (6, 9, 3)}
PRUNED = {"H", "N"}
ONE_SIDED = {**SOFT, "G": (6, INF, 6), "C": (6, INF, 6), "J": (6, 9, 6), "D": (6, INF, 6)}
HARD = {**ONE_SIDED, "F": (-INF, 6, 6)}


def written(answer: dict[str, Any]) -> dict[str, Any]:
    """An answer as a reader types it: ∞ as "∞", "inf" or "-inf", numbers as text."""
    spell = {INF: "∞", -INF: "-inf"}
    return {k: v and tuple(spell.get(x, str(x)) for x in v) for k, v in answer.items()}


@pytest.fixture
def quiz() -> HandTraceWidget:
    return HandTraceWidget(exercise_tree())


def marked(quiz: HandTraceWidget) -> dict[str, list[str]]:
    """Which boxes of which rows carry the ✗ (class and label), by row."""
    out: dict[str, list[str]] = {}
    for row in quiz.rows:
        for key, box in zip(("alpha", "beta", "value"), row.boxes, strict=True):
            wrong = "mmk-wrong" in box._dom_classes
            assert wrong == ("✗" in box.description), (row.name, key, box.description)
            if wrong:
                out.setdefault(row.name, []).append(key)
        if "mmk-wrong" in row.skipped._dom_classes:
            out.setdefault(row.name, []).append("never entered")
    return out


@pytest.mark.parametrize("answer", [SOFT, ONE_SIDED, HARD], ids=["fail-soft", "one-sided",
                                                                 "fail-hard"])
def test_every_correct_convention_passes(quiz: HandTraceWidget,
                                         answer: dict[str, Any]) -> None:
    quiz.fill(written(answer), PRUNED)
    verdict = quiz.check()
    assert verdict.ok, verdict
    assert "✓ Every window, value and pruned edge is right." in quiz.summary.value
    assert marked(quiz) == {}
    assert all("✓" in row.mark.value for row in quiz.rows)
    if answer is not SOFT:  # told which convention it is, and which the course uses
        assert "Right, with cut on equality (v ≥ β, v ≤ α), fail-hard" in quiz.summary.value \
            or "one-sided fail-hard" in quiz.summary.value


def test_each_wrong_entry_is_marked_and_said_why_without_its_value(
        quiz: HandTraceWidget) -> None:
    wrong = {**SOFT, "F": (-INF, 7, 7), "C": (6, INF, 6), "H": (6, INF, 8), "I": None}
    quiz.fill(written(wrong), {"H", "Q", "E"})
    verdict = quiz.check()
    assert not verdict.ok
    assert marked(quiz) == {"C": ["value"], "F": ["beta"], "H": ["alpha", "beta", "value"],
                            "I": ["never entered"]}
    rows = {row.name: row for row in quiz.rows}
    assert "✗" in rows["C"].mark.value and "✓" in rows["A"].mark.value
    # each row says why, in the rule's words, with the direction and without a number
    # C's 6 is what fail-hard returns there, the rest fail-soft: the likely slip comes first
    assert ("yours is what fail-hard returns here, but your other entries are fail-soft"
            in rows["C"].reasons.value)
    assert "Yours is too high" in rows["C"].reasons.value
    assert "C (MIN) returns the smallest value its children returned" in rows["C"].reasons.value
    assert "yours is too high: B (MIN) moves its β" in rows["F"].reasons.value
    assert "the search never enters it" in rows["H"].reasons.value
    # Q is pruned (the glossary): not "not pruned", but below the edge the reader marked
    assert "Q lies below the pruned edge to H" in rows["H"].reasons.value
    assert "the edge to Q is not pruned" not in rows["H"].reasons.value
    assert "the edge to E is not pruned" in rows["B"].reasons.value
    # the two wrong states are said apart: B's →E is pressed (marked, should not be),
    # F's →N was not (pruned, not marked); each button says the words of its own state
    assert 0 in rows["B"].edges.selected
    assert rows["B"].edges.wrong_words == rows["F"].edges.wrong_words == [
        "marked, should not be", "pruned, not marked"]
    # B's own entry is right but the edge to E is wrong: no green ✓ beside its button's ✗
    # (student 3 read the ✓ as "this row is right"); the mark's title says which part
    assert "✗" in rows["B"].mark.value and "✓" not in rows["B"].mark.value
    assert "a pruned edge below it is wrong" in rows["B"].mark.value
    assert "the entry is wrong" in rows["C"].mark.value
    assert "I: the search enters it" in rows["I"].reasons.value
    for m in verdict.mistakes:
        assert not any(ch.isdigit() for ch in m.why), m
    # the pruned edge left unmarked (N) is said in F's row and marked at its button
    assert "the edge to N is pruned but not marked" in rows["F"].reasons.value
    assert quiz.summary.value.count("✗ 7 entries are wrong") == 1
    # the tree marks the nodes whose own entry is wrong, and only those
    assert quiz.picture.tooltip.endswith("Marked: wrong: F, C, H, I.")


def test_a_wrong_answer_put_right_clears_its_marks(quiz: HandTraceWidget) -> None:
    quiz.fill(written({**SOFT, "J": (6, 6, 3)}), PRUNED)
    assert not quiz.check().ok and marked(quiz) == {"J": ["beta"]}
    assert "yours is too low: D (MIN) moves its β" in quiz.rows[-1].reasons.value
    quiz.fill({"J": ("6", "9", "3")})
    assert quiz.check().ok and marked(quiz) == {} and quiz.rows[-1].reasons.value == ""
    assert "wrong" not in quiz.picture.tooltip


def test_blank_boxes_and_words_are_named(quiz: HandTraceWidget) -> None:
    quiz.fill({**written(SOFT), "A": ("", "∞", "six")}, PRUNED)
    verdict = quiz.check()
    assert verdict.wrong == ("A: α is not filled in", "A: the value it returns is not a number")
    assert marked(quiz) == {"A": ["alpha", "value"]}


def test_ticking_never_entered_empties_nothing_and_disables_the_boxes(
        quiz: HandTraceWidget) -> None:
    row = quiz.rows[7]
    assert row.name == "H"
    row.skipped.value = True
    assert all(box.disabled for box in row.boxes)
    assert quiz.answer[0]["H"] is None
    row.skipped.value = False
    assert not any(box.disabled for box in row.boxes)


def test_edges_are_toggled_per_row_and_read_as_names(quiz: HandTraceWidget) -> None:
    rows = {row.name: row for row in quiz.rows}
    assert [text for text, _ in rows["C"].edges.items] == ["→G", "→H"]
    assert rows["C"].edges.items[1][1] == "the edge from C to H is pruned"
    rows["C"].edges.selected = [1]
    rows["F"].edges.selected = [1]
    assert quiz.answer[1] == {"H", "N"}


def test_a_min_root_and_a_random_tree() -> None:
    quiz = HandTraceWidget.random(seed=1)  # odd seeds: a MIN root
    assert not quiz.tree.root.is_max
    expected = next(e for e in quiz.judge.expected if e.convention.fail == "soft")
    quiz.fill({n: expected.entries.get(n) for n in quiz.judge.interior}, expected.pruned)
    assert quiz.check().ok


def test_the_picture_is_the_tree_with_a_text_alternative() -> None:
    quiz = HandTraceWidget(GameTree.from_nested([[3, 5], [2, 9]]))
    assert bytes(quiz.picture.value).startswith(b"\x89PNG")
    assert quiz.picture.tooltip.startswith("Game tree: root A (MAX)")


def test_a_pruned_edge_left_unmarked_is_said_in_its_row_and_marked_at_its_button(
        quiz: HandTraceWidget) -> None:
    """Issue 36: F's β wrong and F→N left unmarked are both said in F's row, at one Check,
    and the →N button carries the ✗; an edge marked that is not pruned is marked alike."""
    quiz.fill(written({**SOFT, "F": (-INF, 7, 7)}), {"H"})
    verdict = quiz.check()
    rows = {row.name: row for row in quiz.rows}
    assert verdict.wrong == ("F: β is wrong",
                             "the pruned edges: the edge to N is pruned but not marked")
    assert "F: β is wrong" in rows["F"].reasons.value
    assert "the edge to N is pruned but not marked" in rows["F"].reasons.value
    assert "press its button" in rows["F"].reasons.value
    assert {r.name: r.edges.wrong for r in quiz.rows if r.edges.wrong} == {"F": [1]}
    assert [text for text, _ in rows["F"].edges.items] == ["→M", "→N"]
    assert "✗ 2 entries are wrong, each marked ✗ in its row with why." in quiz.summary.value
    assert "<li>" not in quiz.summary.value  # nothing left over for the summary to say
    # put right, the edge to E marked as well: B's →E button is marked, F's no longer
    quiz.fill({"F": ("-inf", "6", "7")}, {"H", "N", "E"})
    quiz.check()
    assert {r.name: r.edges.wrong for r in quiz.rows if r.edges.wrong} == {"B": [0]}
    assert "the edge to E is not pruned" in rows["B"].reasons.value
    # the two wrong states are said apart: B's →E is pressed (marked, should not be),
    # F's →N was not (pruned, not marked); each button says the words of its own state
    assert 0 in rows["B"].edges.selected
    assert rows["B"].edges.wrong_words == rows["F"].edges.wrong_words == [
        "marked, should not be", "pruned, not marked"]
    quiz.fill({}, PRUNED)
    assert quiz.check().ok and all(r.edges.wrong == [] for r in quiz.rows)


def _pixels(quiz: HandTraceWidget) -> Any:
    import io

    import numpy as np
    from PIL import Image

    return np.asarray(Image.open(io.BytesIO(bytes(quiz.picture.value))).convert("RGB"),
                      dtype=int)


def test_a_wrong_entry_is_drawn_on_its_own_node_not_beside_an_edge(
        quiz: HandTraceWidget) -> None:
    """Issue 36: F's wrong entry was a ◆ above F's apex, on the B–F edge, where it read as a
    pruned-edge mark. Now F itself is outlined: every orange pixel of the tree (the legend
    below it aside) lies on a line the unmarked picture draws, and together they make one
    shape as wide as it is tall and node-sized: F's triangle."""
    import numpy as np

    plain = _pixels(quiz)
    quiz.fill(written({**SOFT, "F": (-INF, 7, 7)}), PRUNED)
    assert quiz.check().wrong == ("F: β is wrong",)
    marked = _pixels(quiz)
    assert marked.shape == plain.shape
    orange = np.abs(marked - [0xD5, 0x5E, 0x00]).sum(axis=2) < 60
    rows = np.flatnonzero(orange.any(axis=1))
    gaps = np.flatnonzero(np.diff(rows) > 5)
    assert len(gaps) == 1, rows  # the tree's mark, then the legend's
    tree_rows = rows[: gaps[0] + 1]
    ys, xs = np.nonzero(orange[: tree_rows[-1] + 1])
    height, width = np.ptp(ys) + 1, np.ptp(xs) + 1
    assert 20 <= height <= 60 and abs(height - width) <= 0.2 * height, (height, width)
    dark = plain.sum(axis=2) < 3 * 160  # what the unmarked picture draws: lines, text
    near = np.zeros_like(dark)
    for dy in range(-2, 3):
        for dx in range(-2, 3):
            near |= np.roll(np.roll(dark, dy, axis=0), dx, axis=1)
    assert near[ys, xs].all()
    # the apex is the shape's one top pixel column range, narrow: a ▲, not a ◆ on an edge
    top = xs[ys == ys.min()]
    assert np.ptp(top) <= 6
    assert quiz.picture.tooltip.endswith("Marked: wrong: F.")
