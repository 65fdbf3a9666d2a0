"""Text a student reads in a feedback page: lines folded for a page that does not wrap
printed text (nbgrader's feedback shows a cell's output as it was printed).

>>> wrap("    leaves: " + "N=8 " * 30, 40)[:2]
['    leaves: N=8 N=8 N=8 N=8 N=8 N=8 N=8', '      N=8 N=8 N=8 N=8 N=8 N=8 N=8 N=8']
"""

from __future__ import annotations

import textwrap

__all__ = ["wrap", "WIDTH", "VALIDATE_WIDTH"]

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
