"""The play widget without a browser: games against the kit's search and a student's
function, New game, Undo, the side you play, the computer's last move, the values said from
the computer's side, and "Show search" (a picture of any search at its natural size).
tests/browser/test_play_widget.py checks what a browser then shows."""

from __future__ import annotations

import re
from functools import partial
from types import SimpleNamespace
from typing import Any

import matplotlib

matplotlib.use("Agg")

from minimaxkit import alphabeta, deepen, minimax  # noqa: E402
from minimaxkit.draw.model import TreeModel  # noqa: E402
from minimaxkit.draw.summary import FULL_LEAVES, search_summary  # noqa: E402
from minimaxkit.draw.tree import figsize_for  # noqa: E402
from minimaxkit.games import ConnectFour, TicTacToe  # noqa: E402
from minimaxkit.replay import fmt  # noqa: E402
from minimaxkit.widgets import PlayWidget  # noqa: E402
from minimaxkit.widgets._play_board import EMPTY_TEXT, KEPT_SETS, Board  # noqa: E402
from minimaxkit.widgets.play import evaluation_search  # noqa: E402


def first_move(game: Any, state: Any) -> Any:
    """A student's search that always plays the first legal move (a1, b1, ... in order)."""
    return game.moves(state)[0]


def texts(pw: PlayWidget) -> list[list[str]]:
    return [[b.description for b in row] for row in pw.cells]


def test_play_tictactoe_against_the_kit() -> None:
    pw = PlayWidget(TicTacToe())
    pw.cells[1][1].click()  # X in the centre
    pw.wait()  # (a click on the board returns at once; the computer replies in a thread)
    assert pw.moves[0] == 4 and len(pw.moves) == 2
    assert pw.last is not None and pw.last.value == 0 and pw.last.nodes > 0
    assert f"{pw.last.nodes:,} nodes searched" in pw.status.value
    assert pw.cells[1][1].description == "X" and pw.cells[1][1].disabled
    pw.click(4)  # the cell just played again (a double-click): ignored, without a word
    assert "not a legal move" not in pw.status.value and len(pw.moves) == 2
    pw.click(pw.moves[1])  # the computer's cell: not a legal move, and said so
    assert "not a legal move" in pw.status.value and len(pw.moves) == 2
    while not pw.over:
        pw.click(next(iter(pw.game.moves(pw.state))))
    assert "Game over" in pw.status.value
    assert pw.game.winner(pw.state) != "X"  # perfect play never loses


def test_play_against_a_students_function() -> None:
    pw = PlayWidget(TicTacToe(), search=first_move, human="O")
    assert pw.moves == [0]  # the computer (X) moved first
    assert "returned only a move" in pw.status.value

    def broken(game: Any, state: Any) -> Any:
        raise RuntimeError("oops")

    pw = PlayWidget(TicTacToe(), search=broken)
    pw.click(0)
    assert "broken raised RuntimeError: oops" in pw.status.value

    pw = PlayWidget(TicTacToe(), search=lambda g, s: 99)
    pw.click(0)
    assert "not a legal move here" in pw.status.value


def test_play_connect_four() -> None:
    pw = PlayWidget(ConnectFour(columns=5, rows=4))
    pw.cells[0][2].click()  # any cell of column 2
    pw.wait()
    assert pw.moves[0] == 2 and len(pw.moves) == 2
    assert pw.cells[3][2].description == "X"
    pw = PlayWidget(ConnectFour(columns=5, rows=4), search=partial(deepen, max_depth=3))
    pw.click(2)
    assert pw.last is not None and pw.last.nodes and "nodes searched" in pw.status.value


def test_new_game_clears_every_cell_with_a_visible_blank() -> None:
    """ipywidgets 8's button keeps its old text on screen when its description and icon
    are both empty: the board was cleared with "" and showed the last game's X and O. An
    empty cell now shows a no-break space (the browser test reads the screen)."""
    pw = PlayWidget(TicTacToe(), search=first_move)
    pw.click(4)
    pw.click(8)
    assert texts(pw) == [["O", "O", EMPTY_TEXT], [EMPTY_TEXT, "X", EMPTY_TEXT],
                         [EMPTY_TEXT, EMPTY_TEXT, "X"]]
    pw.new_game()
    assert all(t == "\u00a0" for row in texts(pw) for t in row)
    assert all(not b.disabled and b.tooltip.endswith(": empty") for row in pw.cells
               for b in row)


def test_the_computers_last_move_is_framed_and_named() -> None:
    pw = PlayWidget(TicTacToe(), search=first_move)
    pw.click(4)  # the computer answers a1 (cell 0)
    framed = [(r, c) for r, row in enumerate(pw.cells) for c, b in enumerate(row)
              if "mmk-last" in b._dom_classes]
    assert framed == [(0, 0)] and pw.cells[0][0].tooltip == "a1: O, the computer's last move"
    assert "The computer (O) played <b>a1</b> (framed with a dashed line)" in pw.status.value
    # the move and whose turn it is come first, the search's numbers after them, in grey
    # (outside student pass 8 read three lines of numbers before "X to move")
    lines = pw.status.value.split("</style>")[1].split("<br>")
    assert re.sub(r"<[^>]+>", "", lines[0]) == \
        "The computer (O) played a1 (framed with a dashed line). You are X; X to move."
    assert "color:#555555" in lines[-1] and "first_move returned only a move" in lines[-1]
    pw.click(8)  # the computer answers b1 (cell 1): the frame moves
    framed = [(r, c) for r, row in enumerate(pw.cells) for c, b in enumerate(row)
              if "mmk-last" in b._dom_classes]
    assert framed == [(0, 1)]
    c4 = PlayWidget(ConnectFour(), search=lambda g, s: 0)
    c4.click(3)  # O lands at the bottom of column 0: row 5 from the top
    assert "mmk-last" in c4.cells[5][0]._dom_classes
    assert c4.cells[5][0].tooltip == "column 0, row 0: O, the computer's last move"


def test_undo_takes_back_your_move_and_the_reply() -> None:
    pw = PlayWidget(TicTacToe(), search=first_move)
    assert pw.undo_button.disabled  # nothing to take back
    pw.click(4)
    pw.click(8)
    assert pw.moves == [4, 0, 8, 1] and not pw.undo_button.disabled
    pw.undo()
    assert pw.moves == [4, 0] and pw.state == pw.game.play(pw.game.play(
        pw.game.initial_state(), 4), 0)
    assert texts(pw)[2][2] == EMPTY_TEXT and texts(pw)[0][1] == EMPTY_TEXT
    assert "mmk-last" in pw.cells[0][0]._dom_classes  # a1 is the last reply again
    pw.undo()
    assert pw.moves == [] and pw.undo_button.disabled
    # playing O: the computer's opening stays, there is no move of yours to take back
    second = PlayWidget(TicTacToe(), search=first_move, human="O")
    second.undo()
    assert second.moves == [0] and "Nothing to undo" in second.status.value


def test_undo_after_your_winning_move_says_there_was_no_reply() -> None:
    """A game you end with your own move has no reply to take back (outside student pass 5:
    it said "and the computer's reply" after a finished game)."""
    pw = PlayWidget(TicTacToe(), search=first_move)
    for cell in (4, 8, 2, 6):  # first_move answers 0, 1, 3: X wins on the diagonal c1-b2-a3
        pw.click(cell)
    assert pw.moves == [4, 0, 8, 1, 2, 3, 6]
    pw.undo()
    assert pw.moves == [4, 0, 8, 1, 2, 3]
    assert "Took back your last move." in pw.status.value
    assert "reply" not in pw.status.value


def test_you_choose_x_or_o_on_screen() -> None:
    pw = PlayWidget(TicTacToe(), search=first_move)
    assert pw.side in pw.children and pw.side.value == "X" and pw.moves == []
    pw.side.value = "O"  # the computer opens as X: a new game
    pw.wait()
    assert pw.human == "O" and pw.moves == [0] and texts(pw)[0][0] == "X"
    assert "You are O; O to move." in pw.status.value
    assert PlayWidget(TicTacToe(), human="O").side.value == "O"


def test_values_are_said_from_the_computers_side() -> None:
    """The searches value from X's (MAX's) side; the computer playing O says its value
    for O (the negation, in a zero-sum game) and X's in brackets."""
    def says(game: Any, state: Any) -> Any:
        return SimpleNamespace(move=game.moves(state)[0], value=0.25,
                               stats=SimpleNamespace(nodes=7))

    pw = PlayWidget(TicTacToe(), search=says)
    pw.click(4)
    assert "says values it -0.25 for O (0.25 from X's side" in pw.status.value
    pw.side.value = "O"  # the computer plays X: its own side is the search's
    pw.wait()
    assert "says values it 0.25 for X, 7 nodes searched" in pw.status.value


def test_show_search_is_a_toggle_that_new_game_resets() -> None:
    pw = PlayWidget(TicTacToe())
    pw.show.value = True
    assert "no search yet" in pw.search_view.children[0].value
    assert pw.show.description == "Hide search" and pw.show.button_style == "info"
    pw.click(4)
    picture = pw.search_view.children[0]
    assert picture.png[:4] == b"\x89PNG"
    # at its natural size, never stretched nor shrunk: it scrolls sideways in its own box
    assert f"width:{picture.width}px;height:{picture.height}px" in picture.value
    assert "max-width:none" in picture.value and "overflow-x:auto" in picture.value
    pw.new_game()
    assert not pw.show.value and pw.search_view.children == ()
    assert pw.show.description == "Show search"


def test_figsize_for_a_drawing_with_no_leaf() -> None:
    """Lecture 6: after the moves 3, 3, 3, 0 "Show search" raised TypeError in
    figsize_for: the top levels of a Connect Four search hold no leaf, and
    max(chars, *()) is max(int)."""
    game = ConnectFour()
    r = alphabeta(game, game.state_from_moves("3330"), depth=3)
    top = TreeModel.of_trace(r.trace, game, r.state, max_depth=1)
    assert not top.leaves and top.n_leaves == 7
    width, height = figsize_for(top, dpi=80)
    assert 3.4 <= width <= 20 and 1.8 <= height


def test_show_search_after_the_moves_of_lecture_6() -> None:
    pw = PlayWidget(ConnectFour())
    pw.show.value = True
    for move in (3, 3):
        pw.click(move)
        assert pw.search_view.children[0].png[:4] == b"\x89PNG", pw.message


def test_a_large_search_is_summarised_at_a_readable_size() -> None:
    """A 5-ply Connect Four search reaches about 1,800 nodes: drawn whole at 80 dpi it
    would be 20 inches wide with no label. The summary draws the 7 moves (each with its
    value) and the expected line below the chosen one, and says how many it left out."""
    game = ConnectFour()
    result = alphabeta(game, game.state_from_moves("33"), depth=5)
    s = search_summary(result)
    assert s.searched > 1000 and s.drawn <= FULL_LEAVES
    counts = re.fullmatch(r"Drawn: the 7 moves from the position searched and the line the "
                          r"search expects after \d, ([\d,]+) of the ([\d,]+) nodes this "
                          r"search reached; the other ([\d,]+) are not drawn, nor the "
                          r"([\d,]+) moves it cut off unsearched\.", s.note)
    assert counts is not None, s.note
    drawn, reached, hidden, cut = (int(n.replace(",", "")) for n in counts.groups())
    # the counts add up: to the search's own count (the picture's title) and to the nodes
    # of the whole drawing (those reached and the moves cut off)
    assert drawn == s.drawn and reached == result.stats.nodes
    assert drawn + hidden == reached and reached + cut == s.searched
    assert 300 <= s.width <= 1100 and s.height <= 820
    small = alphabeta(TicTacToe(), TicTacToe().state_from_text("XOX\nOX.\n..O"))
    whole = search_summary(small)
    assert whole.note == "" and whole.drawn == whole.searched


def test_play_against_your_own_evaluation() -> None:
    """Assignment 5: a student plays against their evaluate(board), searched as the
    assignment's games search it (300 nodes a move, progressive deepening)."""
    def evaluate(board: Any) -> float:
        centre = board.column(3)
        return centre.count("X") - centre.count("O")

    pw = PlayWidget(ConnectFour(), evaluation_search(evaluate))
    pw.click(0)
    assert pw.last is not None and pw.last.nodes is not None and pw.last.nodes <= 300
    assert "your evaluate values it" in pw.status.value
    pw.show.value = True
    assert pw.search_view.children[0].png[:4] == b"\x89PNG"

    def broken(board: Any) -> float:
        return float("nan")

    bad = PlayWidget(ConnectFour(), evaluation_search(broken))
    bad.click(0)
    assert "your evaluate returned nan, expected a finite number" in bad.status.value
    assert bad.moves == [0]  # the game goes on: your move stays, no reply


def test_a_click_on_a_columns_pieces_plays_that_column() -> None:
    """Lecture 6 says "click a column": a click on the stack of pieces plays the column (it
    did nothing, without a word: outside student pass 7); a full column's pieces take no
    click, and neither does a tic-tac-toe cell that is taken."""
    pw = PlayWidget(ConnectFour(columns=4, rows=2), search=lambda g, s: 0)  # replies in 0
    pw.cells[1][3].click()  # the empty bottom cell of column 3: X there, O in column 0
    pw.wait()
    assert pw.moves == [3, 0]
    assert texts(pw)[1][3] == "X" and not pw.cells[1][3].disabled  # column 3 is not full
    pw.cells[1][3].click()  # on the X: column 3 again, its top cell
    pw.wait()
    assert pw.moves == [3, 0, 3, 0]  # (the computer fills column 0 too)
    assert texts(pw)[0][3] == "X" and pw.cells[1][3].disabled and pw.cells[0][3].disabled
    assert not pw.cells[1][1].disabled  # an empty column's bottom cell
    ttt = PlayWidget(TicTacToe(), search=lambda g, s: 8)
    ttt.cells[0][0].click()
    ttt.wait()
    assert ttt.cells[0][0].disabled and ttt.cells[2][2].disabled


def test_play_connect_four_numbers_its_columns_from_0_everywhere() -> None:
    """The text says "column 3" for the move 3: the tooltips and the numbers under the
    board count from 0 as well (lecture 5 once said 0 in its text and 1 in its tooltips)."""
    pw = PlayWidget(ConnectFour(), search=lambda g, s: 0)  # the computer always plays 0
    pw.click(3)
    assert "played <b>column 0</b>" in pw.status.value
    bottom = pw.cells[-1]
    assert bottom[3].tooltip == "column 3, row 0: X"
    assert bottom[0].tooltip == "column 0, row 0: O, the computer's last move"
    assert pw.cells[0][6].tooltip == "column 6, row 5: empty"
    numbers = [n.value for n in pw.grid.children[-7:]]
    assert [re.sub(r"<[^>]+>", "", v) for v in numbers] == [str(c) for c in range(7)]
    assert len(PlayWidget(TicTacToe()).grid.children) == 16  # 9 cells, 3 + 3 names, 1 corner


def test_play_frames_the_winning_line() -> None:
    pw = PlayWidget(ConnectFour(), search=lambda g, s: 0)
    for _ in range(4):  # X: four in column 3 (O answers in column 0)
        pw.click(3)
    assert pw.over and pw.game.winner(pw.state) == "X"
    won = {(r, c) for r, row in enumerate(pw.cells) for c, b in enumerate(row)
           if "mmk-win" in b._dom_classes}
    assert won == {(5, 3), (4, 3), (3, 3), (2, 3)}
    assert pw.cells[2][3].tooltip == "column 3, row 3: X, in the winning line"
    assert ("Game over: X wins, you win.</b> The winning line is framed in black: its cells "
            "as (column, row), rows counted from 0 at the bottom, are (3, 0), (3, 1), (3, 2) "
            "and (3, 3).") in pw.status.value  # (the board names its columns only: pass 5)
    assert ".mmk-win" in pw.status.value  # its frame, drawn by CSS (a shape, not a colour)
    pw.new_game()
    assert not any("mmk-win" in b._dom_classes for row in pw.cells for b in row)
    ttt = PlayWidget(TicTacToe(), search=lambda g, s: g.moves(s)[0])
    for move in (2, 5, 8):  # X down column c (O fills a1, b1 ... from the start)
        ttt.click(move)
    assert ttt.game.winner(ttt.state) == "X" and "black: c1, c2 and c3" in ttt.status.value


class HeldSearch:
    """A search that holds its answer until the test lets it go (the computer "thinking"
    as long as the test likes); it plays the first legal move."""

    def __init__(self) -> None:
        import threading

        self.go = threading.Event()
        self.searched: list[Any] = []
        self.__name__ = "held"

    def __call__(self, game: Any, state: Any) -> Any:
        self.searched.append(state)
        assert self.go.wait(30), "the test never let the search answer"
        return game.moves(state)[0]


def test_a_click_while_the_computer_thinks_is_not_played() -> None:
    """Student 3 clicked column 5 and, 0.18 s later, column 4: both were played, the
    second as their next move before they had seen the reply. Now the first click shows
    its disc at once, the board takes no move while the search runs, and says so."""
    search = HeldSearch()
    pw = PlayWidget(ConnectFour(), search=search)
    pw.cells[0][5].click()
    assert pw.thinking and pw.cells[5][5].description == "X"  # your disc at once
    assert all(b.disabled for row in pw.cells for b in row)  # the board takes no move
    assert pw.undo_button.disabled
    assert "the computer is thinking…" in pw.status.value
    pw.cells[0][4].click()  # the impatient second click
    assert pw.moves == [5] and "that click was not played" in pw.status.value
    assert pw.cells[5][4].description == EMPTY_TEXT
    search.go.set()
    pw.wait()
    assert pw.moves == [5, 0] and len(search.searched) == 1  # one reply, to column 5
    assert "played <b>column 0</b>" in pw.status.value and "X to move" in pw.status.value
    assert "Your click while the computer was thinking was not played." in pw.status.value
    assert not pw.cells[5][4].disabled  # your turn again
    pw.click(4)
    assert pw.moves == [5, 0, 4, 0] and "not played" not in pw.status.value


def test_a_burst_of_clicks_plays_only_the_first_even_when_the_reply_comes_first() -> None:
    """Student 4's burst in lecture 6: column 3 at 0 ms, column 6 at 120 ms and at 200
    ms, all sent while the status said the computer was thinking; the kernel got the last
    one after the reply was on the board, and played it: two of their moves from one
    burst. Here the clicks are made on the buttons the front end had on screen (``shown``)
    and reach the widget as they did: the second while the search runs, the third after
    the reply. Only column 3 is played, and the status says the others were not, counted
    (student pass 6 read "Your click ... was not played" after a burst of two)."""
    search = HeldSearch()
    pw = PlayWidget(ConnectFour(), search=search)
    shown = pw.cells  # the board on screen when the burst starts
    shown[0][3].click()
    shown[0][6].click()  # while the computer thinks
    assert pw.moves == [3] and "that click was not played" in pw.status.value
    search.go.set()
    pw.wait()
    assert pw.moves == [3, 0]
    said = pw.status.value
    assert "Your click while the computer was thinking was not played." in said, said
    shown[0][6].click()  # sent before the reply was on screen, arriving after it
    assert pw.moves == [3, 0], "a click made on the old board was played"
    assert texts(pw)[5][6] == EMPTY_TEXT and not pw.cells[5][6].disabled
    said = pw.status.value
    assert "Your 2 clicks while the computer was thinking were not played." in said, said
    assert "X to move" in said
    pw.cells[0][6].click()  # a click on the board of the student's turn is played
    pw.wait()
    assert pw.moves == [3, 0, 6, 0] and "not played" not in pw.status.value
    shown = pw.cells  # the count starts again after a move that is played
    shown[0][2].click()
    pw.wait()
    shown[0][4].click()  # from the board before the reply
    assert "Your click while the computer was thinking was not played." in pw.status.value


def test_clicks_not_played_are_counted_while_the_computer_thinks_and_after() -> None:
    """Outside student pass 7 read "that click was not played" after three clicks."""
    search = HeldSearch()
    pw = PlayWidget(ConnectFour(), search=search)
    for column in (3, 0, 6, 1):  # one played, three not
        pw.cells[0][column].click()
    assert "(those 3 clicks were not played)" in pw.status.value
    search.go.set()
    pw.wait()
    assert pw.moves == [3, 0]
    assert "Your 3 clicks while the computer was thinking were not played." in pw.status.value


def test_a_click_checked_as_the_search_ends_is_not_played() -> None:
    """Outside student pass 7: in 2 of 14 bursts of three clicks in lecture 6, two were
    played. A click is checked against the board on screen and then played; the search's
    thread could end between the two (new board, reply played), and the click, checked
    against the old board, was then played on the new one. Here the thread is let end at
    exactly that moment: the click is refused, and only the reply follows the first move."""
    search = HeldSearch()
    pw = PlayWidget(ConnectFour(), search=search)
    shown = pw.cells
    shown[0][4].click()
    assert pw.thinking
    thinker = pw._thinker
    assert thinker is not None
    play = pw.play

    def play_once_the_search_may_end(move: Any) -> None:
        search.go.set()
        thinker.join(0.5)  # the reply ends here unless the click holds the board
        play(move)

    pw.play = play_once_the_search_may_end  # type: ignore[method-assign]
    shown[0][3].click()  # checked against the board the burst started on
    pw.play = play  # type: ignore[method-assign]
    pw.wait()
    assert pw.moves == [4, 0], pw.moves
    assert "not played" in pw.status.value


def test_every_dropped_click_is_said_and_a_double_click_is_not() -> None:
    """A click that arrives after the reply, from the board before it, is dropped with
    the same note as one made while the computer thinks (the note was missing for some);
    a double-click on the cell just played (both clicks reaching the widget before or
    after the reply) plays one move and says nothing: student 4 read "c3 is not a legal
    move." after a plain double-click."""
    late = PlayWidget(ConnectFour(), search=first_move)  # (replies before the 2nd click)
    shown = late.cells
    shown[0][3].click()
    late.wait()
    shown[0][5].click()
    assert late.moves == [3, 0]
    assert "Your click while the computer was thinking was not played." in late.status.value
    for held in (False, True):
        search = HeldSearch()
        ttt = PlayWidget(TicTacToe(), search=search)
        shown = ttt.cells
        shown[2][2].click()  # c3
        if not held:
            search.go.set()
            ttt.wait()
        shown[2][2].click()  # the double-click's second click
        search.go.set()
        ttt.wait()
        assert ttt.moves == [8, 0], held
        assert "not" not in re.sub(r"<[^>]+>", "", ttt.status.value.split("</style>")[-1]), \
            ttt.status.value


def test_tictactoe_two_quick_clicks_play_one_move() -> None:
    search = HeldSearch()
    pw = PlayWidget(TicTacToe(), search=search)
    pw.cells[1][1].click()
    pw.cells[2][2].click()
    assert texts(pw)[1][1] == "X" and texts(pw)[2][2] == EMPTY_TEXT
    search.go.set()
    pw.wait()
    assert pw.moves == [4, 0] and texts(pw)[0][0] == "O"


def test_new_game_while_the_computer_thinks_drops_its_reply() -> None:
    search = HeldSearch()
    pw = PlayWidget(TicTacToe(), search=search)
    assert not pw.thinking  # (no search before your first move)
    pw.cells[1][1].click()
    thinker = pw._thinker
    pw.new_game()
    assert not pw.thinking and pw.moves == []
    search.go.set()
    assert thinker is not None
    thinker.join(30)
    assert pw.moves == [] and all(t == EMPTY_TEXT for row in texts(pw) for t in row)


def test_show_search_of_a_deepening_search_tells_one_story() -> None:
    """Student 3 read three node counts for one reply of lecture 6's widget that did not
    add up: 2,000 nodes in the text (every iteration), 721 in the picture's title (the
    deepest completed one) and "2,400 other nodes searched" in the note (nodes reached
    and moves cut off, counted together). Now the text splits its count into the deepest
    completed search (the picture's) and the rest, and the note splits that search into
    drawn, not drawn and cut off."""
    pw = PlayWidget(ConnectFour(), search=partial(deepen, node_budget=2000))
    pw.show.value = True
    pw.click(3)
    result, reply = pw.result, pw.last
    assert reply is not None and reply.nodes == result.total_nodes == 2000
    deepest = result.iterations[-1]
    status = re.sub(r"<[^>]+>", "", pw.status.value.split("</style>")[1])
    told = re.search(r"([\d,]+) nodes searched in all: ([\d,]+) by its deepest completed "
                     r"search \(depth (\d+), the one Show search draws\) and ([\d,]+) by the "
                     r"shallower ones and the one the budget cut short;", status)
    assert told is not None, status
    total, last, depth, rest = (int(n.replace(",", "")) for n in told.groups())
    assert total == 2000 and last == deepest.stats.nodes and last + rest == total
    assert depth == deepest.options["depth"] == result.depth
    note = pw.search_view.children[1].value
    counted = re.search(r", ([\d,]+) of the ([\d,]+) nodes this search reached; the other "
                        r"([\d,]+) are not drawn", note)
    assert counted is not None, note
    drawn, reached, hidden = (int(n.replace(",", "")) for n in counted.groups())
    assert reached == last and drawn + hidden == reached
    # the picture is this reply's: its text alternative gives this search's value and count
    alt = pw.search_view.children[0].alt
    assert f"value {fmt(deepest.value)}, {last} nodes" in alt, alt


def test_show_search_is_cleared_while_the_computer_thinks() -> None:
    """The picture lagged the text: for a moment it showed the last move's search beside
    the new reply's words. While the next search runs, the view says so; the picture,
    the board and the text then change together."""
    search = HeldSearch()
    pw = PlayWidget(TicTacToe(), search=search)
    pw.show.value = True
    pw.cells[1][1].click()
    assert "thinking" in pw.search_view.children[0].value
    search.go.set()
    pw.wait()
    assert "returned only a move" in pw.search_view.children[0].value


def test_tictactoe_board_names_its_rows_and_columns_as_the_moves_are_named() -> None:
    """The text says "a1", "b2": the board shows a, b, c over its columns and 1, 2, 3
    left of its rows, so a1 can be found (top left, not a chess board's bottom left)."""
    pw = PlayWidget(TicTacToe())
    buttons = {id(b) for row in pw.cells for b in row}
    names = [re.sub(r"<[^>]+>", "", c.value) for c in pw.grid.children
             if id(c) not in buttons]
    assert names == ["", "a", "b", "c", "1", "2", "3"]
    grid = list(pw.grid.children)
    for row in pw.cells:
        for c, button in enumerate(row):
            at = grid.index(button)
            row_name = re.sub(r"<[^>]+>", "", grid[at - c - 1].value)
            column_name = re.sub(r"<[^>]+>", "", grid[1 + c].value)
            assert button.tooltip.startswith(f"{column_name}{row_name}: "), button.tooltip


def test_the_search_pictures_img_says_what_it_shows_also_when_the_tree_is_whole() -> None:
    """Student 4 found the search picture's <img> with an empty alt; late in a game the
    whole search is drawn and no sentence under it said anything. The <img> now carries a
    text alternative: the search, its value and node count, what each move is worth, and
    how much of the search is drawn."""
    from html import unescape

    pw = PlayWidget(TicTacToe(), search=partial(minimax, depth=2), human="O")
    pw.show.value = True
    for _ in range(2):  # late enough that the whole search is drawn (its 3rd reply)
        pw.click(pw.game.moves(pw.state)[0])
    picture = pw.search_view.children[0]
    result = pw.result
    alt = re.search(r"<img [^>]*alt='([^']*)'", picture.value)
    assert alt is not None, picture.value[:300]
    said = unescape(alt.group(1))
    assert said == picture.alt
    assert f"value {fmt(result.value)}, {result.stats.nodes} nodes" in said, said
    assert f"The whole search is drawn: {result.stats.nodes} nodes." in said, said
    assert "Each move from the position searched and its value: " in said, said
    assert pw.search_view.children[1].value == ""  # (no sentence under the picture)


def test_each_moves_name_is_written_above_its_own_child() -> None:
    """Student 4 could not tell which child a move's name named: it sat beside the child,
    half-way to the neighbour (left of the child in the left half, right of it in the
    right half). Each name is now centred above its own node, in the picture's pixels:
    nearer its own node's centre than any other node's, and above the node."""
    from minimaxkit.draw.summary import summary_figure

    game = TicTacToe()
    state = game.initial_state()
    for move in (4, 0, 8):
        state = game.play(state, move)
    result = minimax(game, state, depth=2)
    fig, art, _ = summary_figure(result)
    fig.canvas.draw()
    ax, names, nodes = art["ax"], art["names"], art["view"].model.pos
    assert len([p for p in names if len(p) == 1]) == 6  # every move from the root is named
    for p, text in names.items():
        if not p:
            continue  # ("root", left of the root: it has no edge)
        box = text.get_window_extent()
        cx, cy = (box.x0 + box.x1) / 2, (box.y0 + box.y1) / 2
        at = {q: ax.transData.transform(xy) for q, xy in nodes.items()}
        nearest = min(at, key=lambda q: (at[q][0] - cx) ** 2 + (at[q][1] - cy) ** 2)
        assert nearest == p, (text.get_text(), p, nearest)
        assert abs(cx - at[p][0]) < 1 and cy > at[p][1], (text.get_text(), p)
    assert [names[p].get_text() for p in sorted(names) if len(p) == 1] == [
        game.move_name(m) for m in game.moves(state)]


def test_a_bound_every_value_meets_is_drawn_as_unknown() -> None:
    """Student 4 saw, late in a Connect Four game that O wins at once, the other six moves
    drawn "≥-1": a bound equal to the worst value of the game, true of every node. With
    the game's value range known, such a bound is drawn "?", the legend says what "?"
    means, and the picture's text alternative says "no bound known". (O has three in
    column 0; X has 1, 3, 4 and 6 on the bottom row; O to move; the clamped fail-hard
    search cuts each other move at β = -1 and returns -1 for it.)"""
    from minimaxkit.draw.summary import summary_figure
    from minimaxkit.widgets._play_picture import search_alt

    game = ConnectFour()
    assert game.value_range == (-1, 1)
    result = alphabeta(game, game.state_from_moves("3040601"), depth=3, fail="hard")
    assert result.move == 0 and result.value == -1
    fig, art, _ = summary_figure(result)
    shown = {p[0]: t.get_text() for p, t in art["values"].items() if len(p) == 1}
    assert shown == {0: "-1", 1: "?", 2: "?", 3: "?", 4: "?", 5: "?", 6: "?"}, shown
    legend = [t.get_text() for t in art["legend"].get_texts()]
    assert "?: no bound known (any value)" in legend, legend
    alt = search_alt(result, connect4=True)
    assert "1: no bound known" in alt and "≥-1" not in alt, alt
    # a bound that does say something is drawn as it was
    soft = alphabeta(game, game.state_from_moves("3040601"), depth=3)
    fig, art, _ = summary_figure(soft)
    assert "?" not in [t.get_text() for t in art["values"].values()]
    assert "?: no bound known (any value)" not in [
        t.get_text() for t in art["legend"].get_texts()]


def test_a_board_keeps_its_last_sets_of_buttons_open_for_late_clicks() -> None:
    """A click that comes two boards late still reaches the widget (and is not played): a
    closed button's click reached nothing, and JupyterLab logged "No such comm" (outside
    student pass 7); only sets older than ``KEPT_SETS`` are closed."""
    clicks: list[tuple[int, int, int]] = []
    board = Board(1, 2, connect4=True, on_click=lambda r, c, g: clicks.append((r, c, g)),
                  where=lambda r, c: f"column {c}")
    sets = [board.cells]
    for _ in range(KEPT_SETS + 1):
        board.renew()
        sets.append(board.cells)
    sets[-3][0][1].click()  # two boards late
    assert clicks == [(0, 1, board.generation - 2)]
    assert sets[0][0][0].comm is None  # the oldest set is closed
    assert all(b.comm is not None for s in sets[1:] for b in s[0])
