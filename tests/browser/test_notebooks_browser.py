"""The six lectures in a real JupyterLab, and two of them in Notebook 7: every cell runs, no
error shows, every widget renders, the worked answers stay folded until a reader opens one,
every picture has a text alternative, and axe-core finds no serious or critical
accessibility violation in the kit's outputs.

One server per front end (the session's ``lab_server`` and ``notebook_server``) serves them;
each lecture runs in its own tab and kernel, which is shut down afterwards.

Notebook 7 is built from JupyterLab's own notebook, output and widget-manager packages, so
what a lecture's cells can get wrong there and not in Lab is the page around them. Two
lectures show every kind of widget the lectures use (lecture 3: step widgets, a comparison,
the hand trace and quizzes; lecture 6: the Connect Four game and the evaluation's pictures).
The other four ran in both until the suite was cut for issue #34 and
never failed in one front end only; each widget kind is also clicked in both front ends by
test_step_widget.py, test_play_widget.py and test_views_legible.py.
"""

from __future__ import annotations

import ast
from pathlib import Path
from typing import Any

import nbformat
import pytest

from .harness import (
    LabServer,
    axe_violations,
    error_outputs,
    open_notebook,
    run_all_cells,
    screenshot,
)

pytestmark = pytest.mark.browser

NOTEBOOKS = Path(__file__).resolve().parents[2] / "notebooks"
LECTURES = ("01_game_trees", "02_minimax", "03_alphabeta", "04_move_ordering",
            "05_progressive_deepening", "06_evaluation")

#: The widget views rendered into output areas (a widget's top element is an ipywidgets
#: box inside the output; a failed one is a ``widget-error``, a pending one says "Loading").
_WIDGET_VIEWS = """() => Array.from(document.querySelectorAll(
        '.jp-OutputArea-output > .jupyter-widgets')).map((view) => ({
    classes: view.className,
    controls: view.querySelectorAll('button, input, img, canvas').length,
    text: view.textContent.slice(0, 200),
}))"""

_ANSWERS = """() => Array.from(document.querySelectorAll('.jp-OutputArea-output details')).map(
    (d) => ({open: d.open, summary: d.querySelector('summary').textContent}))"""


def displayed_call(source: str) -> str:
    """The name of the function a code cell calls in its last line, the value the cell
    shows (``StepWidget`` for ``ex = tutorial_tree()\nStepWidget(alphabeta(ex))``), or ""
    when the cell ends otherwise (an assignment, an import, a bare name)."""
    body = ast.parse(source).body
    if not body or not isinstance(body[-1], ast.Expr):
        return ""
    call = body[-1].value
    if isinstance(call, ast.Call) and isinstance(call.func, ast.Name):
        return call.func.id
    return ""


def expected(name: str) -> tuple[int, int]:
    """(widget cells, answer cells) of the lecture as committed: cells whose shown value is
    a ``...Widget(...)`` call or a ``show_answer(...)`` call, wherever the call stands in
    the cell."""
    cells = [c.source for c in nbformat.read(NOTEBOOKS / f"{name}.ipynb", as_version=4).cells
             if c.cell_type == "code"]
    shown = [displayed_call(source) for source in cells]
    widgets = sum(called.endswith("Widget") for called in shown)
    answers = sum(called == "show_answer" for called in shown)
    return widgets, answers


#: Every picture in the outputs, with its text alternative (alt, aria-label or title).
_PICTURES = """() => Array.from(document.querySelectorAll(
        '.jp-OutputArea-output img, .jp-OutputArea-output svg[role="img"], '
        + '.jp-OutputArea-output canvas[role="img"]')).map((p) => ({
    tag: p.tagName, visible: p.offsetParent !== null || p.tagName === 'svg',
    alt: p.getAttribute('alt') || p.getAttribute('aria-label') || p.getAttribute('title')
         || '',
}))"""


@pytest.fixture
def lectures(jupyter: LabServer) -> str:
    (folder,) = jupyter.copy_in("notebooks")
    return folder


#: (front end, lecture): every lecture in JupyterLab, two in Notebook 7 (the docstring says why)
CASES = [("lab", name) for name in LECTURES] + [("notebook", name) for name in
                                                ("03_alphabeta", "06_evaluation")]


@pytest.mark.parametrize(("jupyter", "name"), CASES, indirect=["jupyter"],
                         ids=[f"{name}-{app}" for app, name in CASES])
def test_lecture_runs(page: Any, jupyter: LabServer, lectures: str, name: str) -> None:
    n_widgets, n_answers = expected(name)
    open_notebook(page, jupyter, f"{lectures}/{name}.ipynb")
    try:
        assert run_all_cells(page, timeout=150), error_outputs(page)
        assert error_outputs(page) == []

        # every widget cell shows a live widget: rendered by the front end, with controls
        page.wait_for_function(
            "(n) => document.querySelectorAll('.jp-OutputArea-output > .jupyter-widgets')"
            ".length >= n", arg=n_widgets, timeout=30_000)
        views = page.evaluate(_WIDGET_VIEWS)
        assert len(views) == n_widgets, views
        for view in views:
            assert "widget-box" in view["classes"] and "widget-error" not in view["classes"], view
            assert view["controls"] > 0 and "Loading widget" not in view["text"], view

        # pictures: matplotlib figures and trees that draw themselves, each with a text
        # alternative that says what it shows
        assert page.locator(".jp-OutputArea-output img").count() >= 2
        pictures = page.evaluate(_PICTURES)
        missing = [p for p in pictures if len(p["alt"]) < 20]
        assert missing == [], missing
        kit = ("Game tree", "Search tree", "alphabeta", "minimax", "TicTacToe", "ConnectFour")
        assert any(p["alt"].startswith(kit) for p in pictures), pictures

        # worked answers: one folded <details> per answer cell; a click opens one
        answers = page.evaluate(_ANSWERS)
        assert len(answers) == n_answers and not any(a["open"] for a in answers), answers
        assert all(a["summary"].startswith("Worked answer") for a in answers)
        summary = page.locator(".jp-OutputArea-output details > summary").first
        summary.scroll_into_view_if_needed()
        summary.click()
        assert page.evaluate(_ANSWERS)[0]["open"]

        # accessibility of the kit's own outputs (not the Jupyter front end around them)
        violations = axe_violations(page)
        assert violations == [], violations
        screenshot(page, f"lecture-{name}-{jupyter.app}")
    finally:
        page.evaluate("() => window.jupyterapp.serviceManager.sessions.shutdownAll()")
