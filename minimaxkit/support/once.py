"""Warnings said once a run: an autograde grades many submissions in one process, and what is
true of the course or the machine (no course secret, no sandbox) is said once, not once a
submission, so that the log keeps room for what differs.

>>> import logging, io
>>> stream = io.StringIO()
>>> log = logging.getLogger("once-demo")
>>> log.addHandler(logging.StreamHandler(stream))
>>> for _ in range(3):
...     warn_once(log, "minimaxkit: said once")
>>> stream.getvalue()
'minimaxkit: said once\\n'
"""

from __future__ import annotations

import functools
import logging

__all__ = ["warn_once"]


def warn_once(log: logging.Logger, message: str) -> None:
    """Log ``message`` as a warning on ``log`` the first time this process is asked to (a
    process forked later, such as a class autograde's worker, has then said it too);
    nothing for an empty message."""
    if message and not _said(message):
        _said(message).append(log.name)
        log.warning(message)


@functools.cache
def _said(message: str) -> list[str]:
    """The loggers ``message`` was said on (one list a message, kept for the process)."""
    return []
