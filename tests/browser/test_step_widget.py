"""The step widget in a real JupyterLab: it renders, "next" changes the explanation and the
picture, no cell fails. Screenshots go to tests/artifacts/."""

from __future__ import annotations

import json
from typing import Any

import pytest

from .harness import LabServer, error_outputs, open_notebook, run_all_cells, screenshot

pytestmark = pytest.mark.browser

CELLS = [
    "from minimaxkit import alphabeta\n"
    "from minimaxkit.examples import tree_002\n"
    "from minimaxkit.widgets import StepWidget",
    "StepWidget(alphabeta(tree_002()))",
]

# The visible explanation and tree picture of the first step widget on the page.
STATE = """() => {
    const root = document.querySelector('.mmk-step');
    if (!root) { return null; }
    const text = root.querySelector('.mmk-explain');
    const img = root.querySelector('img.widget-image');
    return {text: text ? text.innerText : null, src: img ? img.src : null,
            loaded: !!img && img.complete && img.naturalWidth > 0,
            ready: root.classList.contains('mmk-ready')};
}"""


def state_of(page: Any) -> dict[str, Any]:
    result: dict[str, Any] = page.evaluate(STATE)
    return result


def test_step_widget_steps(page: Any, lab_server: LabServer) -> None:
    relpath = lab_server.add_notebook("views/step_widget.ipynb", CELLS)
    open_notebook(page, lab_server.base_url, relpath)
    assert run_all_cells(page)
    page.locator(".mmk-step img.widget-image").first.wait_for(state="visible", timeout=30_000)
    page.wait_for_function(f"() => ({STATE})().ready", timeout=30_000)
    first = state_of(page)
    assert first["text"].startswith("step 0 / 42")
    assert first["loaded"]
    screenshot(page, "step-widget-step0")
    seen = [first]
    nxt = page.locator(".mmk-step .mmk-next")
    for k in range(1, 11):
        nxt.click()
        page.wait_for_function(
            f"""() => {{ const s = ({STATE})();
                return s && s.text && s.text.startsWith('step {k} / 42') && s.loaded; }}""",
            timeout=10_000)
        seen.append(state_of(page))
    texts = [s["text"] for s in seen]
    srcs = [s["src"] for s in seen]
    assert len(set(texts)) == len(texts), "every step has its own explanation"
    assert len(set(srcs)) == len(srcs), "every step shows a new picture"
    assert "β-cut at F: v = 9 ≥ β = 8" in texts[10]
    assert "Leaf N = 8" in texts[4]
    screenshot(page, "step-widget-step10")
    assert error_outputs(page) == []


SAVE_STATE = "@jupyter-widgets/jupyterlab-manager:saveWidgetState"
SET_SAVE_STATE = """async ([id, on]) => {
    const c = window.jupyterapp.commands;
    if (c.isToggled(id) !== on) { await c.execute(id); }
    return c.isToggled(id);
}"""
SHUT_DOWN = "async () => { await window.jupyterapp.shell.currentWidget.sessionContext.shutdown(); }"
# One step of the slider by keyboard (the browser alone: no kernel involved).
KEY_STEP = """() => {
    const root = document.querySelector('.mmk-step');
    root.querySelector('.widget-slider .noUi-handle').dispatchEvent(
        new KeyboardEvent('keydown', {key: 'ArrowRight', bubbles: true}));
}"""


def test_saved_widget_steps_without_a_kernel(page: Any, lab_server: LabServer) -> None:
    """Saved with its widget state, the notebook steps in the browser with no kernel."""
    # (the session-wide server's setting is switched back at the end)
    relpath = lab_server.add_notebook("views/saved_state.ipynb", CELLS)
    open_notebook(page, lab_server.base_url, relpath)
    assert page.evaluate(SET_SAVE_STATE, [SAVE_STATE, True])
    try:
        assert run_all_cells(page)
        page.wait_for_function(f"() => ({STATE})().ready", timeout=30_000)
        page.evaluate("async () => { await window.jupyterapp.commands.execute("
                      "'docmanager:save'); }")
        saved = json.loads((lab_server.root_dir / relpath).read_text(encoding="utf-8"))
        state = saved["metadata"]["widgets"]["application/vnd.jupyter.widget-state+json"]
        assert len(state["state"]) > 100
        page.evaluate(SHUT_DOWN)
        page.goto(f"{lab_server.base_url}/lab/tree/{relpath}?reset")
        page.locator(".mmk-step img.widget-image").first.wait_for(state="visible")
        page.evaluate(SHUT_DOWN)  # the page may have started a new kernel: none is needed
        page.wait_for_function(
            "() => !window.jupyterapp.shell.currentWidget.sessionContext.session")
        before = state_of(page)
        assert before["text"].startswith("step 0 / 42")
        for k in (1, 2, 3):
            page.evaluate(KEY_STEP)
            page.wait_for_function(
                f"() => ({STATE})().text.startsWith('step {k} / 42') && ({STATE})().loaded")
        after = state_of(page)
        assert after["src"] != before["src"] and after["text"] != before["text"]
        screenshot(page, "step-widget-saved-no-kernel")
    finally:
        page.evaluate(SET_SAVE_STATE, [SAVE_STATE, False])


OTHER_CELLS = [
    "from minimaxkit import alphabeta\n"
    "from minimaxkit.examples import tree_002\n"
    "from minimaxkit.games import TicTacToe\n"
    "from minimaxkit.widgets import CompareWidget, PlayWidget, QuizWidget",
    "CompareWidget(alphabeta(tree_002(), fail='hard'),\n"
    "              alphabeta(tree_002(), fail='hard', prune_on_equal=False),\n"
    "              labels=('on equality', 'strict'))",
    "QuizWidget(seed=3)",
    "PlayWidget(TicTacToe())",
]


def test_compare_quiz_and_play_widgets(page: Any, lab_server: LabServer) -> None:
    relpath = lab_server.add_notebook("views/other_widgets.ipynb", OTHER_CELLS)
    open_notebook(page, lab_server.base_url, relpath)
    assert run_all_cells(page)
    compare = page.locator(".mmk-compare")
    compare.locator("img.widget-image").nth(1).wait_for(state="visible", timeout=30_000)
    assert "The traces part at step 40, at node D" in compare.inner_text()
    quiz = page.locator(".mmk-quiz")
    quiz.locator(".mmk-leaf").first.click()
    quiz.locator(".mmk-check").click()
    page.locator(".mmk-quiz .mmk-verdict").wait_for(state="visible", timeout=20_000)
    assert "Not quite" in quiz.inner_text() or "Correct" in quiz.inner_text()
    play = page.locator(".mmk-play")
    play.locator(".mmk-cell").nth(4).click()
    page.wait_for_function(
        "() => document.querySelector('.mmk-play .mmk-status').innerText.includes('searched')",
        timeout=20_000)
    assert play.locator(".mmk-cell").nth(4).inner_text().strip() == "X"
    screenshot(page, "compare-quiz-play")
    assert error_outputs(page) == []
