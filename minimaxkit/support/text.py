"""Text a student reads: lines folded for a page that does not wrap printed text
(nbgrader's feedback shows a cell's output as it was printed), and names listed in words.

>>> wrap("    leaves: " + "N=8 " * 30, 40)[:2]
['    leaves: N=8 N=8 N=8 N=8 N=8 N=8 N=8', '      N=8 N=8 N=8 N=8 N=8 N=8 N=8 N=8']
"""

from __future__ import annotations

import textwrap

__all__ = ["wrap", "listed", "WIDTH", "VALIDATE_WIDTH"]

WIDTH = 100  # columns of a verdict's line
#: columns of a line in the Validate dialog: nbgrader validate prints 90 columns, 4 of
#: indent, and cuts at 87
VALIDATE_WIDTH = 82


def wrap(line: str, width: int = WIDTH) -> list[str]:
    """``line`` folded at ``width``, continuation lines indented two more than the first;
    never a word cut in two (a long one stands alone on its line)."""
    indent = line[: len(line) - len(line.lstrip())]
    return textwrap.wrap(line, width, initial_indent="", subsequent_indent=indent + "  ",
                         break_long_words=False, break_on_hyphens=False) or [line]


def listed(names: list[str]) -> str:
    """Names in words, the last two joined by "and".

    >>> listed(["E"]), listed(["E", "F"]), listed(["a1", "b2", "c3"])
    ('E', 'E and F', 'a1, b2 and c3')
    """
    return names[0] if len(names) == 1 else ", ".join(names[:-1]) + " and " + names[-1]
