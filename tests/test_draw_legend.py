"""The legend lists what the picture shows, and fits in it: a narrow tree's legend wraps to
more rows and the figure grows to hold them."""

from __future__ import annotations

import matplotlib

matplotlib.use("Agg")

import matplotlib.pyplot as plt  # noqa: E402

from minimaxkit import alphabeta, minimax  # noqa: E402
from minimaxkit.draw import FrameRenderer, draw_tree, tree_figure  # noqa: E402
from minimaxkit.examples import aima_5_2, sheet_tree  # noqa: E402


def labels(art: dict) -> list[str]:
    return [t.get_text() for t in art["legend"].get_texts()]


def test_a_finished_search_lists_no_call_stack_current_or_absent_pruning() -> None:
    done = labels(draw_tree(minimax(aima_5_2())))
    assert done == ["MAX", "MIN", "leaf", "visited", "best line"]
    cut = labels(draw_tree(alphabeta(sheet_tree())))
    assert "pruned" in cut and "current" not in cut and "call stack (α, β)" not in cut
    midway = labels(draw_tree(alphabeta(sheet_tree()), step=10))
    assert {"call stack (α, β)", "current", "pruned"} <= set(midway)
    plt.close("all")


def test_frames_rendered_once_list_what_any_step_shows() -> None:
    fr = FrameRenderer(minimax(aima_5_2()))
    legend = [t.get_text() for t in fr.view.ax.get_legend().get_texts()]
    assert "current" in legend and "call stack" in legend
    assert "pruned" not in legend  # minimax prunes nothing
    # minimax keeps no window: no (α, β) boxes (they would always read −∞, ∞)
    fr.png(5)
    assert not any(t.get_visible() for t in fr.view.windows)
    ab = FrameRenderer(alphabeta(aima_5_2()))
    ab.png(5)
    assert any(t.get_visible() for t in ab.view.windows)
    assert "call stack (α, β)" in [t.get_text() for t in ab.view.ax.get_legend().get_texts()]


def test_the_legend_of_a_narrow_tree_fits_in_its_figure() -> None:
    fig, art = tree_figure(minimax(aima_5_2()), step=5, title="narrow", dpi=80,
                           figsize=(3.9, 3.0), every_step=True)
    fig.canvas.draw()
    box = art["legend"].get_window_extent(fig.canvas.get_renderer())
    assert box.y0 >= 0 and fig.get_size_inches()[1] > 3.0  # grew to hold a third row
    assert art["ax"].get_position().height * fig.get_size_inches()[1] > 2.0
