"""How fast the step widget steps, in a real browser, and how fast its frames render.

Run: ``.venv/bin/python benchmarks/bench_step_widget.py`` (``--headless-only`` skips the
browser; ``--clicks N`` sets the number of clicks, 30 by default).

1. Headless: the cost of one full matplotlib redraw of 002's tree (``savefig``) against the
   widget's frame renderer (draw once, recolour in place, labels blended from a layer), and
   the time to build a widget (first frame only) and to fill all its frames. At scale
   (issue 11): the widget on the full tic-tac-toe minimax trace (844,724 events) and on a
   1,093-node tree searched with perfect ordering, and the quiz's Check at 29,524 nodes.
2. Browser: JupyterLab (started here through the test harness) and headless Chromium.
   A notebook imports the kit in one cell and shows ``StepWidget(alphabeta(tree_002()))``
   in the next. Measured in the page with ``performance.now()``: from running the widget
   cell to its first picture drawn; then, once all frames are in, from a click on
   "next" (and "back") to the new picture drawn (the canvas the frames are drawn on says
   which step it shows), and from an arrow key on the controls (no kernel involved) to the
   new picture. A cold cell (a fresh kernel that imports the
   kit and shows the widget in one cell) is timed too. Then the two searches at scale,
   each in its own notebook (search in one cell, widget in the next): the widget cell to
   its first picture, and clicks to the new picture and text (live mode: the kernel draws).
"""

from __future__ import annotations

import argparse
import gc
import io
import os
import platform
import statistics
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO))

from minimaxkit import alphabeta  # noqa: E402
from minimaxkit.examples import tree_002  # noqa: E402

# ----- headless ----------------------------------------------------------------------------


def headless() -> dict[str, float]:
    import asyncio

    import matplotlib

    matplotlib.use("Agg")
    from minimaxkit.draw import FrameRenderer, tree_figure
    from minimaxkit.draw.render import png_bytes
    from minimaxkit.widgets import StepWidget
    from minimaxkit.widgets._panel import FRAMES

    result = alphabeta(tree_002())
    n = len(result.trace) + 1
    out: dict[str, float] = {}

    times = []
    for step in range(0, n, 3):
        fig, _ = tree_figure(result, step=step, dpi=80, title="alphabeta", graph=False)
        start = time.perf_counter()
        fig.savefig(io.BytesIO(), format="png", dpi=80)
        times.append(time.perf_counter() - start)
    out["full redraw + PNG (savefig), median ms"] = 1000 * statistics.median(times)

    start = time.perf_counter()
    renderer = FrameRenderer(result, dpi=80, title="alphabeta")
    out["frame renderer set-up, ms"] = 1000 * (time.perf_counter() - start)
    from minimaxkit.widgets.frames import DeltaEncoder

    draw, encode, changes = [], [], []
    whole_bytes, encoder = 0, DeltaEncoder()
    for step in range(n):
        t0 = time.perf_counter()
        rgb = renderer.rgb(step)
        t1 = time.perf_counter()
        whole_bytes += len(png_bytes(rgb, palette=True))
        t2 = time.perf_counter()
        encoder.add(rgb)
        t3 = time.perf_counter()
        draw.append(t1 - t0)
        encode.append(t2 - t1)
        changes.append(t3 - t2)
    out["frame: recolour + draw + blend, median ms"] = 1000 * statistics.median(draw)
    out["frame: whole PNG (64 colours), median ms"] = 1000 * statistics.median(encode)
    out["frame: its changes as PNG (what the widget keeps), median ms"] = 1000 * (
        statistics.median(changes))
    out[f"all {n} frames, whole PNGs, KB"] = whole_bytes / 1000
    out[f"all {n} frames, as changes ({encoder.keys.count(True)} key frames), KB"] = sum(
        map(len, encoder.frames)) / 1000

    from minimaxkit import GameTree

    for depth in (6, 7):  # 729 and 2,187 leaves: labels dropped, still quick
        big = GameTree.random(depth=depth, branching=3, seed=1)
        big_result = alphabeta(big)
        start = time.perf_counter()
        fig, _ = tree_figure(big_result, dpi=100, graph=False)
        fig.savefig(io.BytesIO(), format="png")
        out[f"draw_tree + PNG of a {3 ** depth}-leaf search, ms"] = 1000 * (
            time.perf_counter() - start)

    async def build() -> tuple[float, float]:
        FRAMES._items.clear()
        t0 = time.perf_counter()
        widget = StepWidget(result)
        t1 = time.perf_counter()
        while not widget.ready:
            await asyncio.sleep(0)
        return t1 - t0, time.perf_counter() - t1

    first, rest = asyncio.run(build())
    out["widget built, first frame shown, ms"] = 1000 * first
    out[f"remaining {n - 1} frames filled in the background, ms"] = 1000 * rest
    start = time.perf_counter()
    StepWidget(result)
    out["widget for the same search again (frame cache), ms"] = 1000 * (
        time.perf_counter() - start)
    return out


def headless_scale() -> dict[str, float]:
    """The views on the searches of issue 11's bars: the full tic-tac-toe minimax trace,
    a 1,093-node tree searched with perfect ordering, and the quiz at 30,000 nodes."""
    import random

    import matplotlib

    matplotlib.use("Agg")
    from minimaxkit import GameTree, minimax
    from minimaxkit.games import TicTacToe
    from minimaxkit.replay import Replay
    from minimaxkit.widgets import QuizWidget, StepWidget

    out: dict[str, float] = {}
    StepWidget(alphabeta(tree_002()))  # imports and first-use costs out of the way
    result = minimax(TicTacToe())
    gc.collect()  # the search's first collection, paid by its own cell in a notebook
    n = len(result.trace)
    start = time.perf_counter()
    sw = StepWidget(result)
    out[f"tic-tac-toe minimax ({n:,} events): StepWidget(...) returns, ms"] = 1000 * (
        time.perf_counter() - start)
    steps = []
    for _ in range(60):
        t0 = time.perf_counter()
        sw.value += 1
        steps.append(time.perf_counter() - t0)
    out["  next step in the kernel (board + text), median ms"] = 1000 * statistics.median(
        steps)
    out["  the same, slowest of 60, ms"] = 1000 * max(steps)
    t0 = time.perf_counter()
    sw.value = n
    out["  jump to the last step (indexes the whole trace once), ms"] = 1000 * (
        time.perf_counter() - t0)
    rp, rng = Replay(result), random.Random(1)
    rp.frame(n)
    times = []
    for k in rng.sample(range(n + 1), 200):
        t0 = time.perf_counter()
        rp.frame(k)
        times.append(time.perf_counter() - t0)
    out["  Replay.frame at a random step (indexed), median ms"] = 1000 * statistics.median(
        times)

    tree = GameTree.random(depth=6, branching=3, seed=1)
    perfect = alphabeta(tree, order="perfect")
    gc.collect()
    start = time.perf_counter()
    sw = StepWidget(perfect)
    out[f"1,093-node tree, perfect order ({len(perfect.trace)} events): StepWidget, ms"] = (
        1000 * (time.perf_counter() - start))
    out["  (1 = pre-rendered, 0 = live)"] = float(sw.panel.prerender)
    steps = []
    for _ in range(10):
        t0 = time.perf_counter()
        sw.value += 1
        steps.append(time.perf_counter() - t0)
    out["  next step, live render of the tree, median ms"] = 1000 * statistics.median(steps)

    big = GameTree.random(depth=9, branching=3, seed=2)  # 29,524 nodes
    gc.collect()
    start = time.perf_counter()
    quiz = QuizWidget(tree=big)
    out[f"quiz on {len(big.nodes()):,} nodes: QuizWidget(...), ms"] = 1000 * (
        time.perf_counter() - start)
    never = sorted(quiz.answer_never)
    quiz.mark(*never[::2])
    gc.collect()
    start = time.perf_counter()
    quiz.show_check()  # what pressing Check does, on a quiz never checked before
    out["  Check pressed: every leaf judged, the verdicts listed, ms"] = 1000 * (
        time.perf_counter() - start)
    start = time.perf_counter()
    quiz.check_answers()
    out["  judging again (each cut-off's words already said), ms"] = 1000 * (
        time.perf_counter() - start)
    return out


# ----- browser -------------------------------------------------------------------------------

STATE = """() => {
    const root = document.querySelector('.mmk-step');
    if (!root) { return null; }
    const pic = root.querySelector('canvas.mmk-frame-canvas');
    const text = root.querySelector('.mmk-explain');
    return {src: pic ? pic.dataset.step : null, text: text ? text.innerText : null,
            loaded: !!pic && pic.width > 0 && pic.dataset.step !== undefined,
            ready: root.classList.contains('mmk-ready')};
}"""

# Click (or key press) inside the page, then wait until the tree picture (a canvas the
# frames are drawn on, frames.js) shows the new step; return the milliseconds.
STEP = """async (how) => {
    const root = document.querySelector('.mmk-step');
    const pic = () => root.querySelector('canvas.mmk-frame-canvas');
    const before = pic().dataset.step;
    const t0 = performance.now();
    if (how === 'key') {
        root.querySelector('.mmk-controls').dispatchEvent(
            new KeyboardEvent('keydown', {key: 'ArrowRight', bubbles: true}));
    } else {
        root.querySelector('.mmk-' + how).click();
    }
    while (pic().dataset.step === before) {
        await new Promise((r) => setTimeout(r, 1));
    }
    const decoded = performance.now() - t0;
    await new Promise((r) => requestAnimationFrame(() => r()));
    return [decoded, performance.now() - t0];
}"""

RUN_CELL = """async (index) => {
    const panel = window.jupyterapp.shell.currentWidget;
    panel.content.activeCellIndex = index;
    const t0 = performance.now();
    window.jupyterapp.commands.execute('notebook:run-cell');
    while (true) {
        const pic = document.querySelector('.mmk-step canvas.mmk-frame-canvas');
        if (pic && pic.width > 0 && pic.dataset.step !== undefined) { break; }
        await new Promise((r) => setTimeout(r, 2));
    }
    return performance.now() - t0;
}"""

# Run the first cell and wait until its prompt shows an execution count.
RUN_FIRST = """async () => {
    const panel = window.jupyterapp.shell.currentWidget;
    panel.content.activeCellIndex = 0;
    await window.jupyterapp.commands.execute('notebook:run-cell');
    const cell = panel.content.widgets[0];
    while (!cell.model.executionCount) { await new Promise((r) => setTimeout(r, 10)); }
}"""

IMPORTS = ("from minimaxkit import alphabeta\nfrom minimaxkit.examples import tree_002\n"
           "from minimaxkit.widgets import StepWidget")
WIDGET = "StepWidget(alphabeta(tree_002()))"


# The searches of issue 11's bars, each in its own notebook: the imports, the search (its
# own cell, not timed), then the widget's cell, timed from running it to its first picture.
SCALE_IMPORTS = ("from minimaxkit import GameTree, alphabeta, minimax\n"
                 "from minimaxkit.games import TicTacToe\n"
                 "from minimaxkit.widgets import StepWidget")
SCALE = {
    "tic-tac-toe minimax, 844,724 events (live: board + text)":
        ("r = minimax(TicTacToe())", "StepWidget(r)"),
    "1,093-node tree, alpha-beta with perfect order (live: tree)":
        ("r = alphabeta(GameTree.random(depth=6, branching=3, seed=1), order='perfect')",
         "StepWidget(r)"),
}

# The same measurements, scoped to the notebook shown (other notebooks stay in the page).
SCOPED_CELL = """async (index) => {
    const panel = window.jupyterapp.shell.currentWidget;
    panel.content.activeCellIndex = index;
    const t0 = performance.now();
    window.jupyterapp.commands.execute('notebook:run-cell');
    while (true) {
        const img = panel.node.querySelector('.mmk-step img.widget-image');
        if (img && img.complete && img.naturalWidth > 0) { break; }
        await new Promise((r) => setTimeout(r, 2));
    }
    return performance.now() - t0;
}"""

RUN_UPTO = """async (last) => {
    const panel = window.jupyterapp.shell.currentWidget;
    for (let i = 0; i <= last; i++) {
        panel.content.activeCellIndex = i;
        await window.jupyterapp.commands.execute('notebook:run-cell');
        const cell = panel.content.widgets[i];
        while (!cell.model.executionCount) { await new Promise((r) => setTimeout(r, 10)); }
    }
}"""

# A click, then wait for the new text: the kernel sends the pictures before the text, so
# once the text has changed the picture has its new value (a step whose board is the same
# as the last one keeps its picture); then the picture must be decoded. -1 after 30 s.
SCOPED_STEP = """async (how) => {
    const root = window.jupyterapp.shell.currentWidget.node.querySelector('.mmk-step');
    const text = () => root.querySelector('.mmk-explain').innerText;
    const beforeText = text();
    const t0 = performance.now();
    root.querySelector('.mmk-' + how).click();
    while (text() === beforeText) {
        if (performance.now() - t0 > 30000) { return -1; }
        await new Promise((r) => setTimeout(r, 1));
    }
    for (const im of root.querySelectorAll('img.widget-image')) {
        try { await im.decode(); } catch (e) { }
    }
    return performance.now() - t0;
}"""


def browser_scale(page: Any, server: Any, root: Path, clicks: int) -> dict[str, Any]:
    from tests.browser.harness import open_notebook, wait_kernel_idle, write_notebook

    out: dict[str, Any] = {}
    for k, (label, (search, widget)) in enumerate(SCALE.items()):
        name = f"scale{k}.ipynb"
        write_notebook(root / name, [SCALE_IMPORTS, search, widget])
        open_notebook(page, server.base_url, name)
        page.evaluate(RUN_UPTO, 1)
        wait_kernel_idle(page)
        out[f"{k}. {label}: widget cell to first picture, ms"] = page.evaluate(SCOPED_CELL, 2)
        for how, n in (("next", clicks), ("back", clicks // 2)):
            times = []
            for _ in range(n):
                times.append(page.evaluate(SCOPED_STEP, how))
                page.wait_for_timeout(120)
            out[f"  {k}. click on {how!r}: median / max ms to new picture and text ({n})"] = (
                statistics.median(times), max(times))
            out[f"  {k}.   the slowest was click number / the slowest of the others, ms"] = (
                times.index(max(times)) + 1, max(sorted(times)[:-1], default=0.0))
        start = time.perf_counter()
        wait_kernel_idle(page)  # the trace read ahead in the background
        out[f"  {k}. then the rest of the trace read ahead, s"] = time.perf_counter() - start
        out[f"  {k}. click on 'last' (a jump to the end), ms"] = page.evaluate(SCOPED_STEP,
                                                                             "last")
        page.wait_for_timeout(300)
        out[f"  {k}. click on 'first', ms"] = page.evaluate(SCOPED_STEP, "first")
    return out



def browser(clicks: int, scale_only: bool = False, scale: bool = True) -> dict[str, Any]:
    from playwright.sync_api import sync_playwright

    from tests.browser.harness import (
        CHROMIUM,
        CHROMIUM_ARGS,
        open_notebook,
        run_all_cells,
        start_lab,
        stop_lab,
        wait_kernel_idle,
        write_notebook,
    )

    out: dict[str, Any] = {}
    with tempfile.TemporaryDirectory() as tmp:
        root, home = Path(tmp) / "root", Path(tmp) / "home"
        root.mkdir()
        home.mkdir()
        write_notebook(root / "warm.ipynb", [IMPORTS, WIDGET])
        write_notebook(root / "cold.ipynb", [IMPORTS + "\n" + WIDGET])
        proc, server = start_lab(root, home)
        try:
            with sync_playwright() as pw:
                browser_ = pw.chromium.launch(executable_path=str(CHROMIUM), headless=True,
                                              args=list(CHROMIUM_ARGS))
                page = browser_.new_page(viewport={"width": 1400, "height": 1000})
                page.set_default_timeout(60_000)
                if scale_only:
                    out.update(browser_scale(page, server, root, clicks))
                    browser_.close()
                    return out

                open_notebook(page, server.base_url, "cold.ipynb")
                out["cold cell (imports + widget, fresh kernel) to first picture, ms"] = (
                    page.evaluate(RUN_CELL, 0))
                wait_kernel_idle(page)

                open_notebook(page, server.base_url, "warm.ipynb")
                page.evaluate(RUN_FIRST)
                wait_kernel_idle(page)
                appear = page.evaluate(RUN_CELL, 1)
                out["widget cell to first picture, ms"] = appear
                start = time.perf_counter()
                page.wait_for_function(f"() => ({STATE})().ready", timeout=60_000)
                out["then all frames in the browser after, s"] = time.perf_counter() - start
                wait_kernel_idle(page)

                for how, n in (("next", clicks), ("back", clicks // 2), ("key", clicks // 2)):
                    decoded, painted = [], []
                    for _ in range(n):
                        d, p = page.evaluate(STEP, how)
                        decoded.append(d)
                        painted.append(p)
                        page.wait_for_timeout(120)  # a brisk reader: 8 steps a second
                    label = {"next": 'click on "next"', "back": 'click on "back"',
                             "key": "slider arrow key (no kernel)"}[how]
                    out[f"{label}: median / max ms to decoded picture ({n} steps)"] = (
                        statistics.median(decoded), max(decoded))
                    out[f"{label}: median ms to next paint"] = statistics.median(painted)
                run_all_cells(page)
                if scale:
                    out.update(browser_scale(page, server, root, clicks))
                browser_.close()
        finally:
            stop_lab(proc)
    return out


def machine() -> str:
    cpu = platform.processor() or platform.machine()
    try:
        for line in Path("/proc/cpuinfo").read_text().splitlines():
            if line.startswith("model name"):
                cpu = line.split(":", 1)[1].strip()
                break
    except OSError:
        pass
    load = os.getloadavg()[0] if hasattr(os, "getloadavg") else float("nan")
    return (f"{cpu}, {os.cpu_count()} cores, Python {platform.python_version()}, "
            f"{platform.system()} (load average {load:.1f} at the start)")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--headless-only", action="store_true")
    parser.add_argument("--clicks", type=int, default=30)
    parser.add_argument("--scale-only", action="store_true",
                        help="only the searches of issue 11's bars (not 002's tree)")
    parser.add_argument("--no-scale", action="store_true",
                        help="only 002's tree (not the searches of issue 11's bars)")
    args = parser.parse_args()
    print(f"machine: {machine()}")
    if not args.scale_only:
        print("\nheadless (002's tree, 40 nodes, 43 frames, 80 dpi):")
        for k, v in headless().items():
            print(f"  {k:<58} {v:8.1f}")
    if not args.no_scale:
        print("\nheadless, at scale:")
        for k, v in headless_scale().items():
            print(f"  {k:<70} {v:8.1f}")
    if not args.headless_only:
        print("\nbrowser (JupyterLab, headless Chromium):")
        for k, v in browser(args.clicks, args.scale_only, not args.no_scale).items():
            shown = " / ".join(f"{x:.1f}" for x in v) if isinstance(v, tuple) else f"{v:.1f}"
            print(f"  {k:<70} {shown}")
    if hasattr(os, "getloadavg"):
        print(f"\nload average at the end: {os.getloadavg()[0]:.1f}")


if __name__ == "__main__":
    main()
