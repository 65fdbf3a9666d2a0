"""Reading a reader's answer safely for the lecture checks: a function that raises, loops,
returns nothing, takes the wrong arguments or calls the kit's own search is reported
through :class:`Failed`, never raised to the notebook; a value of the wrong kind is named
in words (a number typed as a string, a count where a set belongs, a generator).

>>> number_or_note("79")
(None, "'79' is a string (it is in quotes): write the number itself, 79, without quotes")
>>> number_or_note(79.0)
(79.0, '')
>>> shown(True), shown([1, 2]), shown(None)
('True (a truth value)', '[1, 2] (a list)', 'None (nothing)')
>>> from decimal import Decimal
>>> shown(Decimal("1.5")), shown(1j)
("Decimal('1.5') (a Decimal number)", '1j (a complex number)')
>>> same(float("nan"), 3), same(3.0, 3)
(False, True)

A function that never returns is stopped after ``LIMIT`` seconds (``QUICK`` for the
checks whose reference answers take milliseconds), by a ``signal.setitimer`` alarm where
there is one (the main thread on Linux and macOS, where a notebook's kernel runs code):

>>> def loops():
...     while True:
...         pass
>>> try:
...     call(loops, limit=0.2)
... except Failed as err:
...     print(err)
it ran for over 0.2 seconds without returning: does it loop?
"""

from __future__ import annotations

import inspect
import math
import numbers
import signal
import threading
import time
import types
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from typing import Any

from ..student import TooManyCalls, refuse_kit_searches

__all__ = ["Failed", "NoResult", "Counting", "call", "no_kit_search", "number_or_note",
           "shown", "same", "short", "number", "plain", "pair", "arguments_fit", "time_limit",
           "LIMIT", "QUICK"]

#: seconds a reader's function may run before the check calls it a loop: long enough for
#: a slow but right walk of tic-tac-toe's 549,946 nodes (the worked answer takes 2 s)
LIMIT = 60.0
#: the same for checks whose reference answer takes milliseconds (lectures 4 to 6)
QUICK = 5.0


class Failed(Exception):
    """A reader's function raised, returned nothing or called the kit's search; the message
    says which."""


class NoResult(Failed):
    """A reader's function gave no result to check (it raised, looped, returned None, could
    not be called as the exercise calls it): the verdict also says what was expected."""


class _KitCalled(BaseException):
    """The kit's own search was called (a BaseException: ``except Exception`` misses it)."""


class TimeUp(BaseException):
    """A reader's function ran past its time limit (a BaseException, as :class:`_KitCalled`)."""


@contextmanager
def time_limit(seconds: float | None) -> Iterator[None]:
    """Raise :class:`TimeUp` inside the block after ``seconds`` (and every second after,
    should the reader's code swallow it), where a ``signal.setitimer`` alarm is possible:
    the main thread of a system that has it. An alarm already set that rings sooner rules;
    one that rings later is set again afterwards, less the time the block took. Elsewhere
    the block runs without a limit."""
    if (seconds is None or not hasattr(signal, "setitimer")
            or threading.current_thread() is not threading.main_thread()):
        yield
        return
    outer, outer_interval = signal.getitimer(signal.ITIMER_REAL)
    if 0 < outer <= seconds:
        yield
        return

    def ring(signum: int, frame: Any) -> None:
        raise TimeUp

    previous = signal.signal(signal.SIGALRM, ring)
    signal.setitimer(signal.ITIMER_REAL, seconds, 1.0)
    start = time.monotonic()
    try:
        yield
    finally:
        signal.setitimer(signal.ITIMER_REAL, 0)
        signal.signal(signal.SIGALRM, previous)
        if outer > 0:
            left = max(outer - (time.monotonic() - start), 1e-3)
            signal.setitimer(signal.ITIMER_REAL, left, outer_interval)


KIT_CALLED = ("it calls the kit's own search: write the search yourself (the check compares "
              "what yours does with the kit's)")


def short(value: Any, limit: int = 120) -> str:
    """``repr(value)``, at most ``limit`` characters, even for a value whose repr fails."""
    try:
        text = repr(value)
    except Exception:
        text = f"<a {type(value).__name__}>"
    return text if len(text) <= limit else text[:limit - 3] + "..."


_KINDS = {bool: "a truth value", int: "a number", float: "a number", str: "a string",
          list: "a list", tuple: "a tuple", set: "a set", frozenset: "a set",
          dict: "a dict", type(None): "nothing"}


def shown(value: Any) -> str:
    """A reader's value in words: what it is, and what kind of thing.

    >>> shown((x for x in "ab"))[:11], shown(print)
    ('a generator', 'print (a function, not its result: call it)')
    """
    if isinstance(value, types.GeneratorType):
        return "a generator (is there a yield where a return belongs?)"
    if callable(value) and not isinstance(value, type):
        name = getattr(value, "__name__", None) or type(value).__name__
        return f"{name} (a function, not its result: call it)"
    kind = _KINDS.get(type(value))
    if kind is None:
        if isinstance(value, numbers.Real):
            kind = "a number"
        elif isinstance(value, numbers.Complex):
            kind = "a complex number"
        elif isinstance(value, numbers.Number):
            kind = f"a {type(value).__name__} number"
        else:
            name = type(value).__name__
            kind = f"{'an' if name[:1].lower() in 'aeiou' else 'a'} {name}"
    return f"{short(value)} ({kind})"


def same(a: Any, b: Any) -> bool:
    """``a == b`` as a plain truth value, False when comparing raises (a reader's object
    may define ``==`` any way it likes) or for a truth value against a number."""
    if isinstance(a, bool) != isinstance(b, bool):
        return False
    try:
        return bool(a == b)
    except Exception:
        return False


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


def arguments_fit(f: Any, n: int, call_as: str = "") -> None:
    """Raise :class:`Failed` when ``f`` cannot be called with ``n`` arguments (said before
    calling it, so that a TypeError inside ``f`` is not taken for the wrong number)."""
    try:
        signature = inspect.signature(f)
    except (TypeError, ValueError):  # some builtins do not say: let the call tell
        return
    try:
        signature.bind(*range(n))
    except TypeError:
        name = getattr(f, "__name__", "it")
        wanted = call_as or f"with {n} argument{'s' * (n != 1)}"
        raise NoResult(f"it cannot be called as {wanted}: {name} takes {signature}") from None


def call(f: Any, *args: Any, call_as: str = "", none_ok: bool = False,
         limit: float | None = LIMIT) -> Any:
    """``f(*args)`` with the kit's searches refused and at most ``limit`` seconds; any
    failure becomes :class:`Failed`, an interrupt (the stop button) too. ``call_as`` says
    how the exercise calls it (``"count(game, state)"``), for messages.

    >>> call(lambda a: a + 1, 1)
    2
    >>> try:
    ...     call(lambda a: a, 1, 2, call_as="f(game, state)")
    ... except Failed as err:
    ...     print(err)
    it cannot be called as f(game, state): <lambda> takes (a)
    """
    if not callable(f) or isinstance(f, type):
        raise Failed(f"expected a function{' ' + call_as if call_as else ''}, got {shown(f)}")
    arguments_fit(f, len(args), call_as)
    try:
        with time_limit(limit), no_kit_search():
            out = f(*args)
    except _KitCalled:
        raise Failed(KIT_CALLED) from None
    except TimeUp:
        raise NoResult(f"it ran for over {limit:g} seconds without returning: does it "
                     "loop?") from None
    except KeyboardInterrupt:
        raise NoResult("it was interrupted before it returned: does it loop?") from None
    except Failed:
        raise
    except TooManyCalls:
        raise NoResult("it asks the tree again and again: does it search some node twice, "
                     "or loop?") from None
    except RecursionError:
        raise NoResult("it recursed without end: does every path reach a leaf (or the depth "
                     "limit)?") from None
    except SystemExit:
        raise NoResult("it called exit(): return a result instead") from None
    except Exception as err:
        raise NoResult(f"it raised {type(err).__name__}: {err}") from None
    if out is None and not none_ok:
        raise NoResult("it returned None: fill in its body (and return the result)")
    return out


class Counting:
    """A game that records its static evaluations (the leaves a search evaluates), by path
    for explicit trees. With ``limit`` (the depth a search is asked to reach), evaluating a
    node of an explicit tree that has children above that depth is reported: the search
    stopped too early (a reader's off-by-one), not the tree's missing static value."""

    def __init__(self, game: Any, limit: int | None = None) -> None:
        self.game = game
        self.limit = limit
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
        path = getattr(state, "path", None)
        if path is not None and getattr(state, "children", None) and (
                self.limit is None or len(path) < self.limit):
            to = (f"a search to depth {self.limit} evaluates nodes at depth {self.limit} "
                  "and leaves" if self.limit is not None else "only leaves are evaluated")
            raise Failed(f"it evaluates node {state.name}, at depth {len(path)}, which is not "
                         f"a leaf: {to}, so it stops too early. Is the depth compared with "
                         "the limit one step too soon?")
        self.evaluated.append(state if path is None else path)
        return float(self.game.evaluate(state))


def number(value: Any) -> float | None:
    """``value`` if it is a real number (not a truth value), else None."""
    if isinstance(value, bool) or not isinstance(value, numbers.Real):
        return None
    return value  # type: ignore[return-value]


def plain(value: Any) -> Any:
    """``value`` with numpy arrays as lists and numbers of other types (numpy's, fractions)
    as ``int`` or ``float``, through lists and tuples; anything else as it is.

    >>> import numpy as np
    >>> plain(np.array([[2, 7], [1, 9]])), plain((np.int64(5), np.float32(0.5)))
    ([[2, 7], [1, 9]], (5, 0.5))
    """
    if hasattr(value, "dtype") and hasattr(value, "ndim") and hasattr(value, "tolist"):
        try:
            value = value.tolist()
        except Exception:
            return value
    if isinstance(value, (list, tuple)):
        items = [plain(v) for v in value]
        return items if isinstance(value, list) else tuple(items)
    if isinstance(value, bool) or type(value) in (int, float):
        return value
    if isinstance(value, numbers.Integral):
        return int(value)
    if isinstance(value, numbers.Real):
        return float(value)
    return value


def number_or_note(value: Any) -> tuple[float | None, str]:
    """``(value, "")`` for a number; ``(None, why)`` for a string or anything else."""
    if value is None:
        return None, "no answer yet (None): replace the None with your number"
    if isinstance(value, bool):
        return None, f"{value!r} is a truth value, not a number"
    found = number(value)
    if found is not None:
        return found, ""
    if isinstance(value, str):
        text = value.strip()
        try:
            ok = math.isfinite(float(text))
        except ValueError:
            ok = False
        if not ok:
            return None, f"{value!r} is a string, not a number"
        return None, (f"{value!r} is a string (it is in quotes): write the number itself, "
                      f"{text}, without quotes")
    return None, f"expected a number, got {shown(value)}"


def pair(got: Any, what: str) -> tuple[Any, Any]:
    """``got`` as a pair (any sequence of two: a tuple, a list, a numpy array), else
    :class:`Failed` saying what came."""
    got = plain(got)
    if isinstance(got, Sequence) and not isinstance(got, (str, bytes)) and len(got) == 2:
        return got[0], got[1]
    if number(got) is not None:
        raise Failed(f"expected a pair {what}, got one number, {shown(got)}: return both, "
                     f"{what}")
    raise Failed(f"expected a pair {what}, got {shown(got)}")
