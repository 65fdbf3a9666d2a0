"""Lecture 3's hand-trace widget (Exercise 3.1) in a real JupyterLab: after Check, what the
student sees in F's row and at F's edge buttons (issue 36: a pruned edge left unmarked was
said nowhere near its button, and only in a summary that did not name it). The picture's
marks are checked pixel by pixel without a browser (tests/test_hand_trace_widget.py)."""

from __future__ import annotations

from typing import Any

import pytest

from .harness import LabServer, element_shot, error_outputs, open_notebook, run_all_cells

pytestmark = pytest.mark.browser

CELLS = [
    "import math\n"
    "from minimaxkit.lecture.hand_trace import exercise_tree\n"
    "from minimaxkit.lecture.hand_trace_widget import HandTraceWidget",
    # the worked answer (tests/test_hand_trace_widget.py's SOFT) with F's β wrong, F→N unmarked
    "inf = math.inf\n"
    "quiz = HandTraceWidget(exercise_tree())\n"
    "quiz.fill({'A': (-inf, inf, 6), 'B': (-inf, inf, 6), 'C': (6, inf, 2),\n"
    "           'D': (6, inf, 3), 'E': (-inf, inf, 6), 'F': (-inf, 7, 7), 'G': (6, inf, 2),\n"
    "           'H': None, 'I': (6, inf, 9), 'J': (6, 9, 3)}, {'H'})\n"
    "quiz",
]


#: window widths from a laptop's to a desktop's, with JupyterLab's file browser open
WIDTHS = (1024, 1180, 1280, 1366, 1440, 1600)
#: an α box's height (px): an edge button that starts higher is beside the entry
ALPHA_HEIGHT = 28
#: two frames later: the page has laid itself out again after a resize
NEXT_FRAME = "() => new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r)))"
#: where row ``i``'s first edge button is from its α box (its left and top edges)
EDGES_AT = """(i) => {
    const row = document.querySelectorAll('.mmk-hand-trace .mmk-trace-row')[i];
    const alpha = row.querySelector('input').getBoundingClientRect();
    const edge = row.querySelector('button.mmk-leaf').getBoundingClientRect();
    return {dx: edge.left - alpha.left, dy: edge.top - alpha.top};
}"""


def test_check_names_an_unmarked_pruned_edge_in_its_row_and_at_its_button(
        page: Any, lab_server: LabServer) -> None:
    relpath = lab_server.add_notebook("views/hand_trace.ipynb", CELLS)
    open_notebook(page, lab_server, relpath)
    assert run_all_cells(page)
    widget = page.locator(".mmk-hand-trace")
    widget.locator(".mmk-check").wait_for(state="visible", timeout=30_000)
    widget.locator(".mmk-check").click()
    widget.locator(".mmk-verdict").wait_for(state="visible", timeout=30_000)
    row_f = widget.locator(".mmk-trace-row").nth(5)
    page.wait_for_function(
        "() => document.querySelectorAll('.mmk-trace-row')[5]"
        ".querySelector('button.mmk-leaf.mmk-wrong') !== null", timeout=20_000)
    said = row_f.locator(".mmk-reasons").inner_text()
    assert "F: β is wrong" in said and "the edge to N is pruned but not marked" in said, said
    buttons = row_f.locator("button.mmk-leaf")
    assert buttons.count() == 2
    to_m, to_n = buttons.nth(0), buttons.nth(1)
    assert to_n.inner_text().strip() == "→N ✗ pruned, not marked"
    assert to_n.get_attribute("aria-label") == \
        "the edge from F to N is pruned (wrong: pruned, not marked)"
    assert to_n.get_attribute("aria-pressed") == "false"
    unpressed_fill = to_n.evaluate("(b) => getComputedStyle(b).backgroundColor")
    assert unpressed_fill == "rgb(255, 241, 232)", unpressed_fill  # the light wrong fill
    assert "mmk-wrong" not in (to_m.get_attribute("class") or "")
    assert to_m.inner_text().strip() == "→M"
    assert widget.locator("button.mmk-leaf.mmk-wrong").count() == 1
    verdict = widget.locator(".mmk-verdict").inner_text()
    assert "2 entries are wrong, each marked ✗ in its row with why." in verdict, verdict
    # the grown button leaves F's edges where E's are, beside its entry or under it as the
    # window's width has them (student pass 6 saw one row's edges drop to a line of their
    # own, on the left, out of line with every other row's)
    for width in WIDTHS:
        page.set_viewport_size({"width": width, "height": 900})
        page.wait_for_function("(w) => window.innerWidth === w", arg=width)
        page.evaluate(NEXT_FRAME)
        f, e = page.evaluate(EDGES_AT, 5), page.evaluate(EDGES_AT, 4)
        assert abs(f["dx"] - e["dx"]) < 2, (width, f, e)  # the same column,
        beside = e["dy"] < ALPHA_HEIGHT  # and beside the entry where E's are (F's buttons
        assert (f["dy"] < ALPHA_HEIGHT) == beside, (width, f, e)  # may take two lines)
    page.set_viewport_size({"width": 1400, "height": 900})
    element_shot(widget, "hand-trace-f-wrong-n-unmarked")
    # pressing →N and checking again clears its ✗ and the row's reasons about it
    # (the wait is for the summary, which the check sets after every row: the rows' marks
    # and reasons reach the page one message at a time, and a wait for no ✗ once passed
    # between F's edge marks and F's reasons, with the old reasons still shown)
    to_n.click()
    widget.locator(".mmk-check").click()
    page.wait_for_function(
        "() => document.querySelector('.mmk-hand-trace .mmk-verdict').innerText"
        ".includes('1 entry is wrong')", timeout=20_000)
    assert widget.locator("button.mmk-leaf.mmk-wrong").count() == 0
    assert "the edge to N" not in widget.inner_text()
    # an edge pressed that is not pruned (D→J): its button reads "→J ✗", not "✓ →J ✗"
    # (pressed and wrong at once), and D's row mark is ✗, not a green ✓ beside it
    row_d = widget.locator(".mmk-trace-row").nth(3)
    to_j = row_d.locator("button.mmk-leaf", has_text="→J")
    to_j.click()
    widget.locator(".mmk-check").click()
    page.wait_for_function(
        "() => document.querySelector('.mmk-hand-trace .mmk-verdict').innerText"
        ".includes('2 entries are wrong')", timeout=20_000)
    assert "mmk-wrong" in (to_j.get_attribute("class") or "")
    assert to_j.get_attribute("aria-pressed") == "true"
    assert to_j.inner_text().strip() == "→J ✗ marked, should not be"
    assert to_j.get_attribute("aria-label") == \
        "the edge from D to J is pruned (wrong: marked, should not be)"
    # student 4 saw a wrongly pressed and a wrongly unpressed edge drawn alike: the pressed
    # one keeps the pressed (dark) fill, the other a light one
    fill = "(b) => getComputedStyle(b).backgroundColor"
    pressed_fill = to_j.evaluate(fill)
    assert pressed_fill == "rgb(11, 79, 138)", pressed_fill  # TOGGLE_COLORS["on"]
    before = to_j.evaluate("(b) => getComputedStyle(b, '::before').content")
    assert before in ("none", "normal", '""'), before  # no ✓ drawn before the text
    assert row_d.locator("b[title]").first.inner_text().strip() == "✗"
    element_shot(widget, "hand-trace-d-j-pressed-wrong")
    assert error_outputs(page) == []
