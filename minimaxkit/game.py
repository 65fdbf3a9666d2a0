"""The game protocol that explicit trees and real games share.

A *state* is any value the game understands. Every method is pure: ``play`` returns a new
state and never mutates. A state is terminal exactly when ``moves(state)`` is empty.
``evaluate`` scores a state from MAX's point of view: the utility at a terminal state,
the static evaluation elsewhere (used where a depth limit cuts the search off).

>>> from minimaxkit import GameTree
>>> tree = GameTree.from_nested([[3, 12], [2, 4]])
>>> isinstance(tree, Game)
True
>>> root = tree.initial_state()
>>> tree.moves(root), tree.is_max(root)
((0, 1), True)
>>> tree.evaluate(tree.play(tree.play(root, 1), 0))
2
"""

from __future__ import annotations

from collections.abc import Hashable, Sequence
from typing import Any, Protocol, TypeVar, runtime_checkable

__all__ = ["Game", "State", "Move"]

State = TypeVar("State")
Move = TypeVar("Move", bound=Hashable)


@runtime_checkable
class Game(Protocol):
    """What every search needs from a game or a tree (see ``docs/design.md``)."""

    #: The lowest and the highest value ``evaluate`` can return.
    value_range: tuple[float, float]

    def initial_state(self) -> Any:
        """The state a search starts from when it is given none."""
        ...

    def moves(self, state: Any) -> Sequence[Any]:
        """The legal moves in a fixed, documented order; empty at a terminal state."""
        ...

    def play(self, state: Any, move: Any) -> Any:
        """The state after ``move``; ``state`` is left as it was."""
        ...

    def is_max(self, state: Any) -> bool:
        """True where MAX is to move."""
        ...

    def evaluate(self, state: Any) -> float:
        """MAX's view of the state: the utility if terminal, else a static evaluation."""
        ...
