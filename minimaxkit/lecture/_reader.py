"""Running a reader's answer safely for the lecture checks: a function that raises, loops,
returns nothing or calls the kit's own search is reported through :class:`Failed`, never
raised to the notebook; a number typed as a string is named as such.

>>> number_or_note("79")
(None, "'79' is a string (it is in quotes): write the number itself, 79, without quotes")
>>> number_or_note(79.0)
(79.0, '')
"""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

from ..student import TooManyCalls, refuse_kit_searches

__all__ = ["Failed", "Counting", "call", "no_kit_search", "number_or_note"]


class Failed(Exception):
    """A reader's function raised, returned nothing or called the kit's search; the message
    says which."""


class _KitCalled(BaseException):
    """The kit's own search was called (a BaseException: ``except Exception`` misses it)."""


KIT_CALLED = ("it calls the kit's own search: write the search yourself (the check compares "
              "what yours does with the kit's)")


@contextmanager
def no_kit_search() -> Iterator[None]:
    """While inside, every search of the kit (minimax, alphabeta, negamax, deepen, ...)
    raises instead of searching, as the grader's sandbox does (the same mechanism:
    :func:`~minimaxkit.student.refuse_kit_searches`).

    >>> from minimaxkit import minimax
    >>> from minimaxkit.examples import aima_5_2
    >>> with no_kit_search():
    ...     try:
    ...         minimax(aima_5_2())
    ...     except BaseException as err:
    ...         print(type(err).__name__)
    _KitCalled
    >>> minimax(aima_5_2(), trace=False).value
    3
    """
    undo = refuse_kit_searches(lambda name: _KitCalled())
    try:
        yield
    finally:
        undo()


def call(f: Any, *args: Any) -> Any:
    """``f(*args)`` with the kit's searches refused; any failure becomes :class:`Failed`."""
    if not callable(f):
        raise Failed(f"expected a function, got {f!r}")
    try:
        with no_kit_search():
            out = f(*args)
    except _KitCalled:
        raise Failed(KIT_CALLED) from None
    except Failed:
        raise
    except TooManyCalls:
        raise Failed("it asks the tree again and again: does it search some node twice, "
                     "or loop?") from None
    except RecursionError:
        raise Failed("it recursed without end: does every path reach a leaf?") from None
    except Exception as err:
        raise Failed(f"it raised {type(err).__name__}: {err}") from None
    if out is None:
        raise Failed("it returned None: fill in its body (and return the result)")
    return out


class Counting:
    """A game that records its static evaluations (the leaves a search evaluates), by path
    for explicit trees."""

    def __init__(self, game: Any) -> None:
        self.game = game
        self.evaluated: list[Any] = []
        self.value_range = game.value_range

    @property
    def leaves(self) -> int:
        return len(self.evaluated)

    def initial_state(self) -> Any:
        return self.game.initial_state()

    def moves(self, state: Any) -> Any:
        return self.game.moves(state)

    def play(self, state: Any, move: Any) -> Any:
        return self.game.play(state, move)

    def is_max(self, state: Any) -> bool:
        return bool(self.game.is_max(state))

    def evaluate(self, state: Any) -> float:
        self.evaluated.append(getattr(state, "path", state))
        return float(self.game.evaluate(state))


def number_or_note(value: Any) -> tuple[float | None, str]:
    """``(value, "")`` for a number; ``(None, why)`` for a string or anything else."""
    if isinstance(value, bool):
        return None, f"{value!r} is a truth value, not a number"
    if isinstance(value, (int, float)):
        return value, ""
    if isinstance(value, str):
        shown = value.strip()
        try:
            float(shown)
        except ValueError:
            return None, f"{value!r} is a string, not a number"
        return None, (f"{value!r} is a string (it is in quotes): write the number itself, "
                      f"{shown}, without quotes")
    return None, f"expected a number, got {value!r} ({type(value).__name__})"
