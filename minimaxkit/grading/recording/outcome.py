"""What student code did on one tree, and values described for the trip between processes.

>>> describe(3), describe(2.5), describe(None), describe(True)
({'number': 3}, {'number': 2.5}, {'none': True}, {'other': 'bool', 'repr': 'True'})
>>> describe((1, "x"))
{'seq': [{'number': 1}, {'other': 'str', 'repr': "'x'"}]}
"""

from __future__ import annotations

import math
import numbers
from dataclasses import dataclass, field
from typing import Any, TypedDict

from ...isolation.rules import Flags, safe_repr
from ...student import SearchNode

__all__ = ["Outcome", "Described", "DescribedValue", "NumberValue", "NoneValue", "NodeValue",
           "SeqValue", "OtherValue", "describe", "broken_rule", "failed_message", "OUTPUT_LIMIT"]

Path = tuple[int, ...]
OUTPUT_LIMIT = 200_000  # characters a student function may print during one test


@dataclass(frozen=True)
class Outcome:
    """What student code did on one tree: ``status`` "ok" or why not ("raised", "timeout",
    "looping", "mutated", "reference"...), in words in ``message``; result, calls, output."""

    status: str
    message: str = ""
    result: Any = None
    calls: list[tuple[str, Path]] = field(default_factory=list)
    marks: list[int] = field(default_factory=list)
    printed: str = ""
    seconds: float = 0.0

    @property
    def ok(self) -> bool:
        """Whether the student code finished as it should (``status == "ok"``)."""
        return self.status == "ok"


class NumberValue(TypedDict):
    """A number returned (a whole float as an int)."""

    number: int | float


class NoneValue(TypedDict):
    """``None`` returned."""

    none: bool


class NodeValue(TypedDict):
    """A node returned: its path and name."""

    node: list[int]
    name: str


class SeqValue(TypedDict):
    """A tuple or list returned (its first 1,000 items, three levels deep)."""

    seq: list[DescribedValue]


class OtherValue(TypedDict):
    """Anything else: its type's name and a short repr."""

    other: str
    repr: str


#: a returned value as it travels between processes (:func:`describe`); what comes back from
#: the sandboxed child is the student's process's word for it, read as such by the verdicts
DescribedValue = NumberValue | NoneValue | NodeValue | SeqValue | OtherValue


class Described:
    """A value already described where it was made (in the sandboxed child)."""

    def __init__(self, data: Any) -> None:
        self.data = data


def describe(value: Any, *, _depth: int = 0) -> DescribedValue:
    """A returned value as plain data, safe to send between processes."""
    if isinstance(value, Described):
        return value.data  # type: ignore[no-any-return]  # the child's word for it
    if value is None:
        return NoneValue(none=True)
    if isinstance(value, numbers.Real) and not isinstance(value, bool):
        try:
            v = float(value)
        except Exception:  # a numbers.Real whose float() fails
            return OtherValue(other=type(value).__name__, repr=safe_repr(value))
        if math.isnan(v):
            return OtherValue(other="nan", repr="nan")
        return NumberValue(number=int(v) if v.is_integer() and abs(v) < 2**53 else v)
    if isinstance(value, SearchNode):
        return NodeValue(node=list(value.path), name=value.name)
    if isinstance(value, tuple | list) and _depth < 3:
        return SeqValue(seq=[describe(v, _depth=_depth + 1) for v in value[:1000]])
    return OtherValue(other=type(value).__name__, repr=safe_repr(value))


def broken_rule(flags: Flags, notes: list[str]) -> tuple[str, str] | None:
    """Status and message of the first rule broken, from a worker's flags and notes, or None."""
    if flags.get("refused_file"):
        return "reference", f"read the test data ({flags['refused_file']}) instead of searching"
    if flags.get("reference"):
        return "reference", (f"called minimaxkit's own search ({flags['reference']}) instead "
                             "of searching: write the search yourself with node.children() "
                             "and node.static()")
    if flags.get("processes"):
        return "processes", (f"started {flags['processes']} process(es) that were still "
                             "running when it returned (they were stopped): a search needs no "
                             "other processes")
    if flags.get("output"):
        return "output", (f"printed more than {OUTPUT_LIMIT // 1000} kB; remove the debugging "
                          "prints")
    if notes:
        return "mutated", "tried to change the tree: " + notes[0]
    return None


def failed_message(status: str, message: str, timeout: float) -> str:
    """A failure's message in a search's words."""
    if status == "timeout":
        return (f"did not finish within {timeout:g} s: an endless loop, or a search that never "
                "reaches the leaves?")
    if status == "recursion":
        return (message + " without reaching a leaf. Does it stop at leaves "
                "(node.is_leaf()) and at the depth limit?")
    return message
