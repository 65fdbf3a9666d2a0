"""The checks behind ``check(name, ...)``: each runs a reader's answer against the kit and
returns ``(ok, message)``. A reader's function that raises, loops, returns nothing or calls
the kit's own search is reported through :class:`Failed`, never raised to the notebook
(see ``_reader``). Search exercises are checked on trees that reach every case (depth 5
and 6, MIN roots, ties); an answer in the other correct convention (strict cuts) passes
with a note saying what the course does.
"""

from __future__ import annotations

import math
from collections.abc import Callable
from typing import Any

from ..bounds import knuth_moore_leaves
from ..deepening import deepen
from ..examples import aima_5_2, sheet_binary, sheet_tree
from ..games import ConnectFour, TicTacToe
from ..search import _sorted_indices, alphabeta, minimax
from ..student import Recorder
from ..tree import GameTree
from ._reader import Counting, Failed, call, number_or_note

__all__ = ["Failed", "Result"]

Result = tuple[bool, str]
_call = call


def _random_trees(n: int, **options: Any) -> list[GameTree]:
    return [GameTree.random(seed=seed, **options) for seed in range(n)]


def _deep_trees(n: int, *, depth: int = 5) -> list[GameTree]:
    """``n`` random trees of ``depth`` with ties (values 0 to 9), MAX and MIN roots in turn:
    β from above reaches interior MAX nodes, and α interior MIN nodes."""
    return [GameTree.random(depth=depth, branching=(2, 3), values=(0, 9), seed=seed,
                            root="max" if seed % 2 == 0 else "min") for seed in range(n)]


# ----- the checks ------------------------------------------------------------------------------
def check_count(count: Any) -> Result:
    game = TicTacToe()
    sheet, deep = sheet_tree(), _deep_trees(2)[1]
    cases = [("the example sheet's tree", sheet, sheet.root),
             ("a random depth-5 tree with a MIN root", deep, deep.root),
             ("tic-tac-toe after 3 moves", game, game.state_from_text("X.. .O. ..X")),
             ("tic-tac-toe", game, game.initial_state())]
    for label, g, state in cases:
        stats = minimax(g, state, trace=False).stats
        got = _call(count, g, state)
        if not isinstance(got, (tuple, list)) or len(got) != 2:
            return False, f"expected a pair (nodes, leaves), got {got!r}"
        if tuple(got) == (stats.leaves, stats.nodes) != (stats.nodes, stats.leaves):
            return False, "the pair is the wrong way round: return (nodes, leaves)"
        if tuple(got) != (stats.nodes, stats.leaves):
            return False, (f"on {label} it returns {tuple(got)}; the tree has {stats.nodes} "
                           f"nodes and {stats.leaves} leaves")
    return True, (f"all {len(cases)} right, tic-tac-toe included: {stats.nodes} nodes, "
                  f"{stats.leaves} leaves.")


def check_positions(positions: Any) -> Result:
    game = TicTacToe()
    seen, todo = set(), [game.initial_state()]
    while todo:
        state = todo.pop()
        if state not in seen:
            seen.add(state)
            todo.extend(game.play(state, m) for m in game.moves(state))
    got = _call(positions, game, game.initial_state())
    if isinstance(got, (list, tuple)) and set(got) == seen:
        return False, (f"the right {len(seen)} positions, but as a {type(got).__name__}: "
                       "return a set")
    if not isinstance(got, (set, frozenset)):
        return False, f"expected a set of states, got {type(got).__name__}"
    if got != seen:
        return False, f"it finds {len(got)} positions; there are {len(seen)}"
    return True, f"{len(seen)} distinct positions, against hundreds of thousands of nodes."


def check_binary(nested: Any) -> Result:
    if isinstance(nested, str):
        return False, "that is a string (it is in quotes): write the nested list itself"
    try:
        tree = GameTree.from_nested(nested)
    except Exception as err:
        if "?" in repr(nested):
            return False, 'put a number where the picture has "?": any number will do'
        return False, f"not a tree: {err}"
    if len(tree.leaves()) != 4:
        return False, f"the picture has 4 leaves, yours has {len(tree.leaves())}"
    last = tree.leaves()[-1].value
    if tree != sheet_binary(last=last):  # type: ignore[arg-type]
        return False, "the shape or the first three leaves (2, 7, 1) differ from the picture"
    return True, "that is the sheet's binary tree (the kit has it as examples.sheet_binary())."


def check_maxmin(max_min: Any, min_max: Any) -> Result:
    trees = [sheet_tree(), aima_5_2(), *_random_trees(10, depth=4, branching=(1, 3)),
             *_deep_trees(20)]
    for i, tree in enumerate(trees):
        root = Recorder(tree).root()  # the node interface of the assignments: methods
        f = max_min if tree.root.is_max else min_max
        got, want = _call(f, root), minimax(tree, trace=False).value
        if got != want:
            kind = "MAX" if tree.root.is_max else "MIN"
            return False, (f"on tree {i} (a {kind} root, {len(tree.leaves())} leaves: "
                           f"{_short(tree.to_nested())}) it returns {_shown(got)}; minimax "
                           f"says {want}")
    return True, (f"agrees with the kit's minimax on {len(trees)} trees, MAX and MIN roots, "
                  "depth up to 5, with ties.")


def _short(x: Any) -> str:
    text = repr(x)
    return text if len(text) <= 120 else text[:117] + "..."


def _shown(value: Any) -> str:
    return repr(value) if isinstance(value, (int, float, tuple, list)) else \
        f"{value!r} (not a number)"


def check_scored_move(best: Any) -> Result:
    game = TicTacToe()
    boards = ["X.. .O. ...", "XO. .X. ..O", "XX. OO. ...", "X.O .X. O..", "OX. XO. X..",
              "..X ..X .OO", "X.. ... ...", "XO. XO. ...", "X.. XO. O.X"]
    for text in boards:
        state = game.state_from_text(text)
        who = "X (MAX)" if game.is_max(state) else "O (MIN)"
        pair = _call(best, game, state)
        if not isinstance(pair, tuple) or len(pair) != 2:
            return False, f"expected a pair (value, move), got {pair!r}"
        value, move = pair
        want = minimax(game, state, trace=False).value
        if value in game.moves(state) and move == want and value != want:
            return False, ("the pair is the wrong way round: return (value, move), value "
                           "first, as everywhere in the course")
        if value != want:
            return False, f"on {text!r}, {who} to move, the value is {value}; minimax says {want}"
        if move not in game.moves(state):
            return False, (f"on {text!r}, {who} to move, the move {move!r} is not legal: is "
                           "the start value outside the range of values, so that some move "
                           "is always kept?")
        if minimax(game, game.play(state, move), trace=False).value != want:
            return False, f"on {text!r} the move {move!r} does not reach the value {want}"
    return True, (f"right value and a best move on {len(boards)} positions, X and O to move, "
                  "a lost one included.")


def _search_cases(depth_limited: bool) -> list[tuple[str, GameTree, int | None]]:
    cases: list[tuple[str, GameTree, int | None]] = [
        ("the example sheet's tree", sheet_tree(), None)]
    for i, t in enumerate(_deep_trees(16)):
        cases.append((f"random depth-5 tree {i} ({'MAX' if t.root.is_max else 'MIN'} root)",
                      t, None))
    for i, t in enumerate(_deep_trees(6, depth=6)):
        cases.append((f"random depth-6 tree {i} ({'MAX' if t.root.is_max else 'MIN'} root)",
                      t, None))
    if depth_limited:
        cases.append(("the example sheet's tree with static values, depth 2",
                      sheet_tree().with_static(), 2))
        for i, t in enumerate(_deep_trees(4, depth=6)):
            cases.append((f"random depth-6 tree {i} with static values, depth 4",
                          t.with_static(noise=2, seed=i), 4))
    return cases


def _run_cases(f: Any, call_it: Callable[[Any, Any, Any], Any],
               cases: list[tuple[str, GameTree, int | None]], strict: bool) -> str:
    """'' when ``f`` does what alphabeta (cutting on equality, or strict) does on every case,
    else what differs first."""
    for label, tree, limit in cases:
        counting = Counting(tree)
        got = _call(call_it, f, counting, limit if limit is not None else tree.height)
        kit = alphabeta(tree, depth=limit, prune_on_equal=not strict)
        if got != kit.value:
            return f"on {label} it returns {_shown(got)}; the value is {kit.value}"
        assert kit.trace is not None
        if limit is not None:
            allowed = {n.path for n in tree.nodes()
                       if len(n.path) == limit or (len(n.path) < limit and not n.children)}
            outside = [p for p in counting.evaluated if p not in allowed]
            if outside:
                return (f"on {label} it evaluates node {tree.node(outside[0]).name}, at "
                        f"depth {len(outside[0])}: a search to depth {limit} stops at depth "
                        f"{limit}. Is the depth counted on the way down?")
        if counting.evaluated != kit.trace.leaves:
            mine, need = counting.leaves, kit.stats.leaves
            how = (f"evaluates {mine} leaves where alpha-beta needs {need}" if mine != need
                   else f"evaluates {mine} leaves, but not the ones alpha-beta evaluates")
            return (f"the values are right, but on {label} it {how}: some bound is not doing "
                    "its job")
    return ""


def _compare_search(f: Any, call_it: Callable[[Any, Any, Any], Any], depth: bool) -> Result:
    cases = _search_cases(depth)
    wrong = _run_cases(f, call_it, cases, strict=False)
    if not wrong:
        return True, (f"same values and same leaves as the kit's alphabeta on {len(cases)} "
                      "trees, MAX and MIN roots, depth up to 6, with ties.")
    if not _run_cases(f, call_it, cases, strict=True):
        return True, (f"right, with strict cuts (v > β, v < α): same values and same leaves "
                      f"as alpha-beta with strict cuts on {len(cases)} trees. The sources and "
                      "the kit cut on equality (v ≥ β, v ≤ α), also right, and it evaluates "
                      "fewer leaves where values tie (lecture 4).")
    return False, wrong


def check_bug_recitation(ab_recitation: Any) -> Result:
    return _compare_search(ab_recitation, lambda f, g, _d: f(g, g.initial_state(),
                                                              -math.inf, math.inf), False)


def check_bug_blog(minimax_ab: Any) -> Result:
    return _compare_search(minimax_ab, lambda f, g, d: f(g, g.initial_state(), 0, d,
                                                         -math.inf, math.inf), True)


#: The tutorial's ScoredMove alpha-beta, as lecture 3 writes it anew with the tutorial's slip
#: kept: the number of the wrong line.
TUTORIAL_BUG_LINE = 11


def check_bug_tutorial(line: Any = None, beta_start: Any = None) -> Result:
    number, note = number_or_note(line)
    if number is None:
        return False, f"line: {note}"
    if number != TUTORIAL_BUG_LINE:
        if number == 9:
            return False, ("line 9 is right: it stores a score, result.score; look at the "
                           "human's branch")
        return False, "not that line: look for a score that is set to something that is not a score"
    start, note = number_or_note(beta_start)
    if start is None:
        return False, f"the line is right; beta_start: {note}"
    if start != 2:
        if start == -2:
            return False, ("the line is right; -2 is what the prose writes, but β falling "
                           "from -2 to 0.3 would be a rise: which start value is meant?")
        return False, "the line is right; now, which start value does the prose mean for β?"
    return True, (f"line {TUTORIAL_BUG_LINE} should read `best = (m, result.score)`, and β "
                  "starts at 2.")


def check_order(nested: Any, want: int, what: str) -> Result:
    groups = sorted(sorted(g) for g in aima_5_2().to_nested())  # type: ignore[union-attr]
    shape = "expected a list of three lists of leaves, like [[3, 12, 8], ...]"
    if isinstance(nested, str):
        return False, f"that is a string (it is in quotes): {shape}"
    try:
        mine = sorted(sorted(g) for g in nested)
    except TypeError:
        return False, shape
    if mine != groups:
        return False, "keep each MIN node's three leaves together: only reorder them"
    leaves = alphabeta(GameTree.from_nested(nested), trace=False).stats.leaves
    if leaves != want:
        return False, f"alpha-beta evaluates {leaves} leaves of this order, not {want}"
    return True, f"alpha-beta evaluates {leaves} leaves: the {what} case."


class _NoEvaluation(Counting):
    def evaluate(self, state: Any) -> float:
        raise Failed("it evaluates positions: the key should come from the column alone")


def check_center_first(key: Any) -> Result:
    game = ConnectFour()
    for moves in ("", "3", "33", "334", "3342", "33421"):
        state = game.state_from_moves(moves)
        legal = game.moves(state)
        keys = [_call(key, _NoEvaluation(game), state, m) for m in legal]
        try:
            order = [legal[i] for i in _sorted_indices(keys, game.is_max(state))]
        except TypeError:
            return False, f"its keys cannot be compared with each other: {keys!r}"
        who = "MAX" if game.is_max(state) else "MIN"
        if order[0] != 3 or set(order[-2:]) != {0, 6}:
            return False, (f"after the moves {moves or 'none'!r} ({who} to move) the search "
                           f"would try the columns in order {order}")
    natural = alphabeta(game, depth=5, trace=False).stats.leaves
    mine = alphabeta(game, depth=5, order=key, trace=False).stats.leaves
    return True, (f"centre first at MAX and MIN nodes: {mine} leaves at depth 5 instead "
                  f"of {natural}.")


def _number_check(given: Any, want: float, wrong: Callable[[Any], str]) -> Result | None:
    """None when ``given`` is the number ``want``; else the verdict (a string is named)."""
    number, note = number_or_note(given)
    if number is None:
        right = str(given).strip() == str(want)
        return False, note + (" (the number is right)" if right else "")
    if number != want:
        return False, wrong(number)
    return None


def check_km(n: Any) -> Result:
    want = knuth_moore_leaves(4, 5)
    verdict = _number_check(n, want, lambda x: f"{x} is not it: b^⌈d/2⌉ + b^⌊d/2⌋ - 1 with "
                                               "b = 4, d = 5")
    return verdict or (True, f"4^3 + 4^2 - 1 = {want}.")


def check_overhead(overhead: Any) -> Result:
    for b, d in ((2, 6), (3, 4), (5, 3), (10, 2), (2, 1)):
        tree = GameTree.random(depth=d, branching=b, seed=b).with_static()
        total = sum(minimax(tree, depth=k, trace=False).stats.leaves for k in range(1, d + 1))
        measured = total / b ** d
        got = _call(overhead, b, d)
        number, note = number_or_note(got)
        if number is None:
            return False, f"overhead({b}, {d}) returns {note}"
        if not math.isclose(number, measured):
            return False, (f"overhead({b}, {d}) = {got}, but minimax deepening evaluates "
                           f"{total} leaves against {b ** d}: {measured:.4f}")
    return True, "right: the sum b + b^2 + ... + b^d over b^d, which tends to b / (b - 1)."


def check_budget(depth: Any) -> Result:
    want = deepen(ConnectFour(), max_depth=8, node_budget=5_000).depth
    verdict = _number_check(depth, want, lambda x: (
        f"not {x}: add up the iterations' nodes; the one that would pass the budget is "
        "dropped"))
    return verdict or (True, f"depth {want}: the iteration that would pass 5,000 nodes is "
                             "dropped.")
