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
