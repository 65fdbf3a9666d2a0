"""Grading through a sandboxed child: :class:`SessionRunner` runs a task here whose student
functions (:class:`RemoteFunction`) run in the child's worker (:mod:`.childside`), on nodes
that ask :func:`tree_answer` here, which records. Nothing the student's code fakes in its own
process changes the record, and the child never holds the tree or the test data.
"""

from __future__ import annotations

import math
import time
from pathlib import Path
from typing import Any, TypedDict

from ...errors import TreeError
from ...isolation.failures import ChannelBroken, ChildFailed, Status
from ...isolation.protocol import ProtocolError, Raised
from ...isolation.session import EXEC_TIMEOUT, Session, Worker
from ...student import NodeInfo, Recorder, SearchNode, TooManyCalls
from . import childside
from .childside import QUESTIONS, NodeData, TreeAnswer
from .outcome import Described, Outcome, broken_rule, failed_message
from .runners import RULES, WALL, Task

__all__ = ["SessionRunner", "RemoteFunction", "StudentRaised", "tree_answer", "encode_info",
           "tree_session", "WORKER"]

#: the module whose ``Handler`` answers in the child's workers
WORKER = childside.__name__


class AnswerMessage(TypedDict):
    """The reply to a worker's question, as the channel carries it."""

    answer: TreeAnswer


def tree_session(folder: Path, *, course_root: Path | None = None,
                 hidden_files: list[Path] | tuple[Path, ...] = (),
                 cell_timeout: float = EXEC_TIMEOUT) -> Session:
    """A sandboxed child for a notebook graded on trees (assignments 1-4), under the rules of
    every run of a search (:data:`.runners.RULES`)."""
    return Session(folder, worker=WORKER, course_root=course_root, hidden_files=hidden_files,
                   cell_timeout=cell_timeout, rules=RULES)


class StudentRaised(Exception):
    """The student's function raised in the child (a ``raised`` reply): its status and words,
    as :func:`~minimaxkit.isolation.rules.failure` gave them."""

    def __init__(self, payload: Raised) -> None:
        super().__init__(payload["message"])
        self.status, self.message = payload["status"], payload["message"]


def encode_info(info: NodeInfo) -> NodeData:
    """A node's identity as it travels to the child."""
    move = info.move if isinstance(info.move, int | str) else repr(info.move)
    return [list(info.path), info.name, info.is_max, info.is_leaf, move]


def tree_answer(rec: Recorder, question: Any) -> AnswerMessage:
    """The answer to a question from the child about ``rec``'s tree, recorded
    (:class:`ProtocolError` for a malformed one)."""
    if not (isinstance(question, dict) and question.get("kind") in QUESTIONS
            and isinstance(question.get("path"), list) and len(question["path"]) <= 100_000
            and all(type(i) is int for i in question["path"])):
        raise ProtocolError("a malformed question about the tree")
    kind, path = question["kind"], tuple(question["path"])
    try:
        rec.tree.node(path)
    except KeyError:
        return AnswerMessage(answer=TreeAnswer(missing=f"no node at path {path}"))
    if kind == "node":
        return AnswerMessage(answer=TreeAnswer(node=encode_info(rec.info(path))))
    if kind == "children":
        return AnswerMessage(answer=TreeAnswer(nodes=[encode_info(i) for i in rec.children(path)]))
    try:
        value = rec.static(path) if kind == "static" else rec.estimate(path)
    except TreeError as err:  # e.g. static() of an interior node without one
        return AnswerMessage(answer=TreeAnswer(problem=err.problem))
    return AnswerMessage(answer=TreeAnswer(value=value))


class RemoteFunction:
    """The student function ``name``, called in the child."""

    def __init__(self, runner: SessionRunner, name: str) -> None:
        self.runner, self.name = runner, name

    def __call__(self, *args: Any) -> Any:
        return self.runner.request({"op": "call", "fn": self.name,
                                    "args": [_arg(a) for a in args]})

    def __repr__(self) -> str:
        return f"<function {self.name} (graded outside the notebook)>"


def _arg(a: Any) -> Any:
    if isinstance(a, SearchNode):
        return {"node": list(a.path)}
    if isinstance(a, float) and math.isinf(a):
        return {"inf": 1 if a > 0 else -1}
    return a


class SessionRunner:
    """Tasks whose student functions run in ``session``'s sandboxed child."""

    def __init__(self, session: Session) -> None:
        self.session = session
        self._worker: Worker | None = None
        self._rec: Recorder | None = None

    def caller(self) -> dict[str, Any]:
        """The notebook's names: a :class:`RemoteFunction` per function, else a stand-in of
        the right type."""
        return {name: RemoteFunction(self, name) if kind == "callable" else type(kind, (), {})()
                for name, kind in self.session.names.items()}

    def request(self, msg: dict[str, Any]) -> Any:
        """One request to the current test's worker; its reply as a value."""
        assert self._worker is not None and self._rec is not None
        rec = self._rec
        kind, payload = self._worker.request(msg, lambda q: tree_answer(rec, q))
        if kind in ("return", "item"):
            return Described(payload)
        if kind == "iterator":  # its items, until request raises StopIteration
            return iter(lambda: self.request({"op": "next"}), object())
        if kind == "stop":
            raise StopIteration
        if kind == "raised":
            raise StudentRaised(payload)
        raise ChannelBroken(f"an unexpected {kind!r}")

    def run(self, task: Task, rec: Recorder, timeout: float) -> Outcome:
        """Run ``task`` here, its student functions in a worker of the child."""
        start = time.monotonic()
        status, message, result = "ok", "", None
        try:
            with self.session.worker(timeout, wall=WALL, stop=True) as worker:
                self._worker, self._rec = worker, rec
                try:
                    result = task(rec)
                except StudentRaised as err:
                    status, message = err.status, err.message
                ended = worker.end()
            broken = ("timeout", "") if worker.used > timeout else \
                broken_rule(ended["flags"], ended["notes"])  # processor time, not the wall's
            if broken is not None:
                status, message = broken
            printed = ended["printed"]
        except TooManyCalls as err:  # the session was stopped: the child was mid-question
            status, message, printed = "looping", str(err), ""
        except ChildFailed as err:  # a broken channel is said as a crash of the child
            status = Status.CRASHED.value if err.status == Status.PROTOCOL else str(err.status)
            message, printed = err.message, ""
        finally:
            self._worker = self._rec = None
        return Outcome(status, failed_message(status, message, timeout), result,
                       list(rec.calls), list(rec.marks), printed, time.monotonic() - start)
