"""The student interface: a read-only node that records every question asked of it.

Student code sees the tree only through :class:`SearchNode`, whose methods use the words of
the documents (000: "if x is a leaf return static(x)", "for each child y of x", "x is a max
node"):

=====================  ===========================================================
``node.is_leaf()``     True when the node has no children (a terminal position)
``node.is_max()``      True at a MAX node (the maximizer is to move)
``node.children()``    the child nodes, in the tree's (natural) order — *recorded*
``node.static()``      the static value: a leaf's value, or an interior node's static
                       evaluation (used at a depth limit) — *recorded*
``node.estimate()``    the same number as ``static()``, for ordering children only;
                       not counted as an evaluation
``node.name``          the node's name (``"A"``, ``"B"``, ...), ``node.path`` its path
                       (child indices from the root), ``node.depth`` its distance from
                       the root, ``node.move`` the move that led to it (None at the root)
=====================  ===========================================================

A :class:`Recorder` keeps, in order, which nodes' children were asked for and which nodes'
static values were read; the grader turns that into the trace of what the code did.

>>> from minimaxkit import GameTree
>>> rec = Recorder(GameTree.from_nested([[3, 12], [2, 4]]))
>>> root = rec.root()
>>> root, root.is_max(), [c.name for c in root.children()]
(SearchNode('A', max, path=()), True, ['B', 'C'])
>>> root.children()[1].children()[0].static()
2
>>> rec.evaluated, rec.expanded
([(1, 0)], [(), (1,)])
>>> try:
...     if root.is_leaf:  # the slip: a method without its parentheses
...         pass
... except MissingCall as err:
...     print(str(err)[:67])
node.is_leaf is a method: write node.is_leaf() with parentheses (at
>>> try:
...     root.value = 3
... except ReadOnlyTree as err:
...     print(str(err)[:55])
nodes are read-only: cannot set 'value' on node A; keep
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, TypeVar, cast

from ..tree import GameTree, Node

__all__ = ["SearchNode", "Recorder", "ReadOnlyTree", "TooManyCalls", "MissingCall", "CHILDREN",
           "STATIC", "ESTIMATE", "evaluated_in"]

F = TypeVar("F", bound=Callable[..., Any])

Path = tuple[int, ...]
CHILDREN, STATIC, ESTIMATE = "children", "static", "estimate"


class ReadOnlyTree(AttributeError):
    """Raised when student code tries to change a node."""


class MissingCall(TypeError):
    """Raised when a node method is used without its parentheses (``if node.is_leaf:``)."""


class _Unbound:
    """A node method before the call. Called, it answers; used as a value (tested as a
    condition, iterated, compared, added) it raises :class:`MissingCall` naming the fix,
    instead of passing silently for True (a bound method is always true)."""

    __slots__ = ("_f", "_node", "_name")

    def __init__(self, f: Callable[..., Any], node: SearchNode, name: str) -> None:
        self._f, self._node, self._name = f, node, name

    def __call__(self, *args: Any) -> Any:
        return self._f(self._node, *args)

    def __repr__(self) -> str:
        return f"node.{self._name} (a method: write node.{self._name}())"

    def _slip(self, *_: Any) -> Any:
        raise MissingCall(f"node.{self._name} is a method: write node.{self._name}() with "
                          f"parentheses (at node {self._node.name}). Without them it is "
                          "the method itself, not its answer")

    __bool__ = __iter__ = __len__ = __float__ = __int__ = __index__ = _slip
    __lt__ = __le__ = __gt__ = __ge__ = _slip
    __add__ = __radd__ = __sub__ = __rsub__ = __mul__ = __rmul__ = __neg__ = _slip
    __getitem__ = _slip


class _Question:
    """A descriptor making a :class:`SearchNode` method an :class:`_Unbound` on access."""

    def __init__(self, f: Callable[..., Any]) -> None:
        self._f = f
        self.__doc__ = f.__doc__
        self.__name__ = f.__name__

    def __get__(self, node: SearchNode | None, owner: type | None = None) -> Any:
        return self if node is None else _Unbound(self._f, node, self.__name__)


def _question(f: F) -> F:
    return cast(F, _Question(f))


class TooManyCalls(BaseException):
    """Raised (past ``except Exception``) when code asks the tree far more than a search of it
    needs: it is looping."""


class Recorder:
    """Hands out :class:`SearchNode` views of ``tree`` and records, in order, every
    ``children()`` and ``static()`` call (and ``estimate()`` reads) made on them.

    ``limit`` bounds the number of recorded calls; past it :class:`TooManyCalls` is raised.
    """

    def __init__(self, tree: GameTree, *, limit: int = 50_000) -> None:
        self.tree = tree
        self.limit = limit
        #: ``(kind, path)`` for every call, in order; kind is "children", "static" or "estimate"
        self.calls: list[tuple[str, Path]] = []
        #: indices into :attr:`calls` where an iteration ended (see ``mark``)
        self.marks: list[int] = []
        #: attempts to change a node, as messages
        self.violations: list[str] = []

    def root(self) -> SearchNode:
        """The root of the tree as a :class:`SearchNode`."""
        return SearchNode._make(self.tree.root, self, None)

    def node(self, path: Path) -> SearchNode:
        """The node at ``path`` as a :class:`SearchNode` (its ``move`` is its last index)."""
        n = self.tree.node(path)
        move = None
        if path:
            parent = self.tree.node(path[:-1])
            move = parent.moves[path[-1]]
        return SearchNode._make(n, self, move)

    def mark(self) -> None:
        """Note the end of one iteration (progressive deepening yields once per depth)."""
        self.marks.append(len(self.calls))

    def _log(self, kind: str, path: Path) -> None:
        if len(self.calls) >= self.limit:
            raise TooManyCalls(f"more than {self.limit} calls to children()/static(): "
                               "the search seems to loop or to search the same nodes again "
                               "and again")
        self.calls.append((kind, path))

    @property
    def evaluated(self) -> list[Path]:
        """Paths whose static value was read, in order (see :func:`evaluated_in`)."""
        return evaluated_in(self.calls)

    @property
    def expanded(self) -> list[Path]:
        """Paths of interior nodes whose children were asked for, first time only, in order."""
        seen: set[Path] = set()
        out: list[Path] = []
        for kind, path in self.calls:
            if kind == CHILDREN and path not in seen and self.tree.node(path).children:
                seen.add(path)
                out.append(path)
        return out

    def segments(self) -> list[list[tuple[str, Path]]]:
        """:attr:`calls` split at the iteration marks (one list per iteration)."""
        bounds = [0, *self.marks]
        return [self.calls[a:b] for a, b in zip(bounds, bounds[1:], strict=False)]


def evaluated_in(calls: list[tuple[str, Path]]) -> list[Path]:
    """The static reads among ``calls``, a read repeated at once counted once.

    >>> evaluated_in([("static", (0,)), ("static", (0,)), ("children", ()), ("static", (1,))])
    [(0,), (1,)]
    """
    out: list[Path] = []
    last: Path | None = None
    for kind, path in calls:
        if kind == STATIC:
            if path != last:
                out.append(path)
            last = path
        elif kind == CHILDREN:
            last = None
    return out


class SearchNode:
    """A read-only view of one tree node for student code; every ``children()`` and
    ``static()`` call is recorded. Nodes compare equal when they are the same position, so
    they can be dict keys (``values[node] = v``) and sorted (by path) on ties."""

    __slots__ = ("_n", "_rec", "_move")

    _n: Node
    _rec: Recorder
    _move: Any

    @classmethod
    def _make(cls, n: Node, rec: Recorder, move: Any) -> SearchNode:
        self = object.__new__(cls)
        object.__setattr__(self, "_n", n)
        object.__setattr__(self, "_rec", rec)
        object.__setattr__(self, "_move", move)
        return self

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        raise TypeError("SearchNode objects come from the grader (Recorder.root()); "
                        "they cannot be made directly")

    def __setattr__(self, name: str, value: Any) -> None:
        msg = (f"nodes are read-only: cannot set {name!r} on node {self._n.name}; keep your "
               "own dict (e.g. values[node] = ...) instead")
        self._rec.violations.append(msg)
        raise ReadOnlyTree(msg)

    def __delattr__(self, name: str) -> None:
        self.__setattr__(name, None)

    # ----- identity ----------------------------------------------------------------------
    @property
    def name(self) -> str:
        """The node's name in the pictures and messages (``"A"`` is the root)."""
        return self._n.name

    @property
    def path(self) -> Path:
        """The child indices from the root to this node (the root's path is ``()``)."""
        return self._n.path

    @property
    def depth(self) -> int:
        """The number of moves from the root to this node (the root has depth 0)."""
        return len(self._n.path)

    @property
    def move(self) -> Any:
        """The move (label) that leads from the parent to this node; None at the root."""
        return self._move

    def __repr__(self) -> str:
        return f"SearchNode({self._n.name!r}, {self._n.player}, path={self._n.path})"

    def __eq__(self, other: object) -> bool:
        return (isinstance(other, SearchNode) and other._rec is self._rec
                and other._n.path == self._n.path)

    def __hash__(self) -> int:
        return hash(self._n.path)

    def __lt__(self, other: SearchNode) -> bool:
        return self._n.path < other._n.path

    # ----- the four questions of the documents -------------------------------------------
    @_question
    def is_leaf(self) -> bool:
        """True when the node has no children (a terminal position)."""
        return not self._n.children

    @_question
    def is_max(self) -> bool:
        """True at a MAX node (the maximizer is to move), False at a MIN node."""
        return self._n.is_max

    @_question
    def children(self) -> list[SearchNode]:
        """The children in the tree's order (a new list each call: sorting it is fine).
        Recorded: the grader knows which nodes your search expanded."""
        self._rec._log(CHILDREN, self._n.path)
        n, rec = self._n, self._rec
        return [SearchNode._make(c, rec, m) for m, c in zip(n.moves, n.children, strict=True)]

    @_question
    def static(self) -> float:
        """The static value: a leaf's value, or an interior node's static evaluation (what a
        depth-limited search returns at its depth limit). Recorded: the grader knows which
        nodes your search evaluated, in which order."""
        self._rec._log(STATIC, self._n.path)
        return self._rec.tree.evaluate(self._n)

    @_question
    def estimate(self) -> float:
        """The same number as :meth:`static`, for ordering children (move ordering); reading
        it does not count as evaluating the node."""
        self._rec._log(ESTIMATE, self._n.path)
        return self._rec.tree.evaluate(self._n)
