"""Nim, normal play: take any number of objects from one heap; who takes the last one wins.

**State.** A tuple ``(heaps, max_to_move)``: the heap sizes as a tuple of ints and a bool
that is True when MAX is to move. MAX moves first.

>>> game = Nim((1, 2))
>>> state = game.initial_state()
>>> state, game.moves(state)
(((1, 2), True), ((0, 1), (1, 1), (1, 2)))
>>> print(game.render(game.play(state, (1, 2))))
heap 0: | (1)
heap 1:  (0)
MIN to move
"""

from __future__ import annotations

from collections.abc import Sequence

__all__ = ["Nim"]

NimState = tuple[tuple[int, ...], bool]
NimMove = tuple[int, int]


class Nim:
    """Nim as a :class:`~minimaxkit.game.Game` with MAX moving first.

    A move is ``(heap_index, take)``: take ``take >= 1`` objects from heap ``heap_index``.
    Moves are listed by heap, then by ``take``, both ascending. The game ends when every
    heap is empty; the player who took the last object wins, so the terminal value is +1
    when MAX took it (MIN is to move) and -1 when MIN took it. Nim has no useful static
    evaluation short of its theory, so a non-terminal state evaluates to 0. (The theory: the
    player to move loses exactly when the xor of the heap sizes is 0.)

    >>> game = Nim()
    >>> game
    Nim()
    >>> game.value_range
    (-1, 1)
    >>> game.evaluate(((0, 0, 0), False)), game.evaluate(((0, 0, 0), True))
    (1, -1)
    >>> Nim((1, -2))
    Traceback (most recent call last):
    ...
    ValueError: heap 1 must be a non-negative int, got -2
    """

    value_range: tuple[float, float] = (-1, 1)

    def __init__(self, heaps: Sequence[int] = (1, 2, 3)) -> None:
        if isinstance(heaps, str | bytes) or not isinstance(heaps, Sequence):
            raise ValueError(f"heaps must be a sequence of ints, got {heaps!r}")
        if not heaps:
            raise ValueError("Nim needs at least one heap")
        for index, size in enumerate(heaps):
            if isinstance(size, bool) or not isinstance(size, int) or size < 0:
                raise ValueError(f"heap {index} must be a non-negative int, got {size!r}")
        self.heaps: tuple[int, ...] = tuple(heaps)

    def __repr__(self) -> str:
        return "Nim()" if self.heaps == (1, 2, 3) else f"Nim({self.heaps!r})"

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, Nim):
            return NotImplemented
        return self.heaps == other.heaps

    def __hash__(self) -> int:
        return hash((Nim, self.heaps))

    def initial_state(self) -> NimState:
        """The starting heaps, MAX to move.

        >>> Nim((3, 4)).initial_state()
        ((3, 4), True)
        """
        return (self.heaps, True)

    def moves(self, state: NimState) -> tuple[NimMove, ...]:
        """Every ``(heap_index, take)``, by heap then take; ``()`` when all heaps are empty.

        >>> Nim().moves(((2, 0, 1), False))
        ((0, 1), (0, 2), (2, 1))
        """
        heaps, _ = state
        return tuple((i, take) for i, size in enumerate(heaps) for take in range(1, size + 1))

    def play(self, state: NimState, move: NimMove) -> NimState:
        """The state after taking ``take`` objects from heap ``heap_index``.

        >>> Nim().play(((1, 2, 3), True), (2, 3))
        ((1, 2, 0), False)
        >>> Nim().play(((1, 2, 3), True), (0, 2))
        Traceback (most recent call last):
        ...
        ValueError: move (0, 2) is not legal: heap 0 has 1 objects
        """
        heaps, max_to_move = state
        try:
            index, take = move
        except (TypeError, ValueError):
            raise ValueError(f"move {move!r} is not a (heap_index, take) pair") from None
        if isinstance(index, bool) or not isinstance(index, int) or not 0 <= index < len(heaps):
            raise ValueError(f"move {move!r} is not legal: there is no heap {index!r}")
        size = heaps[index]
        if isinstance(take, bool) or not isinstance(take, int) or not 1 <= take <= size:
            raise ValueError(f"move {move!r} is not legal: heap {index} has {size} objects")
        return (heaps[:index] + (size - take,) + heaps[index + 1 :], not max_to_move)

    def is_max(self, state: NimState) -> bool:
        """True when MAX is to move.

        >>> Nim().is_max(Nim().initial_state())
        True
        """
        return state[1]

    def evaluate(self, state: NimState) -> float:
        """+1 if MAX took the last object, -1 if MIN did; 0 for a non-terminal state.

        >>> Nim().evaluate(((0, 1, 0), True))
        0
        """
        heaps, max_to_move = state
        if any(heaps):
            return 0
        return -1 if max_to_move else 1

    def render(self, state: NimState) -> str:
        """One line per heap with a bar per object, then who is to move.

        >>> print(Nim().render(Nim().initial_state()))
        heap 0: | (1)
        heap 1: || (2)
        heap 2: ||| (3)
        MAX to move
        """
        heaps, max_to_move = state
        lines = [f"heap {i}: {'|' * size} ({size})" for i, size in enumerate(heaps)]
        lines.append("MAX to move" if max_to_move else "MIN to move")
        return "\n".join(lines)
