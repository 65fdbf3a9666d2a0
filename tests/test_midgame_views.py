"""A search that started mid-game is drawn from the position it started at, in every view:
the result shown at the end of a cell, draw_tree, the step and compare widgets and the play
widget's "Show search". Its root's children are that position's moves, not the first cells
of an empty board."""

from __future__ import annotations

import re
from functools import partial

import matplotlib

matplotlib.use("Agg")

import pytest  # noqa: E402

from minimaxkit import alphabeta, deepen, minimax  # noqa: E402
from minimaxkit.draw import draw_tree, result_png, tree_png  # noqa: E402
from minimaxkit.draw.model import resolve  # noqa: E402
from minimaxkit.draw.render import MAX_RESULT_NODES, _result_figure, result_title  # noqa: E402
from minimaxkit.games import TicTacToe  # noqa: E402
from minimaxkit.widgets import CompareWidget, PlayWidget, StepWidget  # noqa: E402

PNG = b"\x89PNG\r\n\x1a\n"
G = TicTacToe()
#: O to move; its empty cells, in the game's move order, are a2, c2, a3, b3
XOX = G.state_from_text("XOX\n.O.\n..X")
ROOT_MOVES = ["a2", "c2", "a3", "b3"]


def child_names(art: dict) -> list[str]:
    return [art["names"][p].get_text() for p in sorted(art["names"]) if len(p) == 1]


def test_the_position_and_its_moves() -> None:
    assert [G.move_name(m) for m in G.moves(XOX)] == ROOT_MOVES
    r = alphabeta(G, XOX)
    assert r.state == XOX and G.move_name(r.move) == "c2"


@pytest.mark.parametrize("search", [alphabeta, minimax])
def test_draw_tree_and_its_model_name_the_positions_moves(search) -> None:
    r = search(G, XOX)
    model, replay = resolve(r)
    assert [model.names[p] for p in model.children[()]] == ROOT_MOVES
    assert replay is not None and replay.root_state == XOX
    art = draw_tree(r)
    assert child_names(art) == ROOT_MOVES
    # the principal variation drawn starts at the best move, c2
    pv = replay.frame(len(replay) - 1).pv
    assert model.names[pv[1]] == "c2"


def test_the_result_picture_equals_the_drawing_from_the_explicit_state() -> None:
    r = alphabeta(G, XOX)
    assert len(r.trace) <= 2 * MAX_RESULT_NODES  # drawn whole
    shown = r._repr_png_()
    assert shown is not None and shown[:8] == PNG
    assert shown == tree_png(r.trace, game=G, state=XOX, title=result_title(r))
    wrong = tree_png(r.trace, game=G, state=G.initial_state(), title=result_title(r))
    assert shown != wrong  # the test can tell the two roots apart


def test_a_large_search_from_mid_game_is_drawn_two_levels_deep_from_its_position() -> None:
    # this used to raise IndexError: the first cells of an empty board are not all legal here
    start = G.state_from_text("XO.\n...\n...")
    r = alphabeta(G, start)
    assert len(r.trace) > 2 * MAX_RESULT_NODES  # the top-levels picture
    assert result_png(r)[:8] == PNG
    fig = _result_figure(r, 80)
    depth1 = [t.get_text() for ax in fig.axes for t in ax.texts
              if round(t.get_position()[1]) == -1 and re.fullmatch(r"[abc][123]", t.get_text())]
    assert depth1 == [G.move_name(m) for m in G.moves(start)]
    assert "a1" not in depth1 and "b1" not in depth1


def test_step_widget_draws_and_explains_from_the_start() -> None:
    r = alphabeta(G, XOX)
    sw = StepWidget(r)
    assert sw.panel.draw and sw.panel.state == XOX
    view = sw.panel._renderer().view
    assert [view.names[p].get_text() for p in view.model.children[()]] == ROOT_MOVES
    sw.value = sw.steps
    assert "c2" in sw.explanation
    assert sw.panel.tree_png(sw.steps)[:8] == PNG
    assert StepWidget(alphabeta(G, G.state_from_text("XO.\n...\n..."))).steps > 0


def test_compare_widget_of_two_mid_game_searches() -> None:
    a, b = alphabeta(G, XOX), alphabeta(G, XOX, order="perfect")
    cw = CompareWidget(a, b, labels=("natural", "perfect"))
    for panel in cw.panels:
        assert panel.state == XOX
        view = panel._renderer().view
        assert [view.names[p].get_text() for p in view.model.children[()]] == ROOT_MOVES
    assert cw.divergence is not None
    note = cw.note.value
    assert re.search(r"natural enters [abc][123] while perfect enters [abc][123] \(marked ★\)",
                     note), note
    cw.value = cw.steps
    assert all(p.tree_png(min(cw.value, p.frames - 1))[:8] == PNG for p in cw.panels)
    assert StepWidget.compare(a, b).steps == cw.steps


def test_play_widget_shows_the_last_search_from_where_it_started() -> None:
    pw = PlayWidget(G)
    pw.show.value = True
    assert "no search yet" in pw.search_view.children[0].value
    pw.click(4)  # X in the centre; O's search starts from that position
    assert pw.result is not None and pw.result.state == G.play(G.initial_state(), 4)
    image = pw.search_view.children[0]
    assert image.png[:8] == PNG
    fig = _result_figure(pw.result, 80)
    depth1 = [t.get_text() for ax in fig.axes for t in ax.texts
              if round(t.get_position()[1]) == -1 and re.fullmatch(r"[abc][123]", t.get_text())]
    assert depth1 == ["a1", "b1", "c1", "a2", "c2", "a3", "b3", "c3"]  # b2 is taken
    pw.show.value = False
    assert pw.search_view.children == ()
    only_moves = PlayWidget(G, search=lambda g, s: g.moves(s)[0])
    only_moves.show.value = True
    only_moves.click(4)
    assert "returned only a move" in only_moves.search_view.children[0].value
    deepening = PlayWidget(G, search=partial(deepen, max_depth=3))
    deepening.show.value = True
    deepening.click(4)
    assert deepening.search_view.children[0].png[:8] == PNG  # its deepest search
    untraced = PlayWidget(G, search=lambda g, s: alphabeta(g, s, trace=False))
    untraced.show.value = True
    untraced.click(4)
    assert "no trace" in untraced.search_view.children[0].value
