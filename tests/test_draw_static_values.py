"""Interior static values are drawn wherever a tree has them: in the plain picture, in every
frame of a search on it (greyed when pruned), and in the SVG the grader shows."""

from __future__ import annotations

import re

import matplotlib

matplotlib.use("Agg")

import matplotlib.pyplot as plt  # noqa: E402

from minimaxkit import alphabeta  # noqa: E402
from minimaxkit.draw import FrameRenderer, draw_tree, tree_png, tree_svg_text  # noqa: E402
from minimaxkit.draw.model import TreeModel  # noqa: E402
from minimaxkit.draw.style import NAME_TEXT, PRUNED_TEXT  # noqa: E402
from minimaxkit.examples import sheet_tree  # noqa: E402
from minimaxkit.replay import fmt  # noqa: E402

SHEET = sheet_tree()
NOISY = SHEET.with_static(noise=2, seed=1)
INTERIOR = [n for n in NOISY.nodes() if n.children]


def test_the_model_keeps_interior_static_values() -> None:
    assert TreeModel.of_tree(SHEET).statics == {}
    statics = TreeModel.of_tree(NOISY).statics
    assert statics == {n.path: n.value for n in INTERIOR} and len(statics) == 13


def test_a_plain_drawing_shows_each_interior_static_value() -> None:
    art = draw_tree(NOISY)
    assert {p: t.get_text() for p, t in art["statics"].items()} == {
        n.path: fmt(n.value) for n in INTERIOR}
    assert all(t.get_fontstyle() == "italic" for t in art["statics"].values())
    labels = [t.get_text() for t in art["legend"].get_texts()]
    assert "static value (italic)" in labels
    assert draw_tree(SHEET)["statics"] == {}
    assert "static value (italic)" not in [t.get_text() for t in
                                            draw_tree(SHEET)["legend"].get_texts()]
    plt.close("all")
    # the picture differs from the tree without static values (the L1 bug: identical bytes)
    assert tree_png(NOISY) != tree_png(SHEET)


def test_static_values_stay_in_every_frame_and_grey_when_pruned() -> None:
    r = alphabeta(NOISY, depth=2, order="static")
    art = draw_tree(r)
    pruned = {p for p, s in art["status"].items() if s == "pruned"}
    assert pruned & set(art["statics"])  # the test sees a pruned node with a static value
    for p, t in art["statics"].items():
        assert t.get_color() == (PRUNED_TEXT if p in pruned else NAME_TEXT), p
    plt.close("all")
    fr = FrameRenderer(NOISY, r.trace)
    assert fr.png(0) != fr.png(len(fr) - 1)
    # the static layer holds the static values: a frame shows them without redrawing text
    assert set(fr.view.statics.values()) <= set(fr._static)


def test_the_svg_shows_them_too() -> None:
    svg = tree_svg_text(NOISY)
    boxes = re.findall(r'<g class="static">.*?font-style="italic"[^>]*>([^<]*)</text></g>', svg)
    assert sorted(boxes) == sorted(fmt(n.value) for n in INTERIOR)
    assert "static value (italic)" in svg
    assert '<g class="static">' not in tree_svg_text(SHEET)
