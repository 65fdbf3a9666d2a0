"""The quiz's verdicts in words: how many answers are wrong, and the names typed that name
nothing in the tree."""

from __future__ import annotations

__all__ = ["wrong_count", "unknown_summary"]


def wrong_count(wrong: int, of: int, one: str, many: str) -> str:
    """``"1 of 7 values is wrong"``, ``"2 of 7 values are wrong"``: the verb agrees with
    the count that is wrong.

    >>> wrong_count(1, 7, "value", "values"), wrong_count(2, 9, "leaf", "leaves")
    ('1 of 7 values is wrong', '2 of 9 leaves are wrong')
    """
    return f"{wrong} of {of} {many if of != 1 else one} {'is' if wrong == 1 else 'are'} wrong"


def unknown_summary(unknown: list[str], what: str) -> str:
    """Why answers were not checked: they name no ``what`` of the tree (the first five)."""
    shown = ", ".join(repr(x) for x in unknown[:5]) + (" …" if len(unknown) > 5 else "")
    return (f"Not checked: {len(unknown)} of the things you typed name no {what} of this "
            f"tree: {shown}. Use the names as they are listed.")
