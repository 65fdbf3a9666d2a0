"""The play widget as a student sees it, in JupyterLab and Notebook 7: what the board's
cells show after each click, New game, Undo and the side control; the computer's last move
ringed; the verdict; the "Show search" picture's size on screen (never stretched past its
natural size, inside the window, also in a small window). Each step leaves a picture of the
widget in tests/artifacts/ (the gallery, tests/artifacts/index.html)."""

from __future__ import annotations

from typing import Any

import pytest

from minimaxkit.draw.style import MIN_FONT_PX

from .harness import LabServer, element_shot, error_outputs, open_notebook, run_all_cells
from .test_views_legible import MIN_PX

pytestmark = pytest.mark.browser

CELLS = [
    "from minimaxkit.games import ConnectFour, TicTacToe\n"
    "from minimaxkit.widgets import PlayWidget\n"
    "def first_move(game, state):\n"
    "    return game.moves(state)[0]",
    "PlayWidget(TicTacToe(), first_move)",
    "PlayWidget(ConnectFour())",
    "PlayWidget(TicTacToe())",
    # a computer that thinks for a second and a half, then plays the first legal column
    "import time\n"
    "def slow_first(game, state):\n"
    "    time.sleep(1.5)\n"
    "    return game.moves(state)[0]\n"
    "PlayWidget(ConnectFour(), slow_first)",
    # lecture 2's widget: late in its games the whole search is drawn, wider than the page
    "from functools import partial\n"
    "from minimaxkit import minimax\n"
    "PlayWidget(TicTacToe(), search=partial(minimax, depth=2), human='O')",
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
    const scroll = img.closest('.mmk-search-scroll');
    const s = scroll.getBoundingClientRect();
    return {natural: [img.naturalWidth, img.naturalHeight], shown: [r.width, r.height],
            alt: img.alt, box: {left: s.left, right: s.right, width: scroll.clientWidth,
                                scrolls: scroll.scrollWidth},
            output: root.closest('.jp-OutputArea-output').getBoundingClientRect().right,
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
    """Shown at its natural size (never stretched, never shrunk: the picture's smallest
    text, drawn at 11 px, stays at the 11 px the legibility tests ask of every view), in a
    box inside the output area and the window, which scrolls sideways when the picture is
    wider than the room."""
    (nw, nh), (w, h) = box["natural"], box["shown"]
    assert w == pytest.approx(nw, abs=0.5) and h == pytest.approx(nh, abs=0.5), box
    assert MIN_FONT_PX * w / nw >= MIN_PX - 0.01, box  # the smallest text, on screen
    room = box["box"]
    assert room["left"] >= 0 and room["right"] <= min(box["window"][0], box["output"] + 1), box
    if nw > room["width"]:
        assert room["scrolls"] >= nw, box  # the rest of it is a scroll away


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
    assert "The computer (O) played a1 (framed with a dashed line)" in wait_status(
        page, 0, "played a1"), cells
    element_shot(page.locator(".mmk-play").nth(0), f"{shot}-02-after-b2")
    for cell in (8, 7):  # X: c3, then b3; O answers b1, then c1
        page.locator(".mmk-play").nth(0).locator("button.mmk-cell").nth(cell).click()
        page.wait_for_function(f"() => ({CELLS_JS})(0)[{cell}].text === 'X'")
    wait_board(page, 0, ["O", "O", "O", "", "X", "", "", "X", "X"])
    page.wait_for_function("() => document.querySelectorAll('.mmk-play')[0]"
                           ".querySelector('.mmk-status').innerText.includes('Game over')")
    assert "Game over: O wins, the computer wins." in status(page, 0)
    element_shot(page.locator(".mmk-play").nth(0), f"{shot}-03-lost")
    click_button(page, 0, "Undo")  # takes back b3 and c1
    assert wait_board(page, 0, ["O", "O", "", "", "X", "", "", "", "X"])
    click_button(page, 0, "New game")
    assert wait_board(page, 0, empty) == empty  # the last game's X and O are gone
    element_shot(page.locator(".mmk-play").nth(0), f"{shot}-04-new-game")
    page.locator(".mmk-play").nth(0).get_by_role(
        "button", name="O (moves second)").click()  # the computer opens as X in a1
    wait_board(page, 0, ["X"] + [""] * 8)
    # the reply's board and its status come in two messages: wait for the status itself
    # ("You are O; the computer is thinking…" is on screen until the reply's status comes)
    assert "You are O; O to move." in wait_status(page, 0, "You are O; O to move.")
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
    assert "value" in box["alt"] and "nodes" in box["alt"], box  # a text alternative
    assert "Drawn: the 7 moves from the position searched" in c4.inner_text()
    assert c4.get_by_role("button", name="Hide search").count() == 1
    element_shot(c4, f"{shot}-01-connect-four")
    page.set_viewport_size({"width": 800, "height": 600})  # a small window: it scrolls
    page.wait_for_timeout(500)
    narrow = page.evaluate(PICTURE_JS, 1)
    assert_fits(narrow)
    assert narrow["box"]["width"] < narrow["natural"][0], narrow  # (it does scroll here)
    element_shot(c4, f"{shot}-01b-connect-four-narrow")
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
    element_shot(ttt, f"{shot}-02-tictactoe")
    # lecture 2's widget, three replies in: the whole search is drawn (student 4 saw it,
    # 1,411 px wide, shrunk to 968 px: its numbers about 7 px high)
    late = page.locator(".mmk-play").nth(4)
    late.scroll_into_view_if_needed()
    pieces = f"(k) => ({CELLS_JS})(4).filter((c) => c.text !== '').length >= k"
    page.wait_for_function(pieces, arg=1, timeout=30_000)  # the computer's opening X
    for reply in (2, 3):
        # the centre, else the first free corner, else the first free cell (the game
        # then lasts: the whole search of the third reply is 1,953 px wide)
        free = [i for i, c in enumerate(board(page, 4)) if c == ""]
        cell = next(i for i in (4, 0, 2, 6, 8, 1, 3, 5, 7) if i in free)
        late.locator("button.mmk-cell").nth(cell).click()
        page.wait_for_function(pieces, arg=2 * reply - 1, timeout=30_000)  # its reply
        wait_status(page, 4, "You are O; O to move.")
    late.get_by_role("button", name="Show search").click()
    whole = picture(page, 4)
    assert_fits(whole)
    assert "The whole search is drawn" in whole["alt"], whole
    assert whole["natural"][0] > whole["box"]["width"], whole  # wider than the page
    element_shot(late, f"{shot}-03-tictactoe-late")


def test_a_second_click_while_the_computer_thinks_is_not_played(
        page: Any, jupyter: LabServer) -> None:
    """Student 3 clicked column 5 and, 0.18 s later, column 4: both were played. Here both
    clicks are sent in the same moment, before any answer from the kernel: the board shows
    the first X at once, says the computer is thinking and takes no move; then the
    computer's O comes, and column 4 stays empty."""
    show_widgets(page, jupyter)
    slow = page.locator(".mmk-play").nth(3)
    slow.locator("button.mmk-cell").nth(40).wait_for(state="visible", timeout=30_000)
    # Every state the widget passes through is recorded as it changes (a MutationObserver):
    # the disc, the status and the board's buttons reach the page in separate messages, so
    # reading the status once after the disc shows could see the status of before the click.
    page.evaluate("""() => {
        const root = document.querySelectorAll('.mmk-play')[3];
        window.__mmkSeen = [];
        const note = () => window.__mmkSeen.push({
            status: root.querySelector('.mmk-status').innerText,
            disabled: Array.from(root.querySelectorAll('button.mmk-cell'))
                .every((b) => b.disabled)});
        new MutationObserver(note).observe(root, {subtree: true, childList: true,
                                                  characterData: true, attributes: true});
        const cells = root.querySelectorAll('button.mmk-cell');
        cells[40].click(); cells[39].click();  // column 5, then column 4 (bottom row)
    }""")
    page.wait_for_function(f"() => ({CELLS_JS})(3)[40].text === 'X'", timeout=20_000)
    element_shot(slow, f"play-thinking-{jupyter.app}-01")
    expected = [""] * 42
    expected[40], expected[35] = "X", "O"
    cells = wait_board(page, 3, expected)  # X in column 5, O in column 0, column 4 empty
    seen = page.evaluate("() => window.__mmkSeen")
    thinking = [s for s in seen if "the computer is thinking…" in s["status"]]
    assert thinking, [s["status"] for s in seen]
    # while the computer thought the board was disabled (the status and the buttons come in
    # separate messages, so one of the states seen may have the one without the other)
    assert any(s["disabled"] for s in thinking), thinking
    said = wait_status(page, 3, "played column 0")
    assert "Your click while the computer was thinking was not played." in said, said
    assert cells.count("X") == 1 and cells.count("O") == 1
    element_shot(slow, f"play-thinking-{jupyter.app}-02")


def test_tictactoe_board_shows_the_names_of_its_columns_and_rows(
        page: Any, jupyter: LabServer) -> None:
    """The text names cells a1 ... c3: the board shows a, b, c over its columns and 1, 2, 3
    left of its rows, so a1 (where the computer answers b2) is found top left."""
    show_widgets(page, jupyter)
    ttt = page.locator(".mmk-play").nth(0)
    boxes = page.evaluate("""() => {
        const root = document.querySelectorAll('.mmk-play')[0];
        const box = (el) => { const r = el.getBoundingClientRect();
                              return {text: el.innerText.trim(), x: r.x + r.width / 2,
                                      y: r.y + r.height / 2}; };
        return {columns: Array.from(root.querySelectorAll('.mmk-colname')).map(box),
                rows: Array.from(root.querySelectorAll('.mmk-rowname')).map(box),
                cells: Array.from(root.querySelectorAll('button.mmk-cell')).map(box)};
    }""")
    assert [b["text"] for b in boxes["columns"]] == ["a", "b", "c"]
    assert [b["text"] for b in boxes["rows"]] == ["1", "2", "3"]
    cells = boxes["cells"]
    for c, name in enumerate(boxes["columns"]):  # over its column, above the top row
        assert abs(name["x"] - cells[c]["x"]) < 3 and name["y"] < cells[c]["y"], name
    for r, name in enumerate(boxes["rows"]):  # left of its row, level with it
        assert abs(name["y"] - cells[3 * r]["y"]) < 3 and name["x"] < cells[3 * r]["x"], name
    element_shot(ttt, f"play-names-{jupyter.app}")


def test_the_side_toggle_sits_above_the_board(page: Any, jupyter: LabServer) -> None:
    """Student 4 saw small grey notches under the "X (moves first) / O (moves second)"
    toggle overlapping Connect Four's top row: the chosen button's shadow. The toggle's
    parts, with their shadows, must end above the board's first row of cells, on screen."""
    show_widgets(page, jupyter)
    c4 = page.locator(".mmk-play").nth(1)
    c4.scroll_into_view_if_needed()
    boxes = c4.evaluate(r"""(root) => {
        const toggle = root.querySelector('.widget-toggle-buttons');
        const parts = [toggle, ...toggle.querySelectorAll('*')]
            .filter((e) => getComputedStyle(e).visibility !== 'hidden')
            .map((e) => { const r = e.getBoundingClientRect();
                          // a shadow's reach below the box: its y offset, blur and spread
                          // ("rgba(0, 0, 0, 0.14) 0px 4px 5px 0px, ...")
                          const shadow = getComputedStyle(e).boxShadow;
                          const reach = shadow === 'none' ? [0] : shadow
                              .split(/,(?![^(]*\))/).map((one) => {
                                  const n = one.replace(/rgba?\([^)]*\)/, '')
                                      .match(/-?[\d.]+px/g).map(parseFloat);
                                  return (n[1] || 0) + (n[2] || 0) + (n[3] || 0); });
                          return {tag: e.tagName, cls: e.className, height: r.height,
                                  bottom: r.bottom + Math.max(0, ...reach)}; })
            .filter((b) => b.height > 0);
        const top = Math.min(...Array.from(root.querySelectorAll('button.mmk-cell'))
            .map((b) => b.getBoundingClientRect().top));
        return {parts, top};
    }""")
    element_shot(c4, f"play-toggle-{jupyter.app}")
    lowest = max(p["bottom"] for p in boxes["parts"])
    assert lowest <= boxes["top"], boxes
