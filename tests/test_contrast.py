"""Colour contrast of everything the kit draws and shows (WCAG 2.1 AA): text at least 4.5:1
against what it sits on, lines, outlines and marks at least 3:1 against the white picture
background; computed with WCAG's relative-luminance formula."""

from __future__ import annotations

import pytest

from minimaxkit.draw.render import PRUNED_OPACITY
from minimaxkit.draw.style import (
    CURRENT,
    EDGE_STYLES,
    MARKS,
    NAME_TEXT,
    NODE_STYLES,
    PRUNED_TEXT,
    TEXT,
)
from minimaxkit.widgets._panel import CONTROL_COLORS

WHITE = "#ffffff"


def _rgb(colour: str) -> tuple[int, int, int]:
    h = colour.lstrip("#")
    if len(h) != 6:
        raise ValueError(f"expected #rrggbb, got {colour!r}")
    return int(h[0:2], 16), int(h[2:4], 16), int(h[4:6], 16)


def luminance(colour: str) -> float:
    """WCAG 2.1 relative luminance of an sRGB colour."""
    def lin(c: int) -> float:
        s = c / 255
        return s / 12.92 if s <= 0.04045 else ((s + 0.055) / 1.055) ** 2.4

    r, g, b = _rgb(colour)
    return 0.2126 * lin(r) + 0.7152 * lin(g) + 0.0722 * lin(b)


def contrast(a: str, b: str) -> float:
    """WCAG contrast ratio of two colours (1 to 21)."""
    hi, lo = sorted((luminance(a), luminance(b)), reverse=True)
    return (hi + 0.05) / (lo + 0.05)


def blend(colour: str, over: str, opacity: float) -> str:
    """``colour`` at ``opacity`` over ``over`` (as the frame renderer fades labels)."""
    mixed = (round(c * opacity + o * (1 - opacity)) for c, o in zip(_rgb(colour), _rgb(over),
                                                                    strict=True))
    return "#" + "".join(f"{c:02x}" for c in mixed)


def test_the_formula_on_known_pairs() -> None:
    assert contrast("#000000", WHITE) == pytest.approx(21.0)
    assert contrast(WHITE, WHITE) == pytest.approx(1.0)
    assert contrast("#767676", WHITE) == pytest.approx(4.54, abs=0.01)  # the usual grey limit
    assert contrast("#E69F00", WHITE) < 3  # Okabe-Ito's orange is too light for lines
    assert blend("#000000", WHITE, 0.5) == "#808080"


FILLS = {kind: style.face for kind, style in NODE_STYLES.items()}


@pytest.mark.parametrize("text", [TEXT, NAME_TEXT])
@pytest.mark.parametrize("ground", [WHITE, *FILLS.values()])
def test_text_on_the_picture_and_on_node_fills(text: str, ground: str) -> None:
    assert contrast(text, ground) >= 4.5, (text, ground)


@pytest.mark.parametrize("ground", [WHITE, FILLS["pruned"]])
def test_labels_of_pruned_nodes(ground: str) -> None:
    assert contrast(PRUNED_TEXT, ground) >= 4.5, ground


@pytest.mark.parametrize("text", [TEXT, NAME_TEXT])
@pytest.mark.parametrize("ground", [WHITE, NODE_STYLES["pruned"].face])
def test_faded_labels_of_pruned_nodes_in_widget_frames(text: str, ground: str) -> None:
    assert contrast(blend(text, ground, PRUNED_OPACITY), ground) >= 4.5


@pytest.mark.parametrize("kind", sorted(EDGE_STYLES))
def test_edges(kind: str) -> None:
    assert contrast(EDGE_STYLES[kind].color, WHITE) >= 3, kind


@pytest.mark.parametrize("kind", sorted(NODE_STYLES))
def test_node_outlines(kind: str) -> None:
    assert contrast(NODE_STYLES[kind].edge, WHITE) >= 3, kind


@pytest.mark.parametrize("kind", sorted(MARKS))
def test_marks_and_the_current_ring(kind: str) -> None:
    for mark in (MARKS[kind], CURRENT):
        parts = [c for c in (mark.face, mark.edge) if c != "none"]
        assert max(contrast(c, WHITE) for c in parts) >= 3, (kind, parts)


def test_step_controls() -> None:
    c = CONTROL_COLORS
    assert contrast(c["text"], c["background"]) >= 4.5
    assert contrast(c["muted"], c["background"]) >= 4.5
    assert contrast(c["primary_text"], c["primary"]) >= 4.5
    for line in ("border", "focus", "primary"):  # button edges, focus ring, slider
        assert contrast(c[line], c["background"]) >= 3, line
    # a button that does nothing at this end (aria-disabled): its label still 4.5:1
    assert contrast(c["muted"], c["off"]) >= 4.5


def test_quiz_leaf_toggles() -> None:
    """Selected vs unselected differ by 3:1 or more (WCAG 1.4.11 non-text contrast), both
    against the page; the text on either is 4.5:1."""
    from minimaxkit.widgets.leaf_toggles import TOGGLE_COLORS as t

    assert contrast(t["on"], t["background"]) >= 3
    assert contrast(t["border"], t["background"]) >= 3  # an unselected toggle's edge
    assert contrast(t["text"], t["background"]) >= 4.5
    assert contrast(t["on_text"], t["on"]) >= 4.5
    assert contrast(t["focus"], t["background"]) >= 3


def test_widget_html_colours() -> None:
    """Every colour the step widget's HTML sets (call stack table, its highlighted row)."""
    import re

    from minimaxkit import alphabeta
    from minimaxkit.examples import tree_002
    from minimaxkit.replay import Replay
    from minimaxkit.widgets._panel import frame_html

    rp = Replay(alphabeta(tree_002()))
    page = frame_html(rp.frame(0)) + frame_html(rp.frame(10))

    def full(c: str) -> str:
        return "#" + "".join(ch * 2 for ch in c[1:]) if len(c) == 4 else c

    texts = [full(c) for c in re.findall(r"(?<![-\w])color:(#[0-9a-fA-F]{3,6})", page)]
    grounds = [full(c) for c in re.findall(r"background:(#[0-9a-fA-F]{3,6})", page)]
    assert texts and grounds  # "(empty)" in grey, the current node's row
    for colour in texts:
        assert contrast(colour, WHITE) >= 4.5, colour
    for ground in grounds:
        assert contrast(TEXT, ground) >= 4.5, ground


def test_run_this_cell_again_note_and_the_play_widgets_cells() -> None:
    """The note a widget that needs its kernel shows, and the play widget's cells: pieces
    at full contrast on their cells (taken cells are no longer faded), the winning ring
    against every cell colour, the column numbers on the page."""
    import re

    from minimaxkit.widgets._panel import needs_kernel
    from minimaxkit.widgets._play_board import _COLORS, BOARD_CSS

    note = needs_kernel("quiz").value
    text, = re.findall(r"(?<![-\w])color:(#[0-9a-fA-F]{6})", note)
    ground, = re.findall(r"background:(#[0-9a-fA-F]{6})", note)
    edge, = re.findall(r"border-left:4px solid (#[0-9a-fA-F]{6})", note)
    assert contrast(text, ground) >= 4.5 and contrast(edge, ground) >= 3
    piece, = re.findall(r"(?<![-\w])color: (#[0-9a-fA-F]{6})", BOARD_CSS)
    ring, = re.findall(r"inset 0 0 0 4px (#[0-9a-fA-F]{6})", BOARD_CSS)
    last, = re.findall(r"outline: 3px dashed (#[0-9a-fA-F]{6})", BOARD_CSS)
    for cell in _COLORS.values():
        assert contrast(piece, cell) >= 4.5, cell
        assert contrast(ring, cell) >= 3, cell
        assert contrast(last, cell) >= 3, cell  # the computer's last move
    from minimaxkit.games import ConnectFour
    from minimaxkit.widgets import PlayWidget

    number, = re.findall(r"(?<![-\w])color:(#[0-9a-fA-F]{6})",
                         PlayWidget(ConnectFour()).numbers[0].value)
    assert contrast(number, WHITE) >= 4.5  # the column numbers under the board
