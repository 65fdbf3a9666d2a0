"""Labels fit: 4-digit leaf values inside their squares, names and static values clear of
one another (lecture 4's forest tree, where E's and F's names used to collide), and large
non-integer values written out, never as 8.5e+03."""

from __future__ import annotations

import itertools
import re

import matplotlib

matplotlib.use("Agg")

from minimaxkit import GameTree  # noqa: E402
from minimaxkit.draw import tree_figure  # noqa: E402
from minimaxkit.lecture import forest  # noqa: E402
from minimaxkit.replay import fmt  # noqa: E402


def extents(fig, texts):
    fig.canvas.draw()
    r = fig.canvas.get_renderer()
    return {p: t.get_window_extent(r) for p, t in texts.items()}


def test_four_digit_leaf_values_fit_in_their_squares() -> None:
    tree = forest(1, depth=3, branching=2, noise=1000)[0]
    fig, art = tree_figure(tree)
    view = art["view"]
    boxes = extents(fig, {p: t for p, t in art["values"].items() if p in view.model.leaves})
    assert len(boxes) == 8 and all(len(art["values"][p].get_text()) == 4 for p in boxes)
    for p, bb in boxes.items():
        side_px = view.size[p] * fig.dpi / 72  # the square's side, in pixels
        assert bb.width < side_px, (p, bb.width, side_px)


def test_names_and_static_values_do_not_overlap() -> None:
    for tree in (forest(1, depth=3, branching=2, noise=1000)[0],
                 GameTree.random(depth=3, branching=2, seed=7),
                 GameTree.random(depth=3, branching=3, seed=1).with_static(noise=2, seed=1)):
        fig, art = tree_figure(tree)
        labels = {("name", p): t for p, t in art["names"].items()}
        labels |= {("static", p): t for p, t in art["statics"].items()}
        fig.canvas.draw()
        r = fig.canvas.get_renderer()
        boxes = {k: (t.get_bbox_patch() or t).get_window_extent(r) for k, t in labels.items()}
        for (ka, a), (kb, b) in itertools.combinations(boxes.items(), 2):
            assert not a.overlaps(b), (ka, kb)


def test_statics_are_written_out() -> None:
    tree = forest(1, depth=3, branching=2, noise=1000)[0]
    _, art = tree_figure(tree)
    texts = [t.get_text() for t in art["statics"].values()]
    assert texts and all("e+" not in s for s in texts)
    assert fmt(8497.31) == "8497"


def test_the_svg_moves_facing_names_apart_too() -> None:
    from minimaxkit.draw import tree_svg_text

    svg = tree_svg_text(forest(1, depth=3, branching=2, noise=1000)[0])
    names = {n: a for a, n in re.findall(r'text-anchor="(\w+)"[^>]*>([A-G])</text>', svg)}
    assert names["E"] == "start" and names["F"] == "start"  # F's name moved to its right
    assert names["D"] == "end"  # D's name stays on its left, away from the edge from B



def test_corner_marks_keep_clear_of_interior_names() -> None:
    """The ★ where two traces part sat on K's name (K's name is on its left); quiz marks
    on interior nodes could sit on names on the right. A corner mark now goes to the upper
    corner away from an interior node's name: no mark's extent overlaps any name."""
    from minimaxkit import alphabeta
    from minimaxkit.examples import tree_002

    r = alphabeta(tree_002(), fail="one-sided")
    inner = [n.path for n in r.game.nodes() if n.children]
    # "wrong" is not a corner mark: it outlines its node (the hand trace's review)
    for kind in ("diverge", "extra", "right"):
        fig, art = tree_figure(r.game, r.trace, marks=dict.fromkeys(inner, kind))
        fig.canvas.draw()
        rend = fig.canvas.get_renderer()
        view = art["view"]
        names = {p: t.get_window_extent(rend) for p, t in art["names"].items()}
        marks = view.marks[kind]
        centres = marks.get_offset_transform().transform(marks.get_offsets())
        radii = [x ** 0.5 / 2 * fig.dpi / 72 for x in marks.get_sizes()]
        assert len(centres) == len(inner)
        for p, (x, y), rad in zip(inner, centres, radii, strict=True):
            for q, bb in names.items():
                apart = (x + rad < bb.x0 or x - rad > bb.x1 or y + rad < bb.y0
                         or y - rad > bb.y1)
                assert apart, (kind, r.game.node(p).name, r.game.node(q).name)


def test_a_search_pictures_crowded_leaf_values_are_left_out_but_on_the_best_line() -> None:
    """Lecture 2's "Show search" after X's first move (review of issue 27): 56 leaves two
    levels down, whose values ran into one another ("0.3330.222..."). They are left out,
    but for the best line's, and the title says so; no visible value overlaps another."""
    from minimaxkit import minimax
    from minimaxkit.draw.render import _result_figure
    from minimaxkit.games import TicTacToe

    game = TicTacToe()
    result = minimax(game, game.play(game.initial_state(), 0), depth=2)
    fig = _result_figure(result, 80)
    ax = fig.axes[0]
    texts = [t for t in ax.texts if t.get_visible() and re.fullmatch(r"-?[\d.]+", t.get_text())]
    # the root, its 8 children and the one leaf on the best line
    assert len(texts) == 1 + 8 + 1, [t.get_text() for t in texts]
    assert "too crowded to read: shown on the best line only" in ax.get_title()
    fig.canvas.draw()
    r = fig.canvas.get_renderer()
    boxes = [t.get_window_extent(r) for t in texts]
    assert not any(a.overlaps(b) for a, b in itertools.combinations(boxes, 2))
