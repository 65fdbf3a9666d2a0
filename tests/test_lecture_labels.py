"""Every picture of every widget the lectures build, at every step: each label (names,
values, static values, α-β windows, title, legend) inside the canvas, clear of the others
and of the marks (★ and the quiz's verdicts), each mark inside the canvas. Read from the
drawing model (tests/label_boxes.py), not from pixels.

The widgets are built from the lectures' own cells: each widget cell runs after the cells
that define the names it uses (found by reading the code), in a fresh namespace. Lecture 3
once cut E's α-β window at the left edge (steps 3-7) and lecture 4's ★ covered B's."""

from __future__ import annotations

import ast
import builtins
import json
import re
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import matplotlib

matplotlib.use("Agg")

import pytest  # noqa: E402
from label_boxes import problems  # noqa: E402

from minimaxkit.draw import render as render_module  # noqa: E402
from minimaxkit.draw.summary import summary_figure  # noqa: E402
from minimaxkit.draw.tree import tree_figure  # noqa: E402
from minimaxkit.widgets import trace_panel  # noqa: E402

NOTEBOOKS = Path(__file__).resolve().parents[1] / "notebooks"
WIDGET = re.compile(r"\b(StepWidget|CompareWidget|QuizWidget|PlayWidget|HandTraceWidget)\(")


def _code(cell: dict[str, Any]) -> str:
    """A code cell's source without IPython's magics and shell lines."""
    lines = "".join(cell["source"]).splitlines()
    return "\n".join(line for line in lines if not line.lstrip().startswith(("%", "!")))


def _names(source: str) -> tuple[set[str], set[str]]:
    """(names the code reads, names it binds)."""
    tree = ast.parse(source)
    read, bound = set(), set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Name):
            (read if isinstance(node.ctx, ast.Load) else bound).add(node.id)
        elif isinstance(node, ast.alias):
            bound.add((node.asname or node.name).split(".")[0])
        elif isinstance(node, ast.FunctionDef | ast.ClassDef):
            bound.add(node.name)
        elif isinstance(node, ast.arg):
            bound.add(node.arg)
    return read - set(dir(builtins)), bound


def widget_cells() -> Iterator[tuple[str, int, list[str]]]:
    """(lecture, cell index, the sources to run: the cells the widget cell needs, then
    it) for every cell of the lectures that builds a widget."""
    for path in sorted(NOTEBOOKS.glob("0*.ipynb")):
        cells = [c for c in json.loads(path.read_text())["cells"]]
        code = [(i, _code(c)) for i, c in enumerate(cells) if c["cell_type"] == "code"]
        for k, (index, source) in enumerate(code):
            if not WIDGET.search(source):
                continue
            needed, _ = _names(source)
            chosen: list[str] = []
            for _, earlier in reversed(code[:k]):
                try:
                    read, bound = _names(earlier)
                except SyntaxError:
                    continue
                if bound & needed:
                    chosen.insert(0, earlier)
                    needed = (needed - bound) | read
            yield path.stem, index, [*chosen, source]


CELLS = list(widget_cells())


def test_the_lectures_build_the_widgets_this_test_checks() -> None:
    """The lectures' step, compare, quiz, play and hand-trace widgets are all found."""
    kinds = {WIDGET.search(sources[-1])[1] for _, _, sources in CELLS}  # type: ignore[index]
    assert kinds == {"StepWidget", "CompareWidget", "QuizWidget", "PlayWidget",
                     "HandTraceWidget"}
    assert len(CELLS) >= 10


def _built(sources: list[str], monkeypatch: pytest.MonkeyPatch) -> dict[str, list[Any]]:
    """Run ``sources`` in a fresh namespace; the trace panels, quizzes and play widgets
    they made, and the (args, keywords) of every tree_png call."""
    made: dict[str, list[Any]] = {"panels": [], "pngs": [], "widgets": []}
    init = trace_panel.TracePanel.__init__

    def record(self: Any, *args: Any, **kw: Any) -> None:
        init(self, *args, **kw)
        made["panels"].append(self)

    png = render_module.tree_png

    def record_png(*args: Any, **kw: Any) -> bytes:
        made["pngs"].append((args, kw))
        return png(*args, **kw)

    monkeypatch.setattr(trace_panel.TracePanel, "__init__", record)
    monkeypatch.setattr(render_module, "tree_png", record_png)
    namespace: dict[str, Any] = {"__name__": "__lecture__"}
    for source in sources[:-1]:
        exec(compile(source, "<lecture>", "exec"), namespace)
    # the widget cell: its statements, then its last line, the widget it shows
    *statements, shown = ast.parse(sources[-1]).body
    exec(compile(ast.Module(statements, type_ignores=[]), "<lecture>", "exec"), namespace)
    assert isinstance(shown, ast.Expr), "a widget cell ends with the widget it shows"
    made["widgets"].append(eval(compile(ast.Expression(shown.value), "<lecture>", "eval"),
                                namespace))
    return made


def _check_figure(fig: Any, art: dict[str, Any], where: str) -> list[str]:
    """A picture saved as PNG with its box fitted to what it draws (nothing is cut)."""
    fig.canvas.draw()
    renderer = fig.canvas.get_renderer()
    others = [a for a in (art.get("legend"), art.get("title")) if a is not None]
    found = problems(art["view"], renderer, others, None)
    return [f"{where}: {p}" for p in found]


def _check_panel(panel: Any, where: str) -> list[str]:
    if not panel.draw:
        return []
    r = panel._renderer()
    renderer = r.canvas.get_renderer()
    found: dict[str, list[int]] = {}
    for step in range(panel.frames):
        r.rgb(step)
        for p in problems(r.view, renderer, r._others, r.size):
            found.setdefault(p, []).append(step)
    return [f"{where}: {p} (steps {steps[:6]})" for p, steps in found.items()]


@pytest.mark.parametrize("lecture,index,sources", CELLS,
                         ids=[f"{lec}-cell{i}" for lec, i, _ in CELLS])
def test_every_label_fits_at_every_step(lecture: str, index: int, sources: list[str],
                                        monkeypatch: pytest.MonkeyPatch) -> None:
    made = _built(sources, monkeypatch)
    where = f"{lecture} cell {index}"
    found = [p for panel in made["panels"] for p in _check_panel(panel, where)]
    widget = made["widgets"][0]
    if type(widget).__name__ == "QuizWidget":  # the answer's picture, every verdict drawn
        widget.show_solution()
        found += [p for args, kw in made["pngs"]
                  for p in _check_figure(*tree_figure(*args, **kw), where)]
    if type(widget).__name__ == "HandTraceWidget":  # every node and edge marked wrong
        widget.fill({row.name: ("x", "x", "x") for row in widget.rows},
                    {c for row in widget.rows for c in row.children})
        widget.check()
        found += [p for args, kw in made["pngs"][-1:]
                  for p in _check_figure(*tree_figure(*args, **kw), where)]
    if type(widget).__name__ == "PlayWidget":  # "Show search" after a first move
        widget.click(widget.game.moves(widget.state)[0])
        if widget.result is not None:
            fig, art, _ = summary_figure(widget.result)
            found += _check_figure(fig, art, f"{where} (Show search)")
    assert found == []
