"""Every search option against an independent, minimal alpha-beta written here.

The reference below shares no code with the kit: it is the textbook recursion with MAX and
MIN written out, the six conventions as a cut rule and a fail mode, and child ordering done
by sorting. Each case compares the kit's value, best move and (without a table) the leaves in order;
with ``tt=True`` the value and move must be exactly those of the search without it.

Games with real transpositions: Nim (heaps up to 4), tic-tac-toe positions, and a random
DAG game defined here, where many paths reach one state and players need not alternate;
and random explicit trees with many tied values.
"""

from __future__ import annotations

import itertools
import math
import random
from collections.abc import Sequence
from typing import Any

import pytest

from minimaxkit import GameTree, TranspositionTable, alphabeta, iter_deepen, minimax, negamax
from minimaxkit.games import Nim, TicTacToe

INF = math.inf


# ----- the independent reference ------------------------------------------------------------
def true_value(game: Any, st: Any, rem: int | None, memo: dict[Any, float]) -> float:
    """Plain minimax to ``rem`` more moves (None: to the end)."""
    key = (st, rem)
    if key not in memo:
        moves = game.moves(st)
        if not moves or rem == 0:
            memo[key] = game.evaluate(st)
        else:
            vals = [true_value(game, game.play(st, m), None if rem is None else rem - 1, memo)
                    for m in moves]
            memo[key] = max(vals) if game.is_max(st) else min(vals)
    return memo[key]


def ordered(game: Any, st: Any, rem: int | None, order: Any, memo: dict[Any, float]) -> list[int]:
    moves = list(game.moves(st))
    if order is None:
        return list(range(len(moves)))
    if order == "static":
        keys = [game.evaluate(game.play(st, m)) for m in moves]
    elif order == "perfect":
        keys = [true_value(game, game.play(st, m), None if rem is None else rem - 1, memo)
                for m in moves]
    else:
        keys = [order(game, st, m) for m in moves]
    if game.is_max(st):
        return sorted(range(len(moves)), key=lambda i: -keys[i])
    return sorted(range(len(moves)), key=lambda i: keys[i])


def reference(game: Any, st: Any, *, depth: int | None, window: tuple[float, float],
              fail: str, on_equal: bool, order: Any) -> tuple[float, int | None, list[tuple]]:
    """(value, best child index, leaves in order) of alpha-beta under one convention: ``fail``
    "soft" returns the best value found, "one-sided" starts it at the node's own bound (α at
    MAX, β at MIN), "hard" does too and clamps it into [α, β] at the end."""
    leaves: list[tuple] = []
    memo: dict[Any, float] = {}

    def search(st: Any, path: tuple, d: int, alpha: float, beta: float) -> tuple[float, Any]:
        moves = game.moves(st)
        if not moves or d == depth:
            leaves.append(path)
            return game.evaluate(st), None
        rem = None if depth is None else depth - d
        best = None
        if game.is_max(st):
            v = -INF if fail == "soft" else alpha
            for i in ordered(game, st, rem, order, memo):
                cv, _ = search(game.play(st, moves[i]), path + (i,), d + 1, alpha, beta)
                if best is None or cv > v:
                    best, v = i, max(v, cv)
                if v >= beta if on_equal else v > beta:
                    break
                alpha = max(alpha, v)
            if fail == "hard":
                v = min(v, beta)
        else:
            v = INF if fail == "soft" else beta
            for i in ordered(game, st, rem, order, memo):
                cv, _ = search(game.play(st, moves[i]), path + (i,), d + 1, alpha, beta)
                if best is None or cv < v:
                    best, v = i, min(v, cv)
                if v <= alpha if on_equal else v < alpha:
                    break
                beta = min(beta, v)
            if fail == "hard":
                v = max(v, alpha)
        return v, best

    value, best = search(st, (), 0, *window)
    return value, best, leaves


# ----- games --------------------------------------------------------------------------------
class DagGame:
    """States 0..n-1; moves go to higher-numbered states, so many paths meet (real
    transpositions). Each state has its own player and a value from a small range (ties)."""

    def __init__(self, seed: int, n: int = 40) -> None:
        rng = random.Random(seed)
        self.succ = {s: sorted(rng.sample(range(s + 1, n), k=min(n - s - 1, rng.randint(0, 3))))
                     for s in range(n)}
        for s in range(n // 2):  # no terminal near the top
            if not self.succ[s]:
                self.succ[s] = [s + 1]
        self.player = {s: rng.random() < 0.5 for s in range(n)}
        self.values = {s: rng.randint(-3, 3) for s in range(n)}
        self.value_range = (-3, 3)

    def initial_state(self) -> int:
        return 0

    def moves(self, state: int) -> Sequence[int]:
        return self.succ[state]

    def play(self, state: int, move: int) -> int:
        return move

    def is_max(self, state: int) -> bool:
        return self.player[state]

    def evaluate(self, state: int) -> float:
        return self.values[state]


def by_parity(game: Any, state: Any, move: Any) -> float:
    """An ordering key of the user's kind: any function of (game, state, move)."""
    return hash((state, move)) % 7


CONVENTIONS = [(fail, eq) for fail in ("soft", "hard", "one-sided") for eq in (True, False)]
ORDERS = [None, "static", "perfect", by_parity]


def cases() -> list[tuple[str, Any, Any, list[int | None]]]:
    ttt = TicTacToe()
    positions = ["XO.\n.X.\nO..", "X..\n.O.\n..X", "XOX\n.O.\n..X", "X.O\n...\n..."]
    out: list[tuple[str, Any, Any, list[int | None]]] = []
    for heaps in [(2, 2, 1), (1, 3, 4), (2, 3), (4, 4)]:
        out.append((f"nim{heaps}", Nim(heaps), None, [None, 2, 3, 6]))
    for text in positions:
        out.append((f"ttt[{text!r}]", ttt, ttt.state_from_text(text), [None, 1, 2, 3]))
    for seed in range(6):
        out.append((f"dag{seed}", DagGame(seed), None, [None, 1, 2, 4]))
    for seed in range(10):
        tree = GameTree.random(depth=4, branching=(1, 3), values=(0, 4), seed=seed)
        out.append((f"tree{seed}", tree.with_static(seed=seed), None, [None, 1, 2, 3]))
    return out


@pytest.mark.parametrize("name,game,state,depths", cases(), ids=[c[0] for c in cases()])
def test_every_option_matches_the_reference(name: str, game: Any, state: Any,
                                            depths: list[int | None]) -> None:
    start = game.initial_state() if state is None else state
    checked = 0
    for depth, (fail, eq), order in itertools.product(depths, CONVENTIONS, ORDERS):
        exact = true_value(game, start, depth, {})
        for window in [(-INF, INF), (exact - 1, exact + 1), (exact, exact + 2),
                       (exact - 3, exact - 1), (exact + 0.5, exact + 4)]:
            want, move, leaves = reference(game, start, depth=depth, window=window,
                                           fail=fail, on_equal=eq, order=order)
            for search in (alphabeta, negamax):
                for tt in (False, True):
                    r = search(game, state, depth=depth, window=window, fail=fail,
                               prune_on_equal=eq, order=order, tt=tt)
                    where = (f"{name} {search.__name__} depth={depth} fail={fail} "
                             f"prune_on_equal={eq} order={order} window={window} tt={tt}")
                    assert r.value == want, where
                    best = None if r.trace is None else r.trace.best_moves.get(())
                    assert best == move, where
                    if not tt:
                        assert r.trace is not None and r.trace.leaves == leaves, where
                    checked += 1
            if window == (-INF, INF):
                assert want == exact, f"{name}: the reference itself disagrees with minimax"
        for tt in (False, True):
            assert minimax(game, state, depth=depth, order=order, tt=tt).value == exact
    assert checked > 0


# ----- the classic table: bounds that cut, best moves first -----------------------------------
@pytest.mark.parametrize("name,game,state,depths", cases(), ids=[c[0] for c in cases()])
def test_the_classic_table_keeps_the_root_value_and_move(name: str, game: Any, state: Any,
                                                          depths: list[int | None]) -> None:
    """A TranspositionTable changes the work, never the root's value and best move; every
    entry it keeps is true: an exact value is the position's value searched to the entry's
    remaining depth, a lower bound is at most that value, an upper bound at least."""
    start = game.initial_state() if state is None else state
    memo: dict[Any, float] = {}
    for depth, (fail, eq), order in itertools.product(depths, CONVENTIONS, (None, "static")):
        want, move, _ = reference(game, start, depth=depth, window=(-INF, INF), fail=fail,
                                  on_equal=eq, order=order)
        table = TranspositionTable()
        r = alphabeta(game, state, depth=depth, fail=fail, prune_on_equal=eq, order=order,
                      table=table)
        where = f"{name} depth={depth} fail={fail} prune_on_equal={eq} order={order}"
        assert r.value == want and r.trace is not None, where
        assert r.trace.best_moves.get(()) == move, where
        for st in table:
            entry = table[st]
            true = true_value(game, st, None if entry.depth < 0 else entry.depth, memo)
            assert {"exact": entry.value == true, "lower": entry.value <= true,
                    "upper": entry.value >= true}[entry.flag], (where, st, entry, true)
    if name.startswith(("nim", "ttt")):  # positions reached by different move orders
        assert any(alphabeta(game, state, depth=d, table=TranspositionTable()).stats.tt_hits
                   for d in depths), name


@pytest.mark.parametrize("name,game,state,depths", cases(), ids=[c[0] for c in cases()])
def test_deepening_with_a_table_answers_as_without(name: str, game: Any, state: Any,
                                                   depths: list[int | None]) -> None:
    for fail, eq in CONVENTIONS:
        plain = list(iter_deepen(game, state, max_depth=5, fail=fail, prune_on_equal=eq))
        tabled = list(iter_deepen(game, state, max_depth=5, fail=fail, prune_on_equal=eq,
                                  table=TranspositionTable()))
        assert [(r.value, r.move) for r in tabled] == [(r.value, r.move) for r in plain], \
            (name, fail, eq)
