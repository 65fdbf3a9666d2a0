"""Pictures and widgets a student can read and come back to, in JupyterLab and Notebook 7:
the smallest text of every widget and picture measured as rendered (11 px or more at 100 %),
no mark's box over a value, a name or an edge, the step controls disabled at both ends, the
quiz's retry flow by keyboard alone (aria-pressed, axe-core clean), a notebook saved without
widget state says "run this cell" instead of "model not found", and a lecture opened and
closed leaves git status clean. Screenshots go to tests/artifacts/."""

from __future__ import annotations

import json
import re
import subprocess
import sys
from pathlib import Path
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
    write_notebook,
)

pytestmark = pytest.mark.browser

MIN_PX = 11.0

CELLS = [
    "from minimaxkit import alphabeta\n"
    "from minimaxkit.examples import tree_002, tutorial_tree\n"
    "from minimaxkit.draw import draw_tree, tree_svg_text\n"
    "from minimaxkit.widgets import CompareWidget, QuizWidget, StepWidget\n"
    "from IPython.display import HTML",
    "StepWidget(alphabeta(tree_002()))",
    "CompareWidget(alphabeta(tree_002()), alphabeta(tree_002(), order='perfect'),\n"
    "              labels=('natural', 'perfect'))",
    "QuizWidget(seed=3)",
    # the grader's picture, a mark of every kind on it (C: ★ where two traces part)
    "HTML(tree_svg_text(alphabeta(tree_002()), title='grading picture', marks={\n"
    "    (1,): 'diverge', (0, 1, 1): 'extra', (0, 1): 'missing', (2, 2): 'wrong',\n"
    "    (0, 0, 0): 'right'}))",
    "draw_tree(alphabeta(tutorial_tree()), step=6);",
]

# The smallest font of the visible text in each kit output, as rendered: HTML text by its
# computed size; PNG pictures by the size the drawing gives its smallest text (11 px at the
# picture's own size, tests/test_draw_marks.py) times the scale the page shows it at; SVG
# text by its font size times the SVG's scale.
MEASURE = """() => {
    const visible = (el) => el.offsetParent !== null || el.tagName === 'text';
    const out = {};
    const roots = {step: '.mmk-step', compare: '.mmk-compare', quiz: '.mmk-quiz'};
    for (const [name, sel] of Object.entries(roots)) {
        const root = document.querySelector(sel);
        if (!root) { out[name] = null; continue; }
        let html = Infinity;
        for (const el of root.querySelectorAll('*')) {
            const own = Array.from(el.childNodes).some(
                (n) => n.nodeType === 3 && n.textContent.trim());
            if (own && visible(el)) {
                html = Math.min(html, parseFloat(getComputedStyle(el).fontSize));
            }
        }
        const scales = Array.from(root.querySelectorAll('img, canvas')).filter(visible).map(
            (p) => p.getBoundingClientRect().width / (p.naturalWidth || p.width));
        out[name] = {html, scale: Math.min(...scales), pictures: scales.length};
    }
    const svg = document.querySelector('.jp-OutputArea-output svg[role="img"]');
    const s = svg.getBoundingClientRect().width / svg.viewBox.baseVal.width;
    out.svg = {scale: s, font: Math.min(...Array.from(svg.querySelectorAll('text')).map(
        (t) => parseFloat(t.getAttribute('font-size')) * s))};
    const imgs = Array.from(document.querySelectorAll('.jp-OutputArea-output img')).filter(
        (i) => !i.closest('.jupyter-widgets') && visible(i));
    out.figure = {scale: Math.min(...imgs.map(
        (i) => i.getBoundingClientRect().width / i.naturalWidth)), n: imgs.length};
    return out;
}"""

# Every mark of the grading SVG against every text and edge, in screen pixels.
MARK_OVERLAPS = """() => {
    const svg = document.querySelector('.jp-OutputArea-output svg[role="img"]');
    const box = (el) => el.getBoundingClientRect();
    const hit = (a, b) => a.left < b.right - 0.5 && b.left < a.right - 0.5
        && a.top < b.bottom - 0.5 && b.top < a.bottom - 0.5;
    const marks = Array.from(svg.querySelectorAll('.mark')).map(box);
    const texts = Array.from(svg.querySelectorAll('.labels text'));
    const found = [];
    marks.forEach((m, i) => {
        texts.forEach((t) => { if (hit(m, box(t))) found.push(`mark ${i} / ${t.textContent}`); });
        for (const line of svg.querySelectorAll('line.edge')) {
            const ctm = line.getScreenCTM();
            const [x1, y1, x2, y2] = ['x1', 'y1', 'x2', 'y2'].map(
                (k) => line[k].baseVal.value);
            for (let k = 0; k <= 200; k++) {
                const p = new DOMPoint(x1 + (x2 - x1) * k / 200, y1 + (y2 - y1) * k / 200)
                    .matrixTransform(ctm);
                if (p.x > m.left + 0.5 && p.x < m.right - 0.5 && p.y > m.top + 0.5
                    && p.y < m.bottom - 0.5) { found.push(`mark ${i} / edge`); break; }
            }
        }
    });
    return {marks: marks.length, found};
}"""

ENDS = """() => {
    const c = document.querySelector('.mmk-step .mmk-controls');
    const d = (cls) => c.querySelector(cls).getAttribute('aria-disabled');
    return {first: d('.mmk-first'), back: d('.mmk-back'), next: d('.mmk-next'),
            last: d('.mmk-last'), live: c.querySelector('[aria-live]').textContent,
            slider: c.querySelector('input.mmk-slider').value};
}"""


def test_widgets_and_pictures_are_legible_and_marks_hide_nothing(
        page: Any, jupyter: LabServer) -> None:
    relpath = jupyter.add_notebook("views/legible.ipynb", CELLS)
    open_notebook(page, jupyter, relpath)
    assert run_all_cells(page)
    page.wait_for_function("() => document.querySelectorAll('.mmk-ready').length >= 2",
                           timeout=60_000)
    sizes = page.evaluate(MEASURE)
    for name in ("step", "compare", "quiz"):
        got = sizes[name]
        assert got is not None and got["pictures"] >= 1, (name, got)
        assert got["html"] >= MIN_PX, (name, got)
        # pictures are shown at their own size (or larger): their 11 px text stays 11 px
        assert got["scale"] >= 0.999, (name, got)
    assert sizes["svg"]["font"] >= MIN_PX - 0.01, sizes["svg"]
    assert sizes["figure"]["n"] >= 1 and sizes["figure"]["scale"] >= 0.999, sizes["figure"]
    svg = page.locator(".jp-OutputArea-output svg[role='img']")
    svg.scroll_into_view_if_needed()
    page.wait_for_timeout(300)
    overlaps = page.evaluate(MARK_OVERLAPS)
    assert overlaps["marks"] == 5 and overlaps["found"] == [], overlaps
    ARTIFACTS.mkdir(exist_ok=True)
    (ARTIFACTS / f"smallest-fonts-{jupyter.app}.json").write_text(
        json.dumps(sizes, indent=1))
    screenshot(page, f"legible-{jupyter.app}")
    svg.screenshot(path=str(ARTIFACTS / f"grading-svg-{jupyter.app}.png"))

    # the step controls say where they are: first/back off at 0, next/last off at the end
    step = page.locator(".mmk-step")
    step.scroll_into_view_if_needed()
    at0 = page.evaluate(ENDS)
    assert (at0["first"], at0["back"], at0["next"], at0["last"]) == (
        "true", "true", "false", "false"), at0
    step.locator(".mmk-back").click(force=True)  # (Playwright holds back: aria-disabled)
    assert page.evaluate(ENDS)["slider"] == "0"
    step.locator(".mmk-last").click()
    page.wait_for_function(f"() => ({ENDS})().slider === '42'")
    end = page.evaluate(ENDS)
    assert (end["first"], end["back"], end["next"], end["last"]) == (
        "false", "false", "true", "true"), end
    assert end["live"].startswith("Step 42 of 42, the last."), end["live"]
    step.locator(".mmk-next").click(force=True)  # does nothing either
    assert page.evaluate(ENDS)["slider"] == "42"
    step.screenshot(path=str(ARTIFACTS / f"step-at-end-{jupyter.app}.png"))
    step.locator(".mmk-first").click()
    page.wait_for_function(f"() => ({ENDS})().first === 'true'")
    assert error_outputs(page) == []


FOCUS = """() => {
    const a = document.activeElement;
    return {cls: a.className || '', text: (a.textContent || '').trim(),
            pressed: a.getAttribute('aria-pressed'), label: a.getAttribute('aria-label'),
            inQuiz: !!a.closest('.mmk-quiz')};
}"""


def test_quiz_retry_flow_by_keyboard_only(page: Any, jupyter: LabServer) -> None:
    relpath = jupyter.add_notebook("views/quiz_keyboard.ipynb", [
        "from minimaxkit.examples import tree_002\n"
        "from minimaxkit.widgets import QuizWidget",
        "QuizWidget(tree=tree_002())"])
    open_notebook(page, jupyter, relpath)
    assert run_all_cells(page)
    quiz = page.locator(".mmk-quiz")
    quiz.locator("button.mmk-leaf").first.wait_for(state="visible", timeout=30_000)
    # toggles: real buttons, named, aria-pressed, no "null" (or any) title in the quiz
    assert quiz.locator("button.mmk-leaf").count() == 27
    assert quiz.locator("[title='null']").count() == 0
    assert quiz.locator("button.mmk-leaf[title]").count() == 0
    assert quiz.locator("button.mmk-leaf").first.get_attribute("aria-label") == "leaf N, value 8"
    # from the notebook's cells, keyboard only: Tab to the first toggle
    page.locator(".jp-Notebook .jp-Cell").first.click()
    page.keyboard.press("Escape")
    for _ in range(80):
        page.keyboard.press("Tab")
        if "mmk-leaf" in page.evaluate(FOCUS)["cls"]:
            break
    focus = page.evaluate(FOCUS)
    assert "mmk-leaf" in focus["cls"] and focus["pressed"] == "false", focus
    # select R (a right answer) and N (wrong: it is evaluated) with Space
    for _ in range(4):  # N, O, P, Q, then R
        page.keyboard.press("Tab")
    assert page.evaluate(FOCUS)["label"] == "leaf R, value 1"
    page.keyboard.press("Space")
    page.wait_for_function(f"() => ({FOCUS})().pressed === 'true'")
    for _ in range(4):
        page.keyboard.press("Shift+Tab")
    page.keyboard.press("Space")
    assert page.evaluate(FOCUS) | {"cls": ""} == {
        "cls": "", "text": "N 8", "pressed": "true", "label": "leaf N, value 8",
        "inQuiz": True}
    page.keyboard.press("Space")  # and off again, and on
    page.wait_for_function(f"() => ({FOCUS})().pressed === 'false'")
    page.keyboard.press("Space")
    screenshot(page, f"quiz-keyboard-selected-{jupyter.app}")
    # Tab on to Check, press Enter: how many are wrong, one hint, no solution
    for _ in range(40):
        page.keyboard.press("Tab")
        if "mmk-check" in page.evaluate(FOCUS)["cls"]:
            break
    assert "mmk-check" in page.evaluate(FOCUS)["cls"]
    page.keyboard.press("Enter")
    quiz.locator(".mmk-verdict").wait_for(state="visible", timeout=20_000)
    text = quiz.locator(".mmk-verdict").inner_text()
    assert text.startswith("Not quite: ") and re.search(r"leaves (is|are) wrong", text), text
    assert text.count("Hint:") == 1 and quiz.locator(".mmk-verdict li").count() == 0, text
    screenshot(page, f"quiz-keyboard-hint-{jupyter.app}")
    assert axe_violations(page, ".mmk-quiz") == []
    # Tab to "Show the solution", Enter: every verdict, drawn on the search
    page.keyboard.press("Tab")
    assert "mmk-solution" in page.evaluate(FOCUS)["cls"]
    page.keyboard.press("Enter")
    page.wait_for_function(
        "() => document.querySelectorAll('.mmk-quiz .mmk-verdict li').length > 0",
        timeout=20_000)
    title = quiz.locator("img").first.get_attribute("title") or ""
    assert "never evaluated, not selected" in title and "selected, but evaluated: N" in title
    screenshot(page, f"quiz-keyboard-solution-{jupyter.app}")
    assert axe_violations(page, ".mmk-quiz") == []
    assert error_outputs(page) == []


def test_saved_without_widget_state_says_run_this_cell(page: Any, jupyter: LabServer,
                                                        tmp_path: Path) -> None:
    """Executed and saved where no widget state is kept (here nbconvert with
    store_widget_state off), the notebook opens with "Run this cell to see the widget"
    where the widget was, never "model not found"; running the cell shows the widget."""
    source = write_notebook(tmp_path / "no_state.ipynb", [
        "from minimaxkit import alphabeta\n"
        "from minimaxkit.examples import tree_002\n"
        "from minimaxkit.widgets import StepWidget",
        "StepWidget(alphabeta(tree_002()))"])
    subprocess.run([sys.executable, "-m", "jupyter", "nbconvert", "--to", "notebook",
                    "--execute", "--inplace", "--ExecutePreprocessor.store_widget_state=False",
                    str(source)], check=True, capture_output=True, env=jupyter.env)
    saved = json.loads(source.read_text())
    assert "widgets" not in saved["metadata"]
    (relpath,) = jupyter.copy_in(source, dest="views")
    open_notebook(page, jupyter, relpath)
    hint = page.locator(".mmk-rerun")
    hint.wait_for(state="visible", timeout=30_000)
    page.wait_for_timeout(3_000)  # the widget manager gives up on the model within 2 s
    assert hint.inner_text().startswith("▶ Run this cell to see the widget.")
    shown = page.evaluate("""() => Array.from(document.querySelectorAll(
        '.jp-OutputArea-output')).filter((n) => n.offsetParent !== null)
        .map((n) => n.innerText)""")
    assert not any("model not found" in t or "Error displaying" in t for t in shown), shown
    screenshot(page, f"saved-without-state-{jupyter.app}")
    assert run_all_cells(page)
    page.locator(".mmk-step canvas.mmk-frame-canvas").first.wait_for(state="visible",
                                                                   timeout=30_000)
    assert not hint.is_visible()


def test_a_lecture_opened_and_closed_leaves_git_status_clean(
        page: Any, jupyter: LabServer) -> None:
    # a student's clone of the course: the lecture and the course's .gitignore
    folder, _ = jupyter.copy_in("notebooks/01_game_trees.ipynb", ".gitignore", dest="clone")
    repo = jupyter.root_dir / "clone"

    def git(*args: str) -> str:
        return subprocess.run(["git", "-c", "user.name=t", "-c", "user.email=t@example.org",
                               *args], cwd=repo, check=True, capture_output=True,
                              text=True).stdout

    git("init", "-q")
    git("add", ".")
    git("commit", "-qm", "lecture")
    open_notebook(page, jupyter, folder)
    page.wait_for_timeout(2_000)
    # as the autosave would (the front end marks the notebook modified on open: it writes
    # the kernel's language_info into it), then close it
    page.evaluate("async () => { await window.jupyterapp.commands.execute('docmanager:save'); }")
    screenshot(page, f"lecture-opened-{jupyter.app}")
    page.evaluate("""async () => { const c = window.jupyterapp.commands;
        if (c.hasCommand('application:close')) { await c.execute('application:close'); } }""")
    page.goto("about:blank")
    jupyter.shutdown_kernels()
    assert git("status", "--porcelain") == ""


COMPARE_BOX = """() => {
    const cw = document.querySelector('.mmk-compare');
    const panel = window.jupyterapp.shell.currentWidget.content.node;
    const r = cw.getBoundingClientRect(), p = panel.getBoundingClientRect();
    const out = cw.closest('.jp-OutputArea-output').getBoundingClientRect();
    const over = Array.from(cw.querySelectorAll('*')).some(
        (el) => el.getBoundingClientRect().right > out.right + 1);
    const controls = cw.querySelector('.mmk-controls').getBoundingClientRect();
    return {width: r.width, height: r.height, outputWidth: out.width,
            toControls: controls.bottom - r.top,
            panelHeight: p.height, overflowsRight: over,
            browser: !!document.querySelector('.jp-FileBrowser:not(.lm-mod-hidden)')};
}"""


def test_compare_widget_at_1280_by_800_with_the_file_browser(
        page: Any, lab_server: LabServer) -> None:
    """JupyterLab at 1,280 × 800 with the file browser open: the compare widget is no
    wider than the output area, nothing spills over its right edge, and the whole widget
    (both pictures, the controls and both explanations) fits in the notebook's visible
    height (measured: 664 px of 679; tests/artifacts/compare-size.json)."""
    page.set_viewport_size({"width": 1280, "height": 800})
    relpath = lab_server.add_notebook("views/compare.ipynb", [CELLS[0], CELLS[2]])
    open_notebook(page, lab_server, relpath)
    assert run_all_cells(page)
    page.evaluate("async () => { await window.jupyterapp.commands.execute("
                  "'filebrowser:activate'); }")
    compare = page.locator(".mmk-compare")
    compare.locator("canvas.mmk-frame-canvas").nth(1).wait_for(state="visible", timeout=30_000)
    page.wait_for_timeout(500)
    box = page.evaluate(COMPARE_BOX)
    ARTIFACTS.mkdir(exist_ok=True)
    (ARTIFACTS / "compare-size.json").write_text(json.dumps(box, indent=1))
    compare.scroll_into_view_if_needed()
    screenshot(page, "compare-1280x800")
    assert box["browser"], box
    assert box["width"] <= box["outputWidth"] + 1 and not box["overflowsRight"], box
    assert box["toControls"] <= box["height"] <= box["panelHeight"], box


def test_a_saved_lecture_reopens_after_a_kernel_restart_and_steps_without_one(
        page: Any, jupyter: LabServer) -> None:
    """The student setup's saved widget state at work on a lecture: lecture 1 run, saved
    (Save Widget State Automatically is on), its kernel restarted and then shut down, the
    page opened again: the step widget shows and steps with no kernel, in JupyterLab and
    in Notebook 7."""
    from .test_step_widget import SHUT_DOWN, reopen_saved

    lab_server = jupyter
    (folder,) = lab_server.copy_in("notebooks/01_game_trees.ipynb", dest="reopen")
    open_notebook(page, lab_server, folder)
    assert run_all_cells(page, timeout=150)
    page.wait_for_function("() => !!document.querySelector('.mmk-step.mmk-ready')",
                           timeout=60_000)
    page.evaluate("async () => { await window.jupyterapp.commands.execute("
                  "'docmanager:save'); }")
    saved = json.loads((lab_server.root_dir / folder).read_text(encoding="utf-8"))
    assert saved["metadata"]["widgets"]["application/vnd.jupyter.widget-state+json"]["state"]
    page.evaluate("async () => { await window.jupyterapp.shell.currentWidget.sessionContext"
                  ".session.kernel.restart(); }")
    page.evaluate(SHUT_DOWN)
    reopen_saved(page, lab_server, folder)
    page.evaluate(SHUT_DOWN)
    page.wait_for_function(
        "() => !window.jupyterapp.shell.currentWidget.sessionContext.session")
    step = page.locator(".mmk-step")
    step.scroll_into_view_if_needed()
    before = step.locator("canvas.mmk-frame-canvas").evaluate_all(
        "(pics) => pics.filter((i) => i.offsetParent !== null).map((i) => i.toDataURL())")
    step.locator(".mmk-next").click()
    page.wait_for_function(
        "() => document.querySelector('.mmk-step input.mmk-slider').value === '1'")
    page.wait_for_function(
        "() => document.querySelector('.mmk-step canvas.mmk-frame-canvas').dataset.step"
        " === '1'")
    after = step.locator("canvas.mmk-frame-canvas").evaluate_all(
        "(pics) => pics.filter((i) => i.offsetParent !== null).map((i) => i.toDataURL())")
    assert before and after and before != after
    assert "Step 1 of" in step.locator("[aria-live]").inner_text()
    screenshot(page, f"lecture-1-reopened-no-kernel-{jupyter.app}")
    assert "model not found" not in page.locator(".jp-Notebook").inner_text()
