"""The record of one lecture exercise: its check, its worked answer, and its minutes."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

__all__ = ["Exercise", "Result"]

#: What a check returns: whether the answer is right, and a message saying why.
Result = tuple[bool, str]


@dataclass(frozen=True)
class Exercise:
    """One exercise: its checker and its worked answer. ``names`` are the names the
    answer's code defines, passed to the checker in that order (tests run them);
    ``expects`` says what the check takes, in the reader's words; ``minutes`` is the time a
    student who has read the section needs to answer it and run its check (the lecture
    time model, ``timing``)."""

    check: Callable[..., Result]
    text: str
    code: str = ""
    names: tuple[str, ...] = ()
    expects: str = ""
    minutes: float = 5.0
