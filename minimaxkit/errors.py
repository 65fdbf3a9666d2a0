"""Named errors. Each says what was wrong and where (a node's path, an option's name).

>>> from minimaxkit import GameTree
>>> try:
...     GameTree.from_nested([[1, 2], []])
... except TreeError as err:
...     print(err)
node at path (1,): an interior node needs at least one child, got an empty list
"""

from __future__ import annotations

__all__ = ["MinimaxkitError", "TreeError", "OptionError", "TraceError"]


class MinimaxkitError(ValueError):
    """Base class of the kit's errors; a ``ValueError``."""


class TreeError(MinimaxkitError):
    """A game tree is malformed; the message names the node's path and what was expected."""

    def __init__(self, path: tuple[int, ...], problem: str) -> None:
        self.path = path
        self.problem = problem
        super().__init__(f"node at path {path}: {problem}")


class OptionError(MinimaxkitError):
    """A search was called with an option it does not accept; the message names the option."""

    def __init__(self, option: str, problem: str) -> None:
        self.option = option
        self.problem = problem
        super().__init__(f"option {option!r}: {problem}")


class TraceError(MinimaxkitError):
    """A stored trace is malformed; the message names the event's index (None: the whole
    text) and what was expected."""

    def __init__(self, index: int | None, problem: str) -> None:
        self.index = index
        self.problem = problem
        super().__init__(f"event {index}: {problem}" if index is not None else problem)
