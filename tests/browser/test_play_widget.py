"""The play widget as a student sees it, in JupyterLab and Notebook 7: what the board's
cells show after each click, New game, Undo and the side control; the computer's last move
ringed; the verdict; the "Show search" picture's size on screen (never stretched past its
natural size, inside the window, also in a small window). Each step leaves a picture of the
widget in tests/artifacts/ (the gallery, tests/artifacts/index.html)."""

from __future__ import annotations

from typing import Any

import pytest

from .harness import LabServer, element_shot, error_outputs, open_notebook, run_all_cells

pytestmark = pytest.mark.browser

CELLS = [
    "from minimaxkit.games import ConnectFour, TicTacToe\n"
    "from minimaxkit.widgets import PlayWidget\n"
    "def first_move(game, state):\n"
    "    return game.moves(state)[0]",
    "PlayWidget(TicTacToe(), first_move)",
    "PlayWidget(ConnectFour())",
    "PlayWidget(TicTacToe())",
]

# The text every cell of the n-th play widget shows (trimmed, so a no-break space is ""),
# and whether it carries the last-move ring, read from the screen.
CELLS_JS = """(n) => {
    const root = document.querySelectorAll('.mmk-play')[n];
    return Array.from(root.querySelectorAll('button.mmk-cell')).map((b) => ({
        text: b.innerText.trim(), last: b.classList.contains('mmk-last'),
        outline: getComputedStyle(b).outlineStyle}));
}"""

# The search picture of the n-th widget: its natural size, the size its pixels are drawn
# at on screen, its box on screen, the window's size.
PICTURE_JS = """(n) => {
    const root = document.querySelectorAll('.mmk-play')[n];
    const img = root.querySelector('img.mmk-search-picture');
    if (!img || !img.complete || img.naturalWidth === 0) { return null; }
    const r = img.getBoundingClientRect();
    // with object-fit: contain the picture is drawn at the largest scale that fits its box
    const nw = img.naturalWidth, nh = img.naturalHeight;
    const s = getComputedStyle(img).objectFit === 'contain'
        ? Math.min(r.width / nw, r.height / nh) : null;
    return {natural: [nw, nh], shown: s === null ? [r.width, r.height] : [nw * s, nh * s],
            left: r.left, right: r.right, top: r.top, bottom: r.bottom,
            window: [window.innerWidth, window.innerHeight]};
}"""


def board(page: Any, n: int) -> list[str]:
    return [c["text"] for c in page.evaluate(CELLS_JS, n)]


def wait_board(page: Any, n: int, expected: list[str]) -> list[str]:
    """Wait until the n-th widget's cells show ``expected`` (left to right, top down)."""
    page.wait_for_function(f"(e) => JSON.stringify(({CELLS_JS})({n}).map((c) => c.text)) "
                           "=== JSON.stringify(e)", arg=expected, timeout=20_000)
    return board(page, n)


def status(page: Any, n: int) -> str:
    text: str = page.locator(".mmk-play").nth(n).locator(".mmk-status").inner_text()
    return text


def click_button(page: Any, n: int, label: str) -> None:
    page.locator(".mmk-play").nth(n).get_by_role("button", name=label).click()


def show_widgets(page: Any, server: LabServer) -> None:
    relpath = server.add_notebook("play/play_widget.ipynb", CELLS)
    open_notebook(page, server, relpath)
    assert run_all_cells(page)
    page.locator(".mmk-play").nth(2).wait_for(state="visible", timeout=30_000)
    assert error_outputs(page) == []


def picture(page: Any, n: int) -> dict[str, Any]:
    page.wait_for_function(f"() => ({PICTURE_JS})({n}) !== null", timeout=30_000)
    box: dict[str, Any] = page.evaluate(PICTURE_JS, n)
    return box


def assert_fits(box: dict[str, Any]) -> None:
    """Never wider than its natural size (not stretched), its aspect kept, inside the
    window's width and not taller than the window."""
    (nw, nh), (w, h) = box["natural"], box["shown"]
    assert w <= nw + 0.5 and h <= nh + 0.5, box
    assert abs(w / h - nw / nh) < 0.02, box
    assert box["left"] >= 0 and box["right"] <= box["window"][0], box
    assert h <= box["window"][1], box


def wait_status(page: Any, index: int, part: str) -> str:
    """The status line of play widget ``index`` once it says ``part``: the board and the
    status reach the page in two messages from the kernel, so the board may come first."""
    page.wait_for_function("([i, part]) => document.querySelectorAll('.mmk-play')[i]"
                           ".querySelector('.mmk-status').innerText.includes(part)",
                           arg=[index, part], timeout=30_000)
    return status(page, index)


def test_play_new_game_undo_and_sides(page: Any, jupyter: LabServer) -> None:
    show_widgets(page, jupyter)
    empty = [""] * 9
    assert board(page, 0) == empty
    shot = f"play-{jupyter.app}"
    element_shot(page.locator(".mmk-play").nth(0), f"{shot}-01-start")
    page.locator(".mmk-play").nth(0).locator("button.mmk-cell").nth(4).click()  # X in b2
    cells = wait_board(page, 0, ["O", "", "", "", "X", "", "", "", ""])  # the reply: a1
    ring = page.evaluate(CELLS_JS, 0)
    assert [c["last"] for c in ring] == [True] + [False] * 8 and ring[0]["outline"] == "dashed"
    assert "The computer (O) played a1 (ringed)" in wait_status(page, 0, "played a1"), cells
    element_shot(page.locator(".mmk-play").nth(0), f"{shot}-02-after-b2")
    for cell in (8, 7):  # X: c3, then b3; O answers b1, then c1
        page.locator(".mmk-play").nth(0).locator("button.mmk-cell").nth(cell).click()
        page.wait_for_function(f"() => ({CELLS_JS})(0)[{cell}].text === 'X'")
    wait_board(page, 0, ["O", "O", "O", "", "X", "", "", "X", "X"])
    page.wait_for_function("() => document.querySelectorAll('.mmk-play')[0]"
                           ".querySelector('.mmk-status').innerText.includes('Game over')")
    assert "Game over: O wins (the computer wins)" in status(page, 0)
    element_shot(page.locator(".mmk-play").nth(0), f"{shot}-03-lost")
    click_button(page, 0, "Undo")  # takes back b3 and c1
    assert wait_board(page, 0, ["O", "O", "", "", "X", "", "", "", "X"])
    click_button(page, 0, "New game")
    assert wait_board(page, 0, empty) == empty  # the last game's X and O are gone
    element_shot(page.locator(".mmk-play").nth(0), f"{shot}-04-new-game")
    page.locator(".mmk-play").nth(0).get_by_role(
        "button", name="O (moves second)").click()  # the computer opens as X in a1
    wait_board(page, 0, ["X"] + [""] * 8)
    assert "You are O; O to move." in wait_status(page, 0, "You are O")
    element_shot(page.locator(".mmk-play").nth(0), f"{shot}-05-playing-O")


def test_show_search_is_readable_and_fits(page: Any, jupyter: LabServer) -> None:
    show_widgets(page, jupyter)
    shot = f"play-search-{jupyter.app}"
    c4 = page.locator(".mmk-play").nth(1)
    c4.locator("button.mmk-cell").nth(3).click()  # X in column 3 (any cell of it)
    page.wait_for_function("() => document.querySelectorAll('.mmk-play')[1]"
                           ".querySelector('.mmk-status').innerText.includes('played')",
                           timeout=60_000)
    toggle = c4.get_by_role("button", name="Show search")
    toggle.click()
    box = picture(page, 1)
    assert_fits(box)
    assert box["shown"][0] >= 0.6 * box["natural"][0], box  # not shrunk to unreadable
    assert "Drawn: the 7 moves from the position searched" in c4.inner_text()
    assert c4.get_by_role("button", name="Hide search").count() == 1
    element_shot(c4, f"{shot}-01-connect-four")
    page.set_viewport_size({"width": 800, "height": 600})  # a small window: shrunk to fit
    page.wait_for_timeout(500)
    assert_fits(page.evaluate(PICTURE_JS, 1))
    page.set_viewport_size({"width": 1400, "height": 900})
    c4.get_by_role("button", name="New game").click()  # hides the last game's search
    page.wait_for_function("() => !document.querySelectorAll('.mmk-play')[1]"
                           ".querySelector('img.mmk-search-picture')")
    assert c4.get_by_role("button", name="Show search").count() == 1
    ttt = page.locator(".mmk-play").nth(2)  # the kit's full search: a small picture
    ttt.locator("button.mmk-cell").nth(4).click()
    page.wait_for_function("() => document.querySelectorAll('.mmk-play')[2]"
                           ".querySelector('.mmk-status').innerText.includes('played')",
                           timeout=60_000)
    ttt.get_by_role("button", name="Show search").click()
    small = picture(page, 2)
    assert_fits(small)
    assert small["shown"][0] == pytest.approx(small["natural"][0], abs=1), small
    element_shot(ttt, f"{shot}-02-tictactoe")
