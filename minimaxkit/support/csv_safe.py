"""CSV fields written for spreadsheets, whose users open the files the kit writes (the class
report's ``report.csv``, the tournament's ``leaderboard.csv``): a student's id or text must not
run as a formula there.
"""

from __future__ import annotations

from typing import Any

__all__ = ["csv_safe", "FORMULA_STARTS"]

#: what a spreadsheet reads as the start of a formula (OWASP's "CSV injection")
FORMULA_STARTS = ("=", "+", "-", "@")


def csv_safe(value: Any) -> Any:
    """``value`` as a CSV field no spreadsheet runs as a formula: text that starts with one of
    :data:`FORMULA_STARTS` gets a leading ``'`` (shown, never run); anything else unchanged.

    >>> [csv_safe(v) for v in ("=2+5", "-1", "ada", 3, "")]
    ["'=2+5", "'-1", 'ada', 3, '']
    """
    if isinstance(value, str) and value.startswith(FORMULA_STARTS):
        return f"'{value}"
    return value
