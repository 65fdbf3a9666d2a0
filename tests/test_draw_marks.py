"""Legible at default zoom, and marks that hide nothing: every text of a tree picture is
11 px or more at the resolution it is rendered at (matplotlib at the widgets' 80 dpi and the
notebook's 100 dpi, the grader's SVG at its own size), and no mark's box overlaps a value,
a name, a node or an edge (measured on the drawn artists, boxes in display pixels).
The browser tests measure the same in JupyterLab and Notebook 7."""

from __future__ import annotations

import itertools
import re
from typing import Any

import matplotlib

matplotlib.use("Agg")

import numpy as np  # noqa: E402
import pytest  # noqa: E402

from minimaxkit import GameTree, alphabeta  # noqa: E402
from minimaxkit.draw import MARKS, tree_figure, tree_svg_text  # noqa: E402
from minimaxkit.draw.style import MIN_FONT_PX  # noqa: E402
from minimaxkit.examples import tree_002, tutorial_tree  # noqa: E402

TREES = {
    "002": tree_002(),
    "quiz-seed-3": GameTree.random(depth=3, branching=(2, 3), values=(0, 9), seed=3),
    "tutorial": tutorial_tree(),
    "binary": GameTree.random(depth=4, branching=2, seed=2),
}
KINDS = sorted(MARKS)


def every_node_marked(tree: GameTree) -> dict[tuple[int, ...], str]:
    return {n.path: KINDS[i % len(KINDS)] for i, n in enumerate(tree.nodes())}


Box = tuple[float, float, float, float]  # x0, y0, x1, y1


def overlaps(a: Box, b: Box, slack: float = 0.5) -> bool:
    return (a[0] < b[2] - slack and b[0] < a[2] - slack and a[1] < b[3] - slack
            and b[1] < a[3] - slack)


def segment_hits(box: Box, p: np.ndarray, q: np.ndarray, slack: float = 0.5) -> bool:
    """Whether the segment p-q passes through ``box`` (shrunk by ``slack``): Liang-Barsky
    clipping of the segment to the box."""
    x0, y0, x1, y1 = box[0] + slack, box[1] + slack, box[2] - slack, box[3] - slack
    (px, py), (dx, dy) = p, q - p
    lo, hi = 0.0, 1.0
    for d, start, low, high in ((dx, px, x0, x1), (dy, py, y0, y1)):
        if abs(d) < 1e-12:
            if not low < start < high:
                return False
            continue
        t0, t1 = sorted(((low - start) / d, (high - start) / d))
        lo, hi = max(lo, t0), min(hi, t1)
        if lo >= hi:
            return False
    return True


def drawn(tree: GameTree, dpi: float, step: int | None = None) -> tuple[Any, dict[str, Any]]:
    marks = every_node_marked(tree)
    fig, art = tree_figure(alphabeta(tree), marks=marks, dpi=dpi, step=step, title="a title")
    fig.canvas.draw()
    return fig, art


@pytest.mark.parametrize("dpi", [80, 100])
@pytest.mark.parametrize("name", sorted(TREES))
def test_every_text_is_11px_or_more(name: str, dpi: float) -> None:
    tree = TREES[name]
    fig, art = drawn(tree, dpi, step=len(alphabeta(tree).trace) // 2)
    texts = [t for t in fig.findobj(matplotlib.text.Text) if t.get_visible() and t.get_text()]
    assert len(texts) > len(tree.leaves())  # values, names, legend, title, windows
    smallest = min(t.get_fontsize() * dpi / 72 for t in texts)
    assert smallest >= MIN_FONT_PX - 1e-6, (name, dpi, smallest)


@pytest.mark.parametrize("name", sorted(TREES))
def test_no_mark_covers_a_value_a_name_a_node_or_an_edge(name: str) -> None:
    tree = TREES[name]
    fig, art = drawn(tree, 80)
    r = fig.canvas.get_renderer()
    view, ax = art["view"], art["ax"]
    to_px = ax.transData.transform
    px = fig.dpi / 72
    labels = {("value", p): t for p, t in art["values"].items() if t.get_text()}
    labels |= {("name", p): t for p, t in art["names"].items()}
    text_boxes = {k: tuple(t.get_window_extent(r).extents) for k, t in labels.items()}
    node_boxes = {}
    for p in view.model.paths:
        x, y = to_px(view.model.pos[p])
        h = 0.5 * view.size[p] * px
        node_boxes[("node", p)] = (x - h, y - h, x + h, y + h)
    mark_boxes = []
    for kind, coll in art["marks"].items():
        sizes = coll.get_sizes()
        for (x, y), s in zip(to_px(coll.get_offsets()), sizes, strict=True):
            h = 0.5 * np.sqrt(s) * px
            mark_boxes.append((kind, (x - h, y - h, x + h, y + h)))
    marks = every_node_marked(tree)
    # every node has one: a badge beside it, or (an outlining kind) its own outline
    assert len(mark_boxes) == sum(not MARKS[k].outline for k in marks.values())
    for kind, ps in view.groups.items():
        colours = view.nodes[kind].get_edgecolor()
        for p, colour in zip(ps, colours, strict=True):
            outline = MARKS[marks[p]].outline
            assert (matplotlib.colors.to_hex(colour) == MARKS[marks[p]].face.lower()) \
                == outline, (name, p, marks[p])
    edges = [(to_px(view.model.pos[p[:-1]]), to_px(view.model.pos[p]))
             for p in view.model.paths if p]
    for (kind, m), (ka, a) in itertools.product(mark_boxes, (text_boxes | node_boxes).items()):
        assert not overlaps(m, a), (name, kind, ka)
    for kind, m in mark_boxes:
        for p, q in edges:
            assert not segment_hits(m, p, q), (name, kind, "edge")
    for (_, a), (_, b) in itertools.combinations(mark_boxes, 2):
        assert not overlaps(a, b), name


def _svg_texts(svg: str) -> list[tuple[float, float, float, str, str]]:
    """(x, y, font size, anchor, text) of every <text> (legend entries are translated)."""
    out = []
    for m in re.finditer(r'(?:<g transform="translate\(([\d.]+),([\d.]+)\)">\s*(?:<[^t][^>]*>'
                         r'\s*)*)?<text (?:font-style="italic" )?x="([\d.-]+)" y="([\d.-]+)" '
                         r'font-size="([\d.]+)"[^>]*text-anchor="(\w+)"[^>]*>([^<]*)</text>',
                         svg):
        dx, dy = float(m[1] or 0), float(m[2] or 0)
        out.append((float(m[3]) + dx, float(m[4]) + dy, float(m[5]), m[6], m[7]))
    return out


@pytest.mark.parametrize("name", sorted(TREES))
def test_the_grading_svg_is_legible_and_its_marks_hide_nothing(name: str) -> None:
    tree = TREES[name]
    svg = tree_svg_text(alphabeta(tree), marks=every_node_marked(tree), title="a title")
    texts = _svg_texts(svg)
    assert len(texts) > len(tree.leaves())
    assert min(t[2] for t in texts) >= MIN_FONT_PX, name
    boxes = []
    for x, y, size, anchor, s in texts:
        w = 0.62 * size * len(s)
        x0 = x - w / 2 if anchor == "middle" else x - w if anchor == "end" else x
        boxes.append((x0, y - size / 2, x0 + w, y + size / 2))
    marks = re.findall(r'<(?:polygon points="([^"]+)"|circle cx="([\d.-]+)" cy="([\d.-]+)" '
                       r'r="([\d.]+)")[^>]*class="mark ', svg)
    assert len(marks) == len(tree.nodes())
    lines = [tuple(map(float, m)) for m in re.findall(
        r'<line class="edge [a-z]+" x1="([\d.-]+)" y1="([\d.-]+)" x2="([\d.-]+)" '
        r'y2="([\d.-]+)"', svg)]
    for pts, cx, cy, rad in marks:
        if pts:
            xy = np.array([[float(v) for v in p.split(",")] for p in pts.split()])
            box = (*xy.min(axis=0), *xy.max(axis=0))
        else:
            box = (float(cx) - float(rad), float(cy) - float(rad), float(cx) + float(rad),
                   float(cy) + float(rad))
        for b in boxes:
            assert not overlaps(box, b), (name, box, b)
        for x1, y1, x2, y2 in lines:
            assert not segment_hits(box, np.array([x1, y1]), np.array([x2, y2])), name


def test_boards_are_legible_too() -> None:
    """The boards beside a game's step widget (72 dpi): title and text 11 px or more."""
    from matplotlib.figure import Figure

    from minimaxkit.draw import draw_board
    from minimaxkit.games import Nim, TicTacToe

    for game in (TicTacToe(), Nim()):
        fig = Figure(figsize=(2, 2), dpi=72)
        state = game.initial_state()
        draw_board(game, state, fig.add_subplot(), title="at e5")
        texts = [t for t in fig.findobj(matplotlib.text.Text) if t.get_text()]
        assert texts and min(t.get_fontsize() * fig.dpi / 72 for t in texts) >= MIN_FONT_PX


def test_bounds_fit_their_triangles() -> None:
    """≤0.3 and ≥0.7 (the tutorial tree) and ≥9, ≤3 (002's, also in the compare widget's
    low pictures) stay inside their triangles at every step: the text's width is at most
    the triangle's width at the text's edge nearer the apex (a triangle of size s is
    c - h/2 + s/2 wide there, c the text's offset toward the wide side, h its height), and
    the text does not cross the wide side."""
    from minimaxkit.draw import FrameRenderer
    from minimaxkit.widgets import CompareWidget

    t = tree_002()
    compare = CompareWidget(alphabeta(t), alphabeta(t, order="perfect"))  # its low pictures
    for shown, r in (({"≤0.3", "≥0.7"}, FrameRenderer(alphabeta(tutorial_tree()))),
                     ({"≥9", "≤3"}, FrameRenderer(alphabeta(t))),
                     ({"≥9", "≤3"}, compare.panels[0]._renderer()),
                     ({"≤4", "≥9"}, compare.panels[1]._renderer())):
        view = r.view
        renderer = r.fig.canvas.get_renderer()
        seen = set()
        for step in range(len(r)):
            view.show(r.replay.frame(step))
            for p, text in view.values.items():
                if p in view.model.leaves or not text.get_text():
                    continue
                seen.add(text.get_text())
                bb = text.get_window_extent(renderer)
                s = view.size[p] * r.fig.dpi / 72  # the triangle's size in pixels
                cy = view.ax.transData.transform(view.model.pos[p])[1]
                c = abs((bb.y0 + bb.y1) / 2 - cy)  # from the centre toward the wide side
                wide_below = view.model.is_max[p]  # ▲: wide side at the bottom
                assert ((bb.y0 + bb.y1) / 2 < cy) == wide_below or c < 1e-6
                room = c - bb.height / 2 + s / 2  # the width at the text's narrow edge
                assert bb.width <= room + 0.5, (text.get_text(), bb.width, room)
                assert c + bb.height / 2 <= s / 2 + 1.0, (text.get_text(), c, s)
        assert shown <= seen, seen


def test_no_window_covers_a_name_at_any_step() -> None:
    """The (α, β) windows beside the nodes on the call stack never cover a node's name or
    each other, at any step of 002's search (where, at step 21, H's window used to sit on G's
    name) and of the compare widget's pictures (model.window_side: a window whose side holds
    a neighbour's facing name goes beyond the node's own name)."""
    from minimaxkit.widgets import CompareWidget, StepWidget

    t = tree_002()
    compare = CompareWidget(alphabeta(t), alphabeta(t, order="perfect"))
    for r in (StepWidget(alphabeta(t)).panel._renderer(),
              StepWidget(alphabeta(t, prune_on_equal=False)).panel._renderer(),
              compare.panels[0]._renderer(), compare.panels[1]._renderer()):
        view = r.view
        renderer = r.fig.canvas.get_renderer()
        names = {}
        for p, n in view.names.items():  # drawn once into the background layer, then hidden
            shown_before = n.get_visible()
            n.set_visible(True)
            names[p] = tuple(n.get_window_extent(renderer).extents)
            n.set_visible(shown_before)
        moved = 0
        for step in range(len(r)):
            frame = r.replay.frame(step)
            view.show(frame)
            r.fig.canvas.draw()  # places the windows' boxes
            shown = [w for w in view.windows if w.get_visible()]
            boxes = [tuple(w.get_bbox_patch().get_window_extent(renderer).extents)
                     for w in shown]
            for box, lv in zip(boxes, frame.stack, strict=False):
                for p, name in names.items():
                    assert not overlaps(box, name), (step, lv.path, p)
            for a, b in itertools.combinations(boxes, 2):
                assert not overlaps(a, b), step
            moved += step == 21 and len(shown) > 0
        assert moved and names
