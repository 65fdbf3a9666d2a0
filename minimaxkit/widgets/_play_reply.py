"""The computer's reply in the play widget: its record (the move, its value from X's side, the
nodes searched, the seconds), read from whatever the search function returned, and what the
status says of it: the move in a short sentence, then the search's account."""

from __future__ import annotations

import html
from dataclasses import dataclass
from typing import Any

from ..replay import fmt

__all__ = ["Reply", "Deepest", "reply_of", "reply_text", "search_text"]


@dataclass(frozen=True)
class Reply:
    """The computer's reply: its move, value (X's side, as searches count; None when the
    search function returned only a move), node count and the seconds it took."""

    move: Any
    value: float | None
    nodes: int | None
    seconds: float
    deepest: Deepest | None = None


@dataclass(frozen=True)
class Deepest:
    """A deepening search's last completed iteration (the one "Show search" draws): its
    ``depth`` and ``nodes``; ``cut_short`` is True when a budget stopped a deeper one."""

    depth: int
    nodes: int
    cut_short: bool


def reply_of(answer: Any, seconds: float) -> tuple[Reply, Any]:
    """A search function's answer as a :class:`Reply`, and the result to draw (or None).

    >>> reply_of(4, 0.5)
    (Reply(move=4, value=None, nodes=None, seconds=0.5, deepest=None), None)
    """
    if hasattr(answer, "move") and (hasattr(answer, "stats") or
                                    hasattr(answer, "total_nodes")):
        nodes = getattr(answer, "total_nodes", None)
        if nodes is None:
            return Reply(answer.move, answer.value, answer.stats.nodes, seconds), answer
        deepest = None
        if answer.iterations:
            deepest = Deepest(answer.depth, answer.iterations[-1].stats.nodes,
                              answer.interrupted_nodes > 0)
        return Reply(answer.move, answer.value, nodes, seconds, deepest), answer
    return Reply(answer, None, None, seconds), None


def reply_text(reply: Reply, human: str, move_name: str) -> str:
    """The computer's last move in one short sentence (HTML): the computer plays the side
    ``human`` does not; ``move_name`` is its move as the board names it. The search's own
    account follows on a line of its own (:func:`search_text`).

    >>> reply_text(Reply(4, 0.5, 120, 0.25), "X", "b2")
    'The computer (O) played <b>b2</b> (framed with a dashed line).'
    """
    me = "O" if human == "X" else "X"
    return (f"The computer ({me}) played <b>{html.escape(move_name)}</b> "
            "(framed with a dashed line).")


def search_text(reply: Reply, human: str, search_name: str) -> str:
    """What the search said of the computer's last move (HTML): its value from the
    computer's own side, the nodes it searched and the time it took (a line under the move,
    so that the move and whose turn it is come first: outside student pass 8 read three
    lines of numbers before "X to move").

    >>> print(search_text(Reply(4, 0.5, 120, 0.25), "X", "minimax"))
    ... # doctest: +NORMALIZE_WHITESPACE
    minimax values it -0.5 for O (0.5 from X's side, as the search scores), 120 nodes
    searched; it took 0.25 s.
    """
    me = "O" if human == "X" else "X"
    name = html.escape(search_name)
    if reply.value is None:
        return (f"{name} returned only a move (no value or node count); it took "
                f"{reply.seconds:.2f} s.")
    mine = reply.value if me == "X" else -reply.value
    return (f"{name} values it {fmt(mine)} for {me}"
            + ("" if me == "X" or reply.value == 0 else
               f" ({fmt(reply.value)} from X's side, as the search scores)")
            + f", {nodes_text(reply)}; it took {reply.seconds:.2f} s.")


def nodes_text(reply: Reply) -> str:
    """How many nodes the reply searched; for a deepening search, how many of them the
    deepest completed iteration (the one "Show search" draws) searched."""
    if reply.deepest is None:
        return f"{reply.nodes:,} nodes searched"
    deepest, nodes = reply.deepest, reply.nodes or 0
    rest = "the shallower ones" + (" and the one the budget cut short"
                                   if deepest.cut_short else "")
    return (f"{nodes:,} nodes searched in all: {deepest.nodes:,} by its deepest completed "
            f"search (depth {deepest.depth}, the one Show search draws) and "
            f"{nodes - deepest.nodes:,} by {rest}")
