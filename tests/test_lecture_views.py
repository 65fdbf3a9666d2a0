"""What lectures 1 and 2 show of a search before lecture 3 teaches α and β: the step
widget's ``bounds=False`` leaves the window out of its words, its stack panel and its
pictures' text alternatives (and says "being searched", not "call stack")."""

from __future__ import annotations

import re

from minimaxkit import alphabeta, minimax
from minimaxkit.examples import aima_5_2
from minimaxkit.widgets import StepWidget


def test_bounds_false_names_no_alpha_beta() -> None:
    sw = StepWidget(minimax(aima_5_2()), bounds=False, prerender=False)
    panel = sw.panel
    for step in range(sw.steps + 1):
        words = panel.announcement(step) + panel.html(step) + panel.tree_alt(step)
        assert not re.search("α|β|alpha|beta|call stack", words), (step, words)
    assert panel.announcement(2) == "Enter B (MIN), child of A (MAX)."
    assert "being searched" in panel.html(3) and "<b>B</b>" in panel.html(3)


def test_bounds_true_is_unchanged() -> None:
    """The default still shows the window (lecture 3 on)."""
    sw = StepWidget(alphabeta(aima_5_2()), prerender=False)
    assert "with α = −∞, β = ∞" in sw.panel.announcement(2)
    assert "<th>α</th>" in sw.panel.html(3)


def test_the_first_step_names_a_min_root_min() -> None:
    """Lecture 3's tutorial tree has a MIN root: step 0 said "a MAX node"."""
    from minimaxkit.examples import tutorial_tree

    sw = StepWidget(alphabeta(tutorial_tree(), window=(-2, 2)), prerender=False)
    assert sw.panel.announcement(0).endswith("The root A is a MIN node.")


def test_bounds_fit_inside_their_triangles() -> None:
    """"≤0.3" and "≥0.7" in the tutorial tree's frames stay inside their nodes' triangles
    (about 0.7 of the marker's side wide at the height of the text)."""
    import matplotlib

    matplotlib.use("Agg")
    from minimaxkit.draw import FrameRenderer
    from minimaxkit.examples import tutorial_tree

    r = FrameRenderer(alphabeta(tutorial_tree(), window=(-2, 2)), dpi=80)
    view = r.view
    seen = set()
    for step in range(len(r)):
        view.show(r.replay.frame(step))
        r.fig.canvas.draw()
        renderer = r.fig.canvas.get_renderer()
        for p, t in view.values.items():
            text = t.get_text()
            if p in view.model.leaves or not text:
                continue
            seen.add(text)
            width = t.get_window_extent(renderer).width
            assert width <= 0.7 * view.size[p] * r.fig.dpi / 72, (step, text, width)
    assert {"≤0.3", "≥0.7"} <= seen
