"""The channel between the grader and its sandboxed child, and its one schema: one JSON object
per line each way, with exactly one key, the message's kind. Both ends live here: the
parent's (:class:`ParentChannel`, which checks every message it reads with :func:`read`) and
the child's (:class:`Channel`).

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
                                               "printed": str, "notes": [str]}}`` (the
                                               worker's), then ``{"reaped": {}}`` (the
                                               child's own: it outlived its worker)
(any)                                          ``{"crashed": str}``: the worker ended without
                                               a report
=============================================  ==============================================

A VALUE is JSON of at most :data:`MAX_DEPTH` levels, a line at most :data:`MAX_LINE` bytes.
:func:`read` checks every message from the child; one that breaks the schema is a
:class:`ProtocolError`, the child's (the submission's) failure. The payloads that the grader
reads field by field are typed (:class:`Done`, :class:`Raised`, :class:`Ended`), as are the
requests it writes (:class:`Exec`, :class:`Begin`, :class:`End`).

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
import select
import time
from collections.abc import Callable, Collection
from typing import IO, Any, Literal, TypedDict

from .failures import INTERFERED, ChannelBroken, ChildEnded, ChildTimedOut
from .rules import Failure, Flags

__all__ = ["ProtocolError", "Channel", "ParentChannel", "read", "MAX_LINE", "MAX_DEPTH",
           "Exec", "Begin", "End", "Done", "Raised", "Ended", "Reply", "FINAL"]

MAX_LINE = 4 << 20  # bytes in one message
MAX_DEPTH = 32  # levels of nesting in a message
#: the kinds that end a worker's answer to a request
FINAL = ("return", "iterator", "item", "stop", "raised", "crashed")
#: what the parent takes in: a message's kind and its payload, as :func:`read` checked it
Reply = tuple[str, Any]
#: the child's own words when the channel's other end is gone: said by :class:`ParentChannel`
ENDED = ("the grading process ended without a report: did the notebook's code end the "
         "process (os._exit)?")


class Exec(TypedDict):
    """Run one cell: its source, how messages name it, its seconds."""

    op: Literal["exec"]
    cell: str
    label: str
    timeout: float


class Begin(TypedDict):
    """Fork a worker for one test of at most ``timeout`` processor seconds."""

    op: Literal["begin"]
    timeout: float


class End(TypedDict):
    """End the test's worker: it answers with :class:`Ended`."""

    op: Literal["end"]


class Done(TypedDict):
    """A cell ran: what went wrong, the notebook's names ("callable" or a type's name), and
    whether it ran out of time."""

    problems: list[str]
    names: dict[str, str]
    interrupted: bool


#: the student's code raised: a status ("raised", "recursion", "memory", "flagged") and the
#: words for it, as :func:`~.rules.failure` gives them
Raised = Failure


class Ended(TypedDict):
    """A worker ended: the rules it broke (``flags``: :class:`~.rules.Flags`, checked here as
    scalars), what it printed, what it noted."""

    flags: Flags
    printed: str
    notes: list[str]


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
    "reaped": lambda x: x == {},
}


def read(line: bytes, expected: Collection[str]) -> Reply:
    """Kind and payload of a message from the child, checked against the schema and the kinds
    ``expected`` at this point (:class:`ProtocolError` where it breaks them)."""
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


class ParentChannel:
    """The grader's end of a running child's channel: the child's stdin to write requests,
    its stdout to read replies. Every reply is checked (:func:`read`); a reply that breaks
    the schema, a child that ends or one that does not answer in time raises a
    :class:`~.failures.ChildFailed`."""

    def __init__(self, stdin: IO[bytes], stdout: IO[bytes]) -> None:
        self.stdin, self.stdout = stdin, stdout
        self._buf = b""

    def send(self, msg: Any) -> None:
        """Write one request (a gone child is said by the next :meth:`recv`)."""
        try:
            self.stdin.write(json.dumps(msg).encode() + b"\n")
            self.stdin.flush()
        except (BrokenPipeError, OSError):
            pass

    def recv(self, expected: Collection[str], deadline: float, *,
             look: Callable[[], None], every: float) -> Reply:
        """The next reply, one of ``expected`` before ``deadline`` (a ``time.monotonic()``);
        ``look()`` is called at least every ``every`` seconds while waiting, and may raise to
        stop the wait (the watch on the child)."""
        fd = self.stdout.fileno()
        while b"\n" not in self._buf:
            left = deadline - time.monotonic()
            if left <= 0:
                raise ChildTimedOut()
            if len(self._buf) > MAX_LINE:
                raise ChannelBroken(INTERFERED + " (it sent far too much data)")
            look()
            if select.select([fd], [], [], min(left, every))[0]:
                chunk = os.read(fd, 1 << 16)
                if not chunk:
                    raise ChildEnded(ENDED)
                self._buf += chunk
        line, self._buf = self._buf.split(b"\n", 1)
        try:
            return read(line, expected)
        except ProtocolError as err:
            raise ChannelBroken(f"{INTERFERED} (it wrote {err} to the grader's channel)") \
                from None


class Channel:
    """The child's end: JSON lines over a pair of descriptors."""

    def __init__(self, rfd: int, wfd: int) -> None:
        self.rfd, self.wfd, self.buf = rfd, wfd, b""

    def send(self, kind: str, payload: Any) -> None:
        """Write one message of ``kind`` (all of it, however the pipe takes it)."""
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
