"""The channel between the grader and its sandboxed child, and its one schema: one JSON object
per line each way, with exactly one key, the message's kind.

=============================================  ==============================================
parent → child                                 child → parent
=============================================  ==============================================
``{"op": "exec", "cell", "label", "timeout"}``  ``{"done": {"problems": [str], "names":
                                               {str: str}, "interrupted": bool}}``
``{"op": "begin", "timeout"}``                 ``{"ready": {}}``: a worker is forked for one
                                               test and waits for requests
``{"op": "call", ...}``, ``{"op": "next"}``    ``{"ask": VALUE}`` (answered by ``{"answer":
(what a request means is the worker            VALUE}``), then ``{"return": VALUE}``,
module's business)                             ``{"iterator": {}}``, ``{"item": VALUE}``,
                                               ``{"stop": {}}`` or ``{"raised": {"status":
                                               str, "message": str}}``
``{"op": "end"}``                              ``{"ended": {"flags": {str: scalar},
                                               "printed": str, "notes": [str]}}``
(any)                                          ``{"crashed": str}``: the worker ended without
                                               a report
=============================================  ==============================================

A VALUE is JSON of at most :data:`MAX_DEPTH` levels, a line at most :data:`MAX_LINE` bytes.
:func:`read` checks every message from the child; one that breaks the schema is a
:class:`ProtocolError`, the child's (the submission's) failure.

>>> read(b'{"done": {"problems": [], "names": {"f": "callable"}, "interrupted": false}}',
...      ("done",))
('done', {'problems': [], 'names': {'f': 'callable'}, 'interrupted': False})
>>> read(b'{"names": 5}', ("done",))
Traceback (most recent call last):
...
minimaxkit.isolation.protocol.ProtocolError: an unexpected message ('names')
"""

from __future__ import annotations

import json
import os
from collections.abc import Callable, Collection
from typing import Any

__all__ = ["ProtocolError", "Channel", "read", "MAX_LINE", "MAX_DEPTH"]

MAX_LINE = 4 << 20  # bytes in one message
MAX_DEPTH = 32  # levels of nesting in a message


class ProtocolError(Exception):
    """A message from the child that breaks the schema (the child's failure)."""


def _value(x: Any) -> bool:
    todo, seen = [(x, 0)], 0
    while todo:
        v, depth = todo.pop()
        seen += 1
        if depth > MAX_DEPTH or seen > 1_000_000:
            return False
        if isinstance(v, dict):
            if not all(isinstance(k, str) for k in v):
                return False
            todo += [(w, depth + 1) for w in v.values()]
        elif isinstance(v, list):
            todo += [(w, depth + 1) for w in v]
    return True


def _strings(x: Any) -> bool:
    return isinstance(x, list) and all(isinstance(s, str) for s in x)


def _done(x: Any) -> bool:
    return (isinstance(x, dict) and set(x) == {"problems", "names", "interrupted"}
            and _strings(x["problems"]) and isinstance(x["interrupted"], bool)
            and isinstance(x["names"], dict)
            and all(isinstance(v, str) for v in x["names"].values()))


def _raised(x: Any) -> bool:
    return (isinstance(x, dict) and isinstance(x.get("status"), str)
            and isinstance(x.get("message"), str))


def _ended(x: Any) -> bool:
    return (isinstance(x, dict) and isinstance(x.get("flags"), dict)
            and all(isinstance(v, str | int | float | bool) for v in x["flags"].values())
            and isinstance(x.get("printed"), str) and _strings(x.get("notes")))


_SCHEMA: dict[str, Callable[[Any], bool]] = {
    "done": _done, "ready": lambda x: x == {}, "ask": _value, "return": _value,
    "iterator": lambda x: x == {}, "item": _value, "stop": lambda x: x == {},
    "raised": _raised, "ended": _ended, "crashed": lambda x: isinstance(x, str),
}


def read(line: bytes, expected: Collection[str]) -> tuple[str, Any]:
    """Kind and payload of a message from the child, checked against the schema and the kinds
    ``expected`` at this point."""
    if len(line) > MAX_LINE:
        raise ProtocolError(f"a message of more than {MAX_LINE >> 20} MB")
    try:
        msg = json.loads(line)
    except (ValueError, RecursionError):
        raise ProtocolError("a line that is not JSON") from None
    if not isinstance(msg, dict) or len(msg) != 1:
        raise ProtocolError("a message that is not one kind")
    [(kind, payload)] = msg.items()
    if kind not in expected:
        raise ProtocolError(f"an unexpected message ({kind[:20]!r})")
    if not _SCHEMA[kind](payload):
        raise ProtocolError(f"a malformed {kind!r} message")
    return kind, payload


class Channel:
    """The child's end: JSON lines over a pair of descriptors."""

    def __init__(self, rfd: int, wfd: int) -> None:
        self.rfd, self.wfd, self.buf = rfd, wfd, b""

    def send(self, kind: str, payload: Any) -> None:
        data = memoryview(json.dumps({kind: payload}).encode() + b"\n")
        while data:
            data = data[os.write(self.wfd, data):]

    def recv(self) -> dict[str, Any]:
        """The next request; the process ends when the parent is gone."""
        while b"\n" not in self.buf:
            chunk = os.read(self.rfd, 1 << 16)
            if not chunk:
                os._exit(0)
            self.buf += chunk
        line, self.buf = self.buf.split(b"\n", 1)
        return dict(json.loads(line))
