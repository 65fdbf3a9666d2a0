"""The checks of a tree's parts as they are read: a value (a leaf's, or an interior node's
static value) and a player. Each failure is a :class:`~minimaxkit.errors.TreeError` naming
the node's path and what was expected there.

>>> check_value(3, (0,), leaf=True), check_player("min", ())
(3, False)
>>> check_value(float("nan"), (1, 2), leaf=True)
Traceback (most recent call last):
...
minimaxkit.errors.TreeError: node at path (1, 2): a leaf must be a finite number, got nan
"""

from __future__ import annotations

import math
import sys
from numbers import Real
from typing import Any

from ..errors import TreeError

__all__ = ["Path", "PLAYERS", "FLOAT_MAX", "check_value", "check_player"]

#: A node's address: the child indices from the root (the root's is ``()``).
Path = tuple[int, ...]
PLAYERS = ("max", "min")
#: The largest int a value may be: one a float (and so JSON and a drawing) can hold.
FLOAT_MAX = int(sys.float_info.max)


def check_value(value: Any, path: Path, *, leaf: bool) -> float | None:
    """A node's value as given, after checking it is an int or a float that a search, a
    drawing and JSON all handle exactly: finite and within a float's range. Other number
    types (``Fraction``, ``Decimal``) are refused rather than rounded behind the user's back.
    An interior node (``leaf`` false) may have none.
    """
    kind = type(value)  # the usual cases first: a plain int or a finite float
    if kind is int and -FLOAT_MAX <= value <= FLOAT_MAX:
        return value  # type: ignore[no-any-return]
    if kind is float and math.isfinite(value):
        return value  # type: ignore[no-any-return]
    if value is None and not leaf:
        return None
    what = "a leaf" if leaf else "a static value"
    if isinstance(value, bool) or not isinstance(value, Real):
        raise TreeError(path, f"{what} must be a finite number, got {value!r}")
    if not isinstance(value, (int, float)):
        raise TreeError(path, f"{what} must be an int or a float, got the "
                              f"{type(value).__name__} {value!r}; convert it, e.g. float(x)")
    if isinstance(value, int) and not -FLOAT_MAX <= value <= FLOAT_MAX:
        raise TreeError(path, f"{what} must be within a float's range (about ±1.8e308), "
                              f"got an int of {len(str(abs(value)))} digits")
    if not math.isfinite(value):
        raise TreeError(path, f"{what} must be a finite number, got {value!r}")
    return value


def check_player(spec: Any, path: Path) -> bool:
    """True for ``"max"``, False for ``"min"``; anything else is a TreeError."""
    if spec not in PLAYERS:
        raise TreeError(path, f"unknown player {spec!r}; expected 'max' or 'min'")
    return bool(spec == "max")
