"""The checks behind ``check(name, ...)`` for lectures 1 to 3: each runs a reader's answer
against the kit and returns ``(ok, message)``. A reader's function that raises, loops,
returns nothing, takes other arguments or calls the kit's own search is reported through
:class:`Failed`, never raised to the notebook (see ``_reader``); an answer of the wrong
kind (a count where a pair belongs, a string, a truth value) is named as such. Search
exercises are checked on trees that reach every case (depth 5 and 6, MIN roots, ties); an
answer in the other correct convention (strict cuts) passes with a note saying what the
course does.

>>> check_binary([[2, 7], [1, 0]])[0], check_binary(((2, 7), (1, 5)))[0]
(True, True)
>>> check_binary(3)[1]
'expected a nested list of numbers, one inner list per MIN node, such as \
[[1, 2, 3], [4, 5]], got 3 (a number)'
"""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence, Set
from typing import Any

from ..examples import aima_5_2, sheet_binary, sheet_tree
from ..games import TicTacToe
from ..search import alphabeta, minimax
from ..student import Recorder
from ..tree import GameTree
from ._reader import (
    Counting,
    Failed,
    arguments_fit,
    call,
    number,
    number_or_note,
    plain,
    same,
    short,
    shown,
)

__all__ = ["Failed", "Result", "check_count", "check_positions", "check_binary",
           "check_maxmin", "check_scored_move", "check_bug_recitation", "check_bug_blog",
           "check_bug_tutorial", "TUTORIAL_BUG_LINE"]

Result = tuple[bool, str]
_call = call


def _random_trees(n: int, **options: Any) -> list[GameTree]:
    return [GameTree.random(seed=seed, **options) for seed in range(n)]


def _deep_trees(n: int, *, depth: int = 5) -> list[GameTree]:
    """``n`` random trees of ``depth`` with ties (values 0 to 9), MAX and MIN roots in turn:
    β from above reaches interior MAX nodes, and α interior MIN nodes."""
    return [GameTree.random(depth=depth, branching=(2, 3), values=(0, 9), seed=seed,
                            root="max" if seed % 2 == 0 else "min") for seed in range(n)]


def _n(count: int, word: str) -> str:
    """``count`` and ``word``, in the plural unless there is one.

    >>> _n(1, "position"), _n(5478, "position")
    ('1 position', '5478 positions')
    """
    return f"{count} {word}{'s' * (count != 1)}"


def _pair(got: Any, what: str) -> tuple[Any, Any]:
    """``got`` as a pair (any sequence of two: a tuple, a list, a numpy array), else
    :class:`Failed` saying what came."""
    got = plain(got)
    if isinstance(got, Sequence) and not isinstance(got, (str, bytes)) and len(got) == 2:
        return got[0], got[1]
    if number(got) is not None:
        raise Failed(f"expected a pair {what}, got one number, {shown(got)}: return both, "
                     f"{what}")
    raise Failed(f"expected a pair {what}, got {shown(got)}")


# ----- lecture 1 -------------------------------------------------------------------------------
def check_count(count: Any) -> Result:
    game = TicTacToe()
    sheet, deep = sheet_tree(), _deep_trees(2)[1]
    cases = [("the example sheet's tree", sheet, sheet.root),
             ("a random depth-5 tree with a MIN root", deep, deep.root),
             ("tic-tac-toe after 3 moves", game, game.state_from_text("X.. .O. ..X")),
             ("tic-tac-toe", game, game.initial_state())]
    for label, g, state in cases:
        stats = minimax(g, state, trace=False).stats
        nodes, leaves = _pair(_call(count, g, state, call_as="count(game, state)"),
                              "(nodes, leaves)")
        if number(nodes) is None or number(leaves) is None:
            return False, (f"on {label} it returns ({short(nodes)}, {short(leaves)}); "
                           "expected two numbers, (nodes, leaves)")
        if (nodes, leaves) == (stats.leaves, stats.nodes) != (stats.nodes, stats.leaves):
            return False, "the pair is the wrong way round: return (nodes, leaves)"
        if (nodes, leaves) != (stats.nodes, stats.leaves):
            hint = ""
            if leaves == stats.leaves and nodes == stats.nodes - 1:
                hint = ": the node itself counts as well"
            elif leaves == stats.leaves and nodes == stats.nodes - stats.leaves:
                hint = ": a leaf is a node too (one node and one leaf)"
            return False, (f"on {label} it returns ({short(nodes)}, {short(leaves)}); the "
                           f"tree has {stats.nodes} nodes and {stats.leaves} leaves{hint}")
    return True, (f"all {len(cases)} right, tic-tac-toe included: {stats.nodes} nodes, "
                  f"{stats.leaves} leaves.")


def _reachable(game: Any, start: Any) -> set[Any]:
    seen, todo = set(), [start]
    while todo:
        state = todo.pop()
        if state not in seen:
            seen.add(state)
            todo.extend(game.play(state, m) for m in game.moves(state))
    return seen


def _as_positions(game: TicTacToe, states: set[Any]) -> dict[str, set[Any]]:
    """Other ways a reader may write the same positions: boards (rows of cells), texts."""
    return {"boards (rows of cells)": {tuple(map(tuple, game.board(s))) for s in states},
            "texts (game.render)": {game.render(s) for s in states}}


def check_positions(positions: Any) -> Result:
    game = TicTacToe()
    start = game.initial_state()
    seen = _reachable(game, start)
    got = _call(positions, game, start, call_as="positions(game, state)")
    if isinstance(got, dict):  # a "seen" dictionary: its keys are the positions
        got = set(got)
    if isinstance(got, (list, tuple)):  # a set written as a list: right if it has no repeats
        try:
            distinct = set(got)
        except TypeError:
            return False, (f"it returns a {type(got).__name__} of positions that cannot be "
                           "put in a set (lists inside?): return a set of states")
        if len(distinct) < len(got):
            nodes = " (the tree's nodes)" if len(got) == 549_946 else ""
            return False, (f"it returns {len(got):,} states with repeats{nodes}; the "
                           f"distinct positions are {len(seen):,}: return a set")
        got = distinct
    if not isinstance(got, Set):
        return False, f"expected a set of positions, got {shown(got)}"
    mine = set(got)
    if mine == seen:
        return True, (f"{len(seen)} distinct positions, the empty board and finished games "
                      "included, against hundreds of thousands of nodes.")
    for how, other in _as_positions(game, seen).items():
        if mine == other:
            return True, (f"{len(seen)} distinct positions, written as {how} rather than "
                          "the states game.play returns: the same positions.")
    missing = seen - mine
    extra = mine - seen
    over = {s for s in seen if not game.moves(s)}
    if missing == {start} and not extra:
        return False, (f"it finds {_n(len(mine), 'position')} and leaves out the start: the "
                       f"position you start from is reachable too (in zero moves). With "
                       f"it there are {len(seen)}")
    if missing and missing <= over and not extra:
        return False, (f"it finds {_n(len(mine), 'position')} and leaves out "
                       f"{_n(len(missing), 'finished game')} (positions with no moves): they "
                       f"are positions too. There are {len(seen)}, the start and finished "
                       "games included")
    if extra and len(extra) == len(mine):
        return False, (f"it finds {_n(len(mine), 'thing')}, but none is a state that game.play "
                       f"returns (e.g. {short(next(iter(extra)), 60)}): collect the states "
                       f"themselves. There are {len(seen)} positions")
    parts = []
    if missing:
        example = game.render(next(iter(sorted(missing)))).replace("\n", " ")
        parts.append(f"misses {len(missing)} (e.g. {example})")
    if extra:
        parts.append(f"has {len(extra)} that are not reachable positions")
    return False, (f"it finds {_n(len(mine), 'position')} and {' and '.join(parts)}; there are "
                   f"{len(seen)}, the start and finished games included")


def check_binary(nested: Any) -> Result:
    if isinstance(nested, GameTree):
        nested = nested.to_nested()
    nested = plain(nested)  # numpy arrays and numbers as lists and numbers
    shape = "a nested list of numbers, one inner list per MIN node, such as [[1, 2, 3], [4, 5]]"
    if isinstance(nested, str):
        return False, f"that is a string (it is in quotes): write {shape} itself"
    if not isinstance(nested, (list, tuple)):
        return False, f"expected {shape}, got {shown(nested)}"
    if "?" in short(nested, 10_000):
        return False, 'put a number where the picture has "?": any number will do'
    try:
        tree = GameTree.from_nested(nested)
    except Exception as err:
        return False, f"not a tree: {err}"
    if len(tree.leaves()) != 4:
        return False, f"the picture has 4 leaves, yours has {len(tree.leaves())}"
    last = tree.leaves()[-1].value
    if tree != sheet_binary(last=last):  # type: ignore[arg-type]
        return False, "the shape or the first three leaves (2, 7, 1) differ from the picture"
    return True, "that is the sheet's binary tree (the kit has it as examples.sheet_binary())."


# ----- lecture 2 -------------------------------------------------------------------------------
def check_maxmin(max_min: Any, min_max: Any) -> Result:
    trees = [sheet_tree(), aima_5_2(), *_random_trees(10, depth=4, branching=(1, 3)),
             *_deep_trees(20)]
    for i, tree in enumerate(trees):
        root = Recorder(tree).root()  # the node interface of the assignments: methods
        f, name = (max_min, "max_min") if tree.root.is_max else (min_max, "min_max")
        got, want = _call(f, root, call_as=f"{name}(x)"), minimax(tree, trace=False).value
        if number(got) is None:
            pair = " (return the value alone)" if isinstance(got, (tuple, list)) else ""
            return False, (f"{name}(tree.root) returns {shown(got)}{pair}: expected the "
                           "root's value, a number")
        if not same(got, want):
            kind = "MAX" if tree.root.is_max else "MIN"
            return False, (f"on tree {i} (a {kind} root, {len(tree.leaves())} leaves: "
                           f"{short(tree.to_nested())}) it returns {short(got)}; minimax "
                           f"says {want}")
    return True, (f"agrees with the kit's minimax on {len(trees)} trees, MAX and MIN roots, "
                  "depth up to 5, with ties.")


_SCORED = ["X.. .O. ...", "XO. .X. ..O", "XX. OO. ...", "X.O .X. O..", "OX. XO. X..",
           "..X ..X .OO", "X.. ... ...", "XO. XO. ...", "X.. XO. O.X"]


def _move_of(game: TicTacToe, state: Any, move: Any) -> tuple[Any, str]:
    """The legal move ``move`` stands for (the move itself or its name), and a note when
    it was a name; (None, "") when it is neither."""
    legal = game.moves(state)
    if any(same(move, m) for m in legal):
        return move, ""
    names = {game.move_name(m): m for m in legal}
    if isinstance(move, str) and move.strip() in names:
        return names[move.strip()], " (it returns move names; the kit's searches return moves)"
    return None, ""


def check_scored_move(best: Any) -> Result:
    game = TicTacToe()
    note = ""
    for text in _SCORED:
        state = game.state_from_text(text)
        who = "X (MAX)" if game.is_max(state) else "O (MIN)"
        value, move = _pair(_call(best, game, state, call_as="best(game, state)"),
                            "(value, move)")
        want = minimax(game, state, trace=False).value
        if any(same(value, m) for m in game.moves(state)) and same(move, want) \
                and not same(value, want):
            return False, ("the pair is the wrong way round: return (value, move), value "
                           "first, as everywhere in the course")
        if number(value) is None:
            return False, (f"on {text!r}, {who} to move, the value is {shown(value)}; "
                           f"expected a number (minimax says {want})")
        if not same(value, want):
            return False, f"on {text!r}, {who} to move, the value is {value}; minimax says {want}"
        if move is None:
            return False, (f"on {text!r}, {who} to move, it returns no move (None): is the "
                           "start value outside the range of values, so that some move is "
                           "always kept?")
        legal, named = _move_of(game, state, move)
        if legal is None:
            return False, (f"on {text!r}, {who} to move, {shown(move)} is not a legal move; "
                           f"the legal moves are {list(game.moves(state))}")
        note = note or named
        if minimax(game, game.play(state, legal), trace=False).value != want:
            return False, f"on {text!r} the move {move!r} does not reach the value {want}"
    return True, (f"right value and a best move on {len(_SCORED)} positions, X and O to move, "
                  f"a lost one included{note}.")


# ----- lecture 3 -------------------------------------------------------------------------------
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
               cases: list[tuple[str, GameTree, int | None]], strict: bool,
               call_as: str, limited: bool) -> str:
    """'' when ``f`` does what alphabeta (cutting on equality, or strict) does on every case,
    else what differs first."""
    for label, tree, limit in cases:
        depth = limit if limit is not None else tree.height
        counting = Counting(tree, limit=depth if limited else None)
        try:
            got = _call(call_it, f, counting, depth, call_as=call_as)
        except Failed as failed:  # the same kind (no result, or a diagnosis), with the tree
            raise type(failed)(f"on {label}: {failed}") from None
        kit = alphabeta(tree, depth=limit, prune_on_equal=not strict)
        if number(got) is None:
            pair = " (return the value alone)" if isinstance(got, (tuple, list)) else ""
            return f"on {label} it returns {shown(got)}{pair}; expected a number, {kit.value}"
        if not same(got, kit.value):
            return f"on {label} it returns {short(got)}; the value is {kit.value}"
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


def _compare_search(f: Any, call_it: Callable[[Any, Any, Any], Any], depth: bool,
                    call_as: str) -> Result:
    if not callable(f) or isinstance(f, type):
        raise Failed(f"expected the function {call_as}, got {shown(f)}")
    arguments_fit(f, call_as.count(",") + 1, call_as)
    cases = _search_cases(depth)
    wrong = _run_cases(f, call_it, cases, strict=False, call_as=call_as, limited=depth)
    if not wrong:
        return True, (f"same values and same leaves as the kit's alphabeta on {len(cases)} "
                      "trees, MAX and MIN roots, depth up to 6, with ties.")
    if not _run_cases(f, call_it, cases, strict=True, call_as=call_as, limited=depth):
        return True, (f"right, with strict cuts (v > β, v < α): same values and same leaves "
                      f"as alpha-beta with strict cuts on {len(cases)} trees. The sources and "
                      "the kit cut on equality (v ≥ β, v ≤ α), also right, and it evaluates "
                      "fewer leaves where values tie (lecture 4).")
    return False, wrong


def check_bug_recitation(ab_recitation: Any) -> Result:
    return _compare_search(ab_recitation, lambda f, g, _d: f(g, g.initial_state(),
                                                              -math.inf, math.inf), False,
                           "ab_recitation(game, n, alpha, beta)")


def check_bug_blog(minimax_ab: Any) -> Result:
    return _compare_search(minimax_ab, lambda f, g, d: f(g, g.initial_state(), 0, d,
                                                         -math.inf, math.inf), True,
                           "minimax_ab(game, n, depth, max_depth, alpha, beta)")


#: The tutorial's ScoredMove alpha-beta, as lecture 3 writes it anew with the tutorial's slip
#: kept: the number of the wrong line.
TUTORIAL_BUG_LINE = 11


def check_bug_tutorial(line: Any = None, beta_start: Any = None) -> Result:
    number_, note = number_or_note(line)
    if number_ is None:
        return False, f"line: {note}"
    if number_ != TUTORIAL_BUG_LINE:
        if number_ == 9:
            return False, ("line 9 is right: it stores a score, result.score; look at the "
                           "human's branch")
        return False, ("not that line: look for a score that is set to something that is "
                       "not a score (lines 1 to 14)")
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
