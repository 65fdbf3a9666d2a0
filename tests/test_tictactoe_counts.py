"""The tic-tac-toe figures every course quotes, reproduced by the kit's searches."""

from __future__ import annotations

import math

from minimaxkit import alphabeta, deepen, minimax, negamax, simple_pruning
from minimaxkit.games import TicTacToe


def test_full_minimax_counts():
    r = minimax(TicTacToe(), trace=False)
    assert r.value == 0
    assert (r.stats.nodes, r.stats.leaves) == (549_946, 255_168)
    assert r.trace is None


def test_traced_and_untraced_agree():
    a = alphabeta(TicTacToe())
    b = alphabeta(TicTacToe(), trace=False)
    assert a.stats == b.stats == a.trace.stats
    assert a.stats.nodes == 18_297
    assert (a.value, a.move, a.pv) == (b.value, b.move, b.pv)


def test_negamax_on_a_game():
    assert negamax(TicTacToe()).stats.nodes == 18_297


def test_infinite_terminal_values():
    g = TicTacToe(win_value=math.inf)
    assert alphabeta(g).value == 0
    won = g.state_from_text("XX.\nOO.\n...")
    r = minimax(g, won)
    assert (r.value, r.move) == (math.inf, 2)
    # simple pruning stops at the first winning move, plain minimax does not
    assert simple_pruning(g, won).stats.nodes < r.stats.nodes


def test_transposition_table_keeps_the_value_and_saves_work():
    plain = alphabeta(TicTacToe(), trace=False)
    tt = alphabeta(TicTacToe(), tt=True, trace=False)
    assert tt.value == plain.value
    assert tt.stats.tt_hits > 0 and tt.stats.nodes < plain.stats.nodes
    full = minimax(TicTacToe(), tt=True, trace=False)
    assert full.value == 0 and full.stats.nodes < 549_946


def test_deepening_solves_tic_tac_toe():
    r = deepen(TicTacToe(), max_depth=12)
    assert r.value == 0 and r.stopped == "solved"
    assert [it.options["depth"] for it in r.iterations] == list(range(1, 11))
