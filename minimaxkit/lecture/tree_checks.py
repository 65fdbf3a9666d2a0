"""The checks behind ``check(name, ...)`` for lecture 1 (game trees): the example sheet's
tree written as nested lists, the nodes and leaves below a state, the positions of
tic-tac-toe. Each runs a reader's answer against the kit and returns ``(ok, message)``; an
answer of the wrong kind (a count where a pair belongs, a string, a list with repeats) is
named as such. (Lecture 2's checks are in ``search_checks``, lecture 3's in
``alphabeta_checks``.)

>>> check_binary([[2, 7], [1, 0]])[0], check_binary(((2, 7), (1, 5)))[0]
(True, True)
>>> check_binary(3)[1]
'expected a nested list of numbers, one inner list per MIN node, such as \
[[1, 2, 3], [4, 5]], got 3 (a number)'
"""

from __future__ import annotations

from collections.abc import Set
from typing import Any

from ..examples import sheet_binary, sheet_tree
from ..games import TicTacToe
from ..search import minimax
from ..tree import GameTree
from ._reader import Failed, call, number, pair, plain, short, shown
from .check_trees import check_trees

__all__ = ["Result", "check_count", "check_positions", "check_binary"]

Result = tuple[bool, str]


def _n(count: int, word: str) -> str:
    """``count`` and ``word``, in the plural unless there is one.

    >>> _n(1, "position"), _n(5478, "position")
    ('1 position', '5478 positions')
    """
    return f"{count} {word}{'s' * (count != 1)}"


def check_count(count: Any) -> Result:
    """Exercise 1.2: ``count(game, state)``, the pair (nodes, leaves) of the tree below a
    state. Refuses:

    * the pair the wrong way round, (leaves, nodes);
    * a leaf not counted as a node;
    * the kit's own search;
    * the pair typed as a string.
    """
    game = TicTacToe()
    sheet, deep = sheet_tree(), check_trees(2, depth=5)[1]
    cases = [("the example sheet's tree", sheet, sheet.root),
             ("a random tree with a MIN root and leaves at uneven depths", deep, deep.root),
             ("tic-tac-toe after 3 moves", game, game.state_from_text("X.. .O. ..X")),
             ("tic-tac-toe", game, game.initial_state())]
    for label, g, state in cases:
        stats = minimax(g, state, trace=False).stats
        nodes, leaves = pair(call(count, g, state, call_as="count(game, state)"),
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


def _as_set(got: Any, seen: set[Any]) -> set[Any]:
    """A reader's positions as a set: a dict's keys, a list without repeats; else
    :class:`Failed` saying what came."""
    if isinstance(got, dict):  # a "seen" dictionary: its keys are the positions
        got = set(got)
    if isinstance(got, (list, tuple)):  # a set written as a list: right if it has no repeats
        try:
            distinct = set(got)
        except TypeError:
            raise Failed(f"it returns a {type(got).__name__} of positions that cannot be "
                         "put in a set (lists inside?): return a set of states") from None
        if len(distinct) < len(got):
            nodes = " (the tree's nodes)" if len(got) == 549_946 else ""
            raise Failed(f"it returns {len(got):,} states with repeats{nodes}; the "
                         f"distinct positions are {len(seen):,}: return a set")
        got = distinct
    if not isinstance(got, Set):
        raise Failed(f"expected a set of positions, got {shown(got)}")
    return set(got)


def _positions_missed(game: TicTacToe, mine: set[Any], seen: set[Any]) -> str:
    """What a wrong set of positions misses or has too many of, in words."""
    start = game.initial_state()
    missing, extra = seen - mine, mine - seen
    found = f"it finds {_n(len(mine), 'position')}"
    if missing == {start} and not extra:
        return (f"{found} and leaves out the start: the position you start from is "
                f"reachable too (in zero moves). With it there are {len(seen)}")
    if missing and not extra and all(not game.moves(s) for s in missing):
        return (f"{found} and leaves out {_n(len(missing), 'finished game')} (positions with "
                f"no moves): they are positions too. There are {len(seen)}, the start and "
                "finished games included")
    if extra and len(extra) == len(mine):
        return (f"it finds {_n(len(mine), 'thing')}, but none is a state that game.play "
                f"returns (e.g. {short(next(iter(extra)), 60)}): collect the states "
                f"themselves. There are {len(seen)} positions")
    parts = []
    if missing:
        example = game.render(next(iter(sorted(missing)))).replace("\n", " ")
        parts.append(f"misses {len(missing)} (e.g. {example})")
    if extra:
        parts.append(f"has {len(extra)} that are not reachable positions")
    return (f"{found} and {' and '.join(parts)}; there are {len(seen)}, the start and "
            "finished games included")


def check_positions(positions: Any) -> Result:
    """Exercise 1.3: the set of positions reachable in tic-tac-toe. Refuses:

    * a list of every node (with repeats);
    * the finished games left out;
    * the start alone;
    * a count where a set belongs;
    * None returned;
    * the kit's own search.
    """
    game = TicTacToe()
    start = game.initial_state()
    seen = _reachable(game, start)
    mine = _as_set(call(positions, game, start, call_as="positions(game, state)"), seen)
    if mine == seen:
        return True, (f"{len(seen)} distinct positions, the empty board and finished games "
                      "included, against hundreds of thousands of nodes.")
    for how, other in _as_positions(game, seen).items():
        if mine == other:
            return True, (f"{len(seen)} distinct positions, written as {how} rather than "
                          "the states game.play returns: the same positions.")
    return False, _positions_missed(game, mine, seen)


def check_binary(nested: Any) -> Result:
    """Exercise 1.1: the example sheet's binary tree as nested lists. Refuses:

    * the first MIN node's leaves swapped;
    * a flat list of the four leaves;
    * a leaf missing;
    * the "?" left in;
    * the list typed as a string.
    """
    if isinstance(nested, GameTree):
        nested = nested.to_nested()
    nested = plain(nested)  # numpy arrays and numbers as lists and numbers
    shape = "a nested list of numbers, one inner list per MIN node, such as [[1, 2, 3], [4, 5]]"
    if isinstance(nested, str):
        return False, f"that is a string (it is in quotes): write {shape} itself"
    if not isinstance(nested, (list, tuple)):
        return False, f"expected {shape}, got {shown(nested)}"
    if "?" in short(nested, 10_000):
        return False, 'put a number where the sheet has "?": any number will do'
    try:
        tree = GameTree.from_nested(nested)
    except Exception as err:
        return False, f"not a tree: {err}"
    if len(tree.leaves()) != 4:
        return False, f"the sheet's tree has 4 leaves, yours has {len(tree.leaves())}"
    last = tree.leaves()[-1].value
    if tree != sheet_binary(last=last):  # type: ignore[arg-type]
        return False, ("the shape or the first three leaves differ from the sheet's tree: a "
                       "MAX root over two MIN nodes, the first with leaves 2 and 7, the "
                       "second with 1 and ?")
    return True, "that is the sheet's binary tree (the kit has it as examples.sheet_binary())."
