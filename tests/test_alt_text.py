"""Every picture the kit emits carries a short, specific text alternative: widget frames
(the ``title`` of each ``<img>``), drawings shown in a notebook (the ``<img alt>`` of their
HTML), the display hooks of trees and results, and the grader's SVG pictures."""

from __future__ import annotations

import html
import re

import matplotlib

matplotlib.use("Agg")

import pytest  # noqa: E402
from IPython.core.interactiveshell import InteractiveShell  # noqa: E402

from minimaxkit import alphabeta, minimax  # noqa: E402
from minimaxkit.draw import draw_board, draw_tree, tree_svg_text  # noqa: E402
from minimaxkit.draw.alt import figure_html  # noqa: E402
from minimaxkit.examples import tree_002  # noqa: E402
from minimaxkit.games import TicTacToe  # noqa: E402
from minimaxkit.grading.api.pictures import svg_bundle  # noqa: E402
from minimaxkit.widgets import QuizWidget, StepWidget  # noqa: E402

T = tree_002()
IMG_ALT = re.compile(r'<img [^>]*alt="([^"]+)"[^>]*src="data:image/(png|svg\+xml);base64,')


@pytest.fixture(scope="module")
def shell() -> InteractiveShell:
    """A real IPython shell, with figures shown as PNG as the inline backend does: its display
    formatter is what a notebook kernel uses."""
    from IPython.core.pylabtools import select_figure_formats

    ip = InteractiveShell.instance()
    select_figure_formats(ip, {"png"})
    return ip


def alt_of(html_text: str) -> str:
    match = IMG_ALT.search(html_text)
    assert match is not None, html_text[:200]
    return html.unescape(match.group(1))


# ----- widget frames --------------------------------------------------------------------------
def test_every_step_widget_frame_says_its_step() -> None:
    sw = StepWidget(alphabeta(T))
    alts = sw.panel.strip.titles  # the canvas's name (aria-label and title) at each step
    assert len(alts) == 43 and len(set(alts)) == 43  # one of its own per frame
    assert all(a.startswith(f"Search tree at step {k} of 42") for k, a in enumerate(alts))
    assert "β-cut at F: v = 9 ≥ β = 8" in alts[10] and "Cut so far: R, S." in alts[10]
    assert "call stack A, B, F with α = −∞, β = 8 at F" in alts[10]  # fail-soft: α kept
    assert "Search done: the root A (MAX) returns 5" in alts[42]


def test_board_frames_say_the_position() -> None:
    g = TicTacToe()
    start = g.state_from_text("XO. .X. ..O")
    sw = StepWidget(trace=alphabeta(g, start).trace, tree=g, state=start)
    alts = {im.tooltip for im in sw.panel.board_images}
    assert "TicTacToe board at root, rows from the top (X, O, . empty): X O . / . X . / . . O." \
        in alts
    assert all("Last move" in a for a in alts if "at root" not in a) and len(alts) > 3


def test_live_mode_and_quiz_pictures() -> None:
    sw = StepWidget(alphabeta(T), prerender=False)
    sw.value = 31
    assert sw.panel.picture.tooltip.startswith("Search tree at step 31 of 42")
    q = QuizWidget(seed=3)
    assert q.picture.tooltip.startswith("Game tree: root")
    q.mark(q.leaf_paths[0])
    q.show_solution()
    assert "with your answer marked" in q.picture.tooltip and "Marked:" in q.picture.tooltip


def test_play_cells_have_names() -> None:
    from minimaxkit.widgets import PlayWidget

    pw = PlayWidget(TicTacToe())
    names = [b.tooltip for row in pw.cells for b in row]
    assert names[0] == "a1: empty" and len(set(names)) == 9
    pw.click(4)
    assert "X" in pw.cells[1][1].tooltip


# ----- drawings in a notebook -----------------------------------------------------------------
def test_draw_tree_figures_show_as_img_with_alt(shell: InteractiveShell) -> None:
    import matplotlib.pyplot as plt

    art = draw_tree(alphabeta(T), step=10, title="β-cut at F")
    data, _ = shell.display_formatter.format(art["figure"])
    assert data["image/png"]  # the PNG stays for other front ends
    alt = alt_of(data["text/html"])
    assert alt.startswith("Search tree at step 10 of 42 (β-cut at F).")
    fig, axes = plt.subplots(1, 2)
    g = TicTacToe()
    draw_board(g, g.state_from_text("XO. .X. ..O"), ax=axes[0], move=8)
    draw_board(g, g.initial_state(), ax=axes[1])
    alt = alt_of(shell.display_formatter.format(fig)[0]["text/html"])
    assert alt.count("TicTacToe board") == 2 and "Last move c3 is ringed." in alt
    plt.close("all")


def test_charts_say_what_they_label_and_bare_figures_are_left_alone(
        shell: InteractiveShell) -> None:
    import matplotlib.pyplot as plt

    plt.figure()
    plt.semilogy([1, 2, 3], [10, 100, 1000], label="minimax")
    plt.semilogy([1, 2, 3], [5, 20, 60], label="alpha-beta")
    plt.xlabel("depth")
    plt.ylabel("leaves evaluated")
    plt.title("Leaves by depth")
    plt.legend()
    alt = alt_of(shell.display_formatter.format(plt.gcf())[0]["text/html"])
    assert alt == ("Chart: Leaves by depth; x: depth; y: leaves evaluated (log scale); "
                   "showing minimax, alpha-beta.")
    fig = plt.figure()
    fig.gca().plot([1, 2], [3, 4])
    assert figure_html(fig) is None
    assert "text/html" not in shell.display_formatter.format(fig)[0]
    plt.close("all")


@pytest.mark.parametrize("thing, start", [
    (T, "Game tree: root A (MAX), 40 nodes"),
    (alphabeta(T), "alphabeta search: value 5, 27 nodes, 16 leaves evaluated, 4 cut-offs."),
    (minimax(TicTacToe(), depth=2), "minimax search: value "),
])
def test_trees_and_results_display_with_alt(shell: InteractiveShell, thing: object,
                                            start: str) -> None:
    data, meta = shell.display_formatter.format(thing)
    alt = alt_of(data["text/html"])
    assert alt.startswith(start) and meta["image/png"]["alt"] == alt
    assert data["image/png"][:4] == b"\x89PNG"


# ----- the grader's pictures ------------------------------------------------------------------
def test_feedback_svg_has_title_desc_role_and_alt() -> None:
    svg = tree_svg_text(T, alphabeta(T).trace, marks={(0, 1): "extra", (2,): "diverge"},
                        title="002: reference alphabeta; your differences marked")
    head = svg.split(">", 1)[0]
    assert 'role="img"' in head and 'aria-label="002: reference alphabeta' in head
    assert "<title>002: reference alphabeta; your differences marked</title>" in svg
    desc = html.unescape(re.search(r"<desc>([^<]+)</desc>", svg).group(1))  # type: ignore
    assert "Marked: evaluated, should have been cut: F; the two traces part here: D." in desc
    bundle = svg_bundle(svg)
    alt = alt_of(bundle["text/html"])
    assert alt.startswith("002: reference alphabeta") and desc in alt
