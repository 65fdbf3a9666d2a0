"""The child's side of tree grading: in a worker, the student's function runs on
:class:`~minimaxkit.student.SearchNode` views whose every question goes to the trusted process
(:mod:`.remote`), which records it. Nothing here is trusted.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, TypedDict

from ...errors import TreeError
from ...student import NodeInfo, SearchNode
from .outcome import describe

__all__ = ["Handler", "RemoteSource", "TreeQuestion", "TreeAnswer", "NodeData", "QUESTIONS"]

Path = tuple[int, ...]
#: what a worker may ask the trusted process about the tree
QUESTIONS = ("children", "static", "estimate", "node")
#: a node's identity as it travels: path, name, is_max, is_leaf, move
NodeData = list[Any]


class TreeQuestion(TypedDict):
    """A worker's question (an ``ask``): one of :data:`QUESTIONS` about the node at ``path``."""

    kind: str
    path: list[int]


class TreeAnswer(TypedDict, total=False):
    """The trusted process's answer (under ``answer``): the node, its children, its value, or
    why there is none (``missing``: no such node; ``problem``: the tree's own refusal)."""

    node: NodeData
    nodes: list[NodeData]
    value: float
    missing: str
    problem: str


def _info(data: NodeData) -> NodeInfo:
    path, name, is_max, is_leaf, move = data
    return NodeInfo(tuple(path), name, is_max, is_leaf, move if path else None)


class RemoteSource:
    """The nodes' source in the child: the trusted process answers."""

    def __init__(self, ask: Callable[[Any], Any]) -> None:
        self.ask = ask
        self.violations: list[str] = []

    def _answer(self, kind: str, path: Path) -> TreeAnswer:
        answer = TreeAnswer(**self.ask(TreeQuestion(kind=kind, path=list(path))))
        if "missing" in answer:
            raise LookupError(answer["missing"])
        if "problem" in answer:  # the tree's own answer, e.g. no static value here
            raise TreeError(tuple(path), str(answer["problem"]))
        return answer

    def info(self, path: Path) -> NodeInfo:
        """The identity of the node at ``path``, from the trusted process."""
        return _info(self._answer("node", path)["node"])

    def children(self, path: Path) -> list[NodeInfo]:
        """The children of the node at ``path``, from the trusted process (which records
        the call)."""
        return [_info(i) for i in self._answer("children", path)["nodes"]]

    def static(self, path: Path) -> float:
        """The static value at ``path`` (a TreeError where the tree has none)."""
        return self._answer("static", path)["value"]  # type: ignore[no-any-return]

    def estimate(self, path: Path) -> float:
        """The estimate at ``path`` (a TreeError where the tree has none)."""
        return self._answer("estimate", path)["value"]  # type: ignore[no-any-return]


class Handler:
    """A worker's requests: ``call`` a notebook function on nodes, ``next`` of its generator."""

    def __init__(self, ns: dict[str, Any], ask: Callable[[Any], Any]) -> None:
        self.ns, self.source = ns, RemoteSource(ask)
        self.live: Any = None

    def _arg(self, a: Any) -> Any:
        if isinstance(a, dict) and "node" in a:
            return SearchNode._make(self.source.info(tuple(a["node"])), self.source)
        if isinstance(a, dict) and "inf" in a:
            return float("inf") * a["inf"]
        return a

    def handle(self, msg: dict[str, Any]) -> tuple[str, Any]:
        """The reply to one request: ``call`` a notebook function on nodes (its value described, or
        ``iterator`` for a generator), ``next`` of the generator."""
        if msg.get("op") == "next":
            try:
                return "item", describe(next(self.live))
            except StopIteration:
                return "stop", {}
        got = self.ns[msg["fn"]](*[self._arg(a) for a in msg.get("args", [])])
        if hasattr(got, "__next__") and not isinstance(got, list | tuple):
            self.live = got
            return "iterator", {}
        return "return", describe(got)

    def notes(self) -> list[str]:
        """What the worker noted: the first attempt to change the tree."""
        return self.source.violations[:1]
