"""The step widget in a real JupyterLab and Notebook 7: it renders, "next" changes the
explanation and the picture, the keyboard alone steps it, a page saved with its widget state
steps with every control and no kernel, no cell fails. Screenshots go to tests/artifacts/."""

from __future__ import annotations

import contextlib
import json
from typing import Any

import pytest

from .harness import (
    ARTIFACTS,
    LabServer,
    axe_violations,
    error_outputs,
    open_notebook,
    run_all_cells,
    screenshot,
)

pytestmark = pytest.mark.browser

CELLS = [
    "from minimaxkit import alphabeta\n"
    "from minimaxkit.examples import tree_002\n"
    "from minimaxkit.widgets import StepWidget",
    "StepWidget(alphabeta(tree_002()))",
]

# The visible explanation, tree picture (a canvas the frames are drawn on: its pixels as a
# data URL, its title, the step drawn) and announcement of the first step widget on the page.
STATE = """() => {
    const root = document.querySelector('.mmk-step');
    if (!root) { return null; }
    const text = root.querySelector('.mmk-explain');
    const pic = Array.from(root.querySelectorAll('canvas.mmk-frame-canvas')).find(
        (i) => i.offsetParent !== null);
    const live = root.querySelector('.mmk-controls [aria-live="polite"]');
    const slider = root.querySelector('.mmk-controls input.mmk-slider');
    return {text: text ? text.innerText : null, src: pic ? pic.toDataURL() : null,
            alt: pic ? pic.getAttribute('title') : null, drawn: pic ? pic.dataset.step : null,
            loaded: !!pic && pic.width > 0 && pic.dataset.step !== undefined,
            live: live ? live.textContent : null, slider: slider ? slider.value : null,
            ready: root.classList.contains('mmk-ready')};
}"""


def state_of(page: Any) -> dict[str, Any]:
    result: dict[str, Any] = page.evaluate(STATE)
    return result


def wait_step(page: Any, k: int, *, timeout: float = 10_000) -> dict[str, Any]:
    """Wait until the widget shows step ``k`` (explanation and picture); return its state."""
    page.wait_for_function(
        f"""() => {{ const s = ({STATE})();
            return s && s.text && s.text.startsWith('step {k} / 42') && s.loaded
                && s.drawn === '{k}'; }}""",
        timeout=timeout)
    return state_of(page)


def show_widget(page: Any, server: LabServer, relpath: str) -> dict[str, Any]:
    open_notebook(page, server, relpath)
    assert run_all_cells(page)
    page.locator(".mmk-step canvas.mmk-frame-canvas").first.wait_for(state="visible",
                                                                   timeout=30_000)
    page.wait_for_function(f"() => ({STATE})().ready", timeout=30_000)
    return state_of(page)


def test_step_widget_steps(page: Any, jupyter: LabServer) -> None:
    relpath = jupyter.add_notebook("views/step_widget.ipynb", CELLS)
    first = show_widget(page, jupyter, relpath)
    assert first["text"].startswith("step 0 / 42")
    assert first["loaded"]
    assert first["alt"].startswith("Search tree at step 0 of 42")
    screenshot(page, f"step-widget-step0-{jupyter.app}")
    seen = [first]
    nxt = page.locator(".mmk-step .mmk-next")
    for k in range(1, 11):
        nxt.click()
        seen.append(wait_step(page, k))
    texts = [s["text"] for s in seen]
    srcs = [s["src"] for s in seen]
    assert len(set(texts)) == len(texts), "every step has its own explanation"
    assert len(set(srcs)) == len(srcs), "every step shows a new picture"
    assert "β-cut at F: v = 9 ≥ β = 8" in texts[10]
    assert "Leaf N = 8" in texts[4]
    # the picture's accessible name and the announcement say the same step
    assert seen[10]["alt"].startswith("Search tree at step 10 of 42")
    assert "Cut so far: R, S" in seen[10]["alt"]
    assert seen[10]["live"].startswith("Step 10 of 42. β-cut at F")
    screenshot(page, f"step-widget-step10-{jupyter.app}")
    assert error_outputs(page) == []


FOCUS = """() => {
    const a = document.activeElement;
    const s = getComputedStyle(a);
    return {cls: a.className || '', tag: a.tagName, visible: a.matches(':focus-visible'),
            outline: s.outlineStyle, width: parseFloat(s.outlineWidth || '0'),
            inWidget: !!a.closest('.mmk-step')};
}"""


def test_keyboard_only_stepping(page: Any, jupyter: LabServer) -> None:
    """Tab reaches the controls; arrows, Home and End step; the focus ring shows; each step
    is announced."""
    relpath = jupyter.add_notebook("views/keyboard.ipynb", CELLS)
    show_widget(page, jupyter, relpath)
    # Start from the notebook's cells (command mode), then only the keyboard.
    page.locator(".jp-Notebook .jp-Cell").first.click()
    page.keyboard.press("Escape")
    order = []
    for _ in range(80):
        page.keyboard.press("Tab")
        focus = page.evaluate(FOCUS)
        if focus["inWidget"]:
            order.append(focus["cls"])
            if "mmk-first" in focus["cls"]:
                break
    assert order and "mmk-first" in order[-1], f"Tab never reached the controls: {order}"
    focus = page.evaluate(FOCUS)
    assert focus["visible"] and focus["outline"] != "none" and focus["width"] >= 2, focus
    screenshot(page, f"step-widget-keyboard-focus-{jupyter.app}")
    # the focus order inside the controls: first, back, next, last, play, step slider
    tab_order = []
    for _ in range(5):
        page.keyboard.press("Tab")
        tab_order.append(page.evaluate(FOCUS)["cls"].split()[-1])
    assert tab_order == ["mmk-back", "mmk-next", "mmk-last", "mmk-playbtn", "mmk-slider"]
    for k in (1, 2, 3):
        page.keyboard.press("ArrowRight")
        state = wait_step(page, k)
    assert state["live"].startswith("Step 3 of 42.") and state["slider"] == "3"
    page.keyboard.press("ArrowLeft")
    wait_step(page, 2)
    page.keyboard.press("End")
    assert "Search done" in wait_step(page, 42)["text"]
    page.keyboard.press("Home")
    wait_step(page, 0)
    page.keyboard.press("Shift+Tab")  # back to the play button: Enter plays, Enter pauses
    assert "mmk-playbtn" in page.evaluate(FOCUS)["cls"]
    page.keyboard.press("Enter")
    wait_step(page, 2, timeout=20_000)
    page.keyboard.press("Enter")
    assert page.locator(".mmk-step .mmk-playbtn").get_attribute("aria-pressed") == "false"
    # the notebook ignored the keys: still one widget, no cell added or removed
    assert page.locator(".jp-Notebook .jp-Cell").count() == len(CELLS)
    assert error_outputs(page) == []


SAVE_STATE = "@jupyter-widgets/jupyterlab-manager:saveWidgetState"
SET_SAVE_STATE = """async ([id, on]) => {
    const c = window.jupyterapp.commands;
    if (c.isToggled(id) !== on) { await c.execute(id); }
    return c.isToggled(id);
}"""
SHUT_DOWN = "async () => { await window.jupyterapp.shell.currentWidget.sessionContext.shutdown(); }"


def record_saved_size(state: dict[str, Any], app: str) -> None:
    """Write how many bytes the saved widget state takes, by model, to tests/artifacts/
    (docs/views.md quotes it)."""
    by_model: dict[str, list[int]] = {}
    for model in state["state"].values():
        entry = by_model.setdefault(model["model_name"], [0, 0])
        entry[0] += 1
        entry[1] += len(json.dumps(model))
    lines = [f"saved widget state of StepWidget(alphabeta(tree_002())) in {app}: "
             f"{len(json.dumps(state))} bytes, {len(state['state'])} models"]
    lines += [f"  {name}: {n} models, {size} bytes"
              for name, (n, size) in sorted(by_model.items(), key=lambda kv: -kv[1][1])]
    ARTIFACTS.mkdir(parents=True, exist_ok=True)
    (ARTIFACTS / f"saved-state-size-{app}.txt").write_text("\n".join(lines) + "\n")


# What the saved widget's output shows after the page is opened again: "shown" once the step
# widget's picture is visible, "lost" if ipywidgets gave up on its saved models, else false.
RESTORED = """() => {
    const pic = document.querySelector('.mmk-step canvas.mmk-frame-canvas');
    if (pic && pic.offsetParent !== null && pic.width > 0) { return 'shown'; }
    const outs = Array.from(document.querySelectorAll('.jp-OutputArea-output'));
    return outs.some((n) => n.innerText.includes('Error displaying widget')) ? 'lost' : false;
}"""
OUTPUT_TEXTS = """() => Array.from(document.querySelectorAll('.jp-OutputArea-output'))
    .map((n) => n.innerText.slice(0, 120))"""


# Parts of the step widget that the front end marks as having lost their kernel, and how
# many of those marks (a ::before icon) are drawn.
LOST_KERNEL_MARKS = """() => {
    const root = document.querySelector('.mmk-step');
    const marked = Array.from(root.querySelectorAll('.jupyter-widgets-disconnected'));
    if (root.classList.contains('jupyter-widgets-disconnected')) { marked.push(root); }
    const shown = marked.filter((el) => !['none', 'normal', ''].includes(
        getComputedStyle(el, '::before').content));
    return {marked: marked.length, shown: shown.length};
}"""


def reopen_saved(page: Any, server: LabServer, relpath: str, *, opens: int = 3,
                 timeout: float = 60_000) -> int:
    """Open the saved notebook ``relpath`` again (a new page) until its step widget shows;
    return how many opens it took past the first.

    The front ends' widget manager restores a saved state once a kernel connects (a fresh
    kernel will do; with no kernel at all it restores nothing), and it can lose a race with
    that kernel on a loaded machine: it declares itself restored before the saved models
    are in, and the output says "Error displaying widget: model not found" (an ipywidgets
    behaviour, not the kit's; reported upstream as jupyterlab/jupyterlab#15361). Opening
    the notebook again is what a reader would do; a widget that never shows, or shows with
    its controls broken, still fails the test."""
    seen = []
    for attempt in range(opens):
        page.goto(server.notebook_url(relpath))
        try:
            outcome = page.wait_for_function(RESTORED, timeout=timeout).json_value()
        except Exception:  # playwright's TimeoutError: say what the page showed instead
            outcome = "not shown within the time"
        if outcome == "shown":
            return attempt
        seen.append(f"open {attempt + 1}: {outcome}: {page.evaluate(OUTPUT_TEXTS)}")
        server.shutdown_kernels()
    pytest.fail("the saved step widget never showed:\n" + "\n".join(seen))


def test_saved_widget_steps_without_a_kernel(page: Any, jupyter: LabServer) -> None:
    """Saved with its widget state, the notebook steps in the browser with no kernel, with
    every control: next, back, last, first, the slider, play / pause and the keys."""
    relpath = jupyter.add_notebook("views/saved_state.ipynb", CELLS)
    open_notebook(page, jupyter, relpath)
    # the student setup turns Save Widget State Automatically on (tools/student_setup.py)
    assert page.evaluate(f"() => window.jupyterapp.commands.isToggled('{SAVE_STATE}')")
    assert run_all_cells(page)
    page.wait_for_function(f"() => ({STATE})().ready", timeout=30_000)
    page.evaluate("async () => { await window.jupyterapp.commands.execute("
                  "'docmanager:save'); }")
    saved = json.loads((jupyter.root_dir / relpath).read_text(encoding="utf-8"))
    state = saved["metadata"]["widgets"]["application/vnd.jupyter.widget-state+json"]
    # the picture's 43 frames are in the saved state (as the front end saves binary
    # data: base64 buffers with their paths in the model's state)
    frames = [b for m in state["state"].values() for b in m.get("buffers", [])
              if b["path"][0] == "frames"]
    assert len(frames) == 43, len(frames)
    record_saved_size(state, jupyter.app)
    page.evaluate(SHUT_DOWN)
    reopen_saved(page, jupyter, relpath)
    page.evaluate(SHUT_DOWN)  # the page may have started a new kernel: none is needed
    page.wait_for_function(
        "() => !window.jupyterapp.shell.currentWidget.sessionContext.session")
    before = state_of(page)
    assert before["text"].startswith("step 0 / 42")
    # the front end marks the widget's parts as cut off from a kernel; a widget that
    # steps without one does not show those marks (the red broken links); the marks
    # come when the front end sees the kernel gone, the widget's answer just after
    with contextlib.suppress(Exception):  # the assertion below says what was seen
        page.wait_for_function(f"() => ({LOST_KERNEL_MARKS})().shown === 0",
                               timeout=60_000)  # (a loaded machine's front end is slow)
    marks = page.evaluate(LOST_KERNEL_MARKS)
    assert marks["marked"] > 0 and marks["shown"] == 0, marks
    controls = page.locator(".mmk-step .mmk-controls")
    seen = {0: before["src"]}
    for button, k in (("next", 1), ("next", 2), ("back", 1), ("last", 42),
                      ("first", 0)):
        controls.locator(f".mmk-{button}").click()
        seen[k] = wait_step(page, k)["src"]
    controls.locator("input.mmk-slider").fill("25")
    seen[25] = wait_step(page, 25)["src"]
    controls.locator("input.mmk-slider").press("ArrowRight")
    seen[26] = wait_step(page, 26)["src"]
    controls.locator(".mmk-playbtn").click()
    wait_step(page, 28, timeout=20_000)
    controls.locator(".mmk-playbtn").click()
    assert len(set(seen.values())) == len(seen) == 6
    assert state_of(page)["live"].startswith("Step 2")  # announced without a kernel
    screenshot(page, f"step-widget-saved-no-kernel-{jupyter.app}")
    assert not page.evaluate(
        "() => !!window.jupyterapp.shell.currentWidget.sessionContext.session")


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
    "from minimaxkit import GameTree\n"
    "QuizWidget(tree=GameTree.random(depth=6, branching=3, seed=5))  # 729 leaves: typed",
]


def test_compare_quiz_and_play_widgets(page: Any, lab_server: LabServer) -> None:
    relpath = lab_server.add_notebook("views/other_widgets.ipynb", OTHER_CELLS)
    open_notebook(page, lab_server, relpath)
    assert run_all_cells(page)
    compare = page.locator(".mmk-compare")
    compare.locator("canvas.mmk-frame-canvas").nth(1).wait_for(state="visible", timeout=30_000)
    # each picture marks where its own search goes: the cut at D, the strict search's L
    assert ("The traces part at step 40: on equality cuts off at D while strict enters L "
            "(marked ★).") in compare.inner_text()
    quiz = page.locator(".mmk-quiz").first
    quiz.locator(".mmk-leaf").first.click()
    quiz.locator(".mmk-check").click()
    quiz.locator(".mmk-verdict").wait_for(state="visible", timeout=20_000)
    assert "Not quite" in quiz.inner_text() or "Correct" in quiz.inner_text()
    play = page.locator(".mmk-play")
    play.locator(".mmk-cell").nth(4).click()
    page.wait_for_function(
        "() => document.querySelector('.mmk-play .mmk-status').innerText.includes('searched')",
        timeout=20_000)
    assert play.locator(".mmk-cell").nth(4).inner_text().strip() == "X"
    screenshot(page, "compare-quiz-play")

    # the large quiz: no picture, the leaves listed, the answer typed from the keyboard
    big = page.locator(".mmk-quiz").nth(1)
    big.scroll_into_view_if_needed()
    assert "too many to draw legibly" in big.inner_text()
    assert big.locator(".mmk-leaf").count() == 0
    box = big.locator(".mmk-typed textarea")
    box.click()
    page.keyboard.type("NOPE, ")
    # straight to Check, as a student would: the box sends its text when it loses focus,
    # ahead of the click (sent key by key, the click could overtake it under load)
    big.locator(".mmk-check").click()
    page.wait_for_function(
        "() => (document.querySelectorAll('.mmk-quiz')[1].querySelector('.mmk-verdict')"
        " || {}).innerText?.includes('NOPE')", timeout=20_000)
    assert "name no leaf of this tree: 'NOPE'" in big.inner_text()
    screenshot(page, "quiz-large")
    assert axe_violations(page, ".mmk-quiz") == []
    assert error_outputs(page) == []
