"""The student interface: a read-only node that records every question asked of it.

Lectures and assignments give student code a tree only through :class:`SearchNode`, whose
methods use the words of the course's sources ("if x is a leaf return static(x)", "for each
child y of x", "x is a max node"):

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

A node answers from a *source*: a :class:`Recorder` over a :class:`~minimaxkit.GameTree`
keeps, in order, which nodes' children were asked for and which static values were read;
the grader's sandboxed child uses a source that asks the trusted process instead. Both give
the same nodes, so student code cannot tell them apart.

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

import importlib
import sys
from collections.abc import Callable
from typing import Any, NamedTuple, Protocol, TypeVar, cast

from .errors import TreeError
from .tree import GameTree

__all__ = ["SearchNode", "NodeInfo", "Source", "Recorder", "ReadOnlyTree", "TooManyCalls",
           "MissingCall", "CHILDREN", "STATIC", "ESTIMATE", "evaluated_in",
           "refuse_kit_searches", "SEARCH_MODULES", "SEARCH_HOOKS"]

F = TypeVar("F", bound=Callable[..., Any])

#: The modules that hold the kit's searches, whose :data:`SEARCH_HOOKS` the refusal replaces
#: where a module has them. In the grader's sandbox each of these is a stub that has them
#: (``minimaxkit.isolation.rules.KIT_SEARCHES`` masks the same modules), the search package's
#: front and its old path ``minimaxkit.search.core`` included; outside it, those two only
#: re-export the functions of the others.
SEARCH_MODULES = ("minimaxkit.search", "minimaxkit.search.core", "minimaxkit.search.fronts",
                  "minimaxkit.search.negamax_search", "minimaxkit.search.plain_search",
                  "minimaxkit.search.table_search", "minimaxkit.deepening",
                  "minimaxkit.grading.samples")
#: The names every search calls first, looked up in its own module.
SEARCH_HOOKS = ("prepare", "run_search")
Path = tuple[int, ...]
CHILDREN, STATIC, ESTIMATE = "children", "static", "estimate"


class ReadOnlyTree(AttributeError):
    """Raised when student code tries to change a node."""


class MissingCall(TypeError):
    """Raised when a node method is used without its parentheses (``if node.is_leaf:``)."""


class TooManyCalls(BaseException):
    """Raised (past ``except Exception``) when code asks the tree far more than a search of it
    needs: it is looping."""


class NodeInfo(NamedTuple):
    """What a node knows of itself without asking: its identity and kind."""

    path: Path
    name: str
    is_max: bool
    is_leaf: bool
    move: Any


class Source(Protocol):
    """Where a :class:`SearchNode` gets its answers (and notes attempts to change it)."""

    violations: list[str]

    def children(self, path: Path) -> list[NodeInfo]:
        """What the children of the node at ``path`` know of themselves, in order."""
        ...

    def static(self, path: Path) -> float:
        """The static value of the node at ``path`` (an evaluation: recorded)."""
        ...

    def estimate(self, path: Path) -> float:
        """The static value of the node at ``path``, for ordering only (not an evaluation)."""
        ...


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


class SearchNode:
    """A read-only view of one tree node for student code; every ``children()`` and
    ``static()`` call is recorded. Nodes compare equal when they are the same position, so
    they can be dict keys (``values[node] = v``) and sorted (by path) on ties."""

    __slots__ = ("_info", "_src")

    _info: NodeInfo
    _src: Source

    @classmethod
    def answered_by(cls, info: NodeInfo, src: Source) -> SearchNode:
        """The node ``info`` describes, whose questions ``src`` answers: how a
        :class:`Recorder` (and the grader's child, over its channel) hands nodes out.
        Student code is given nodes; it does not make them."""
        self = object.__new__(cls)
        object.__setattr__(self, "_info", info)
        object.__setattr__(self, "_src", src)
        return self

    #: the old name of :meth:`answered_by` (grading's child side still calls it)
    _make = answered_by

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        raise TypeError("SearchNode objects come from the grader (Recorder.root()); "
                        "they cannot be made directly")

    def __setattr__(self, name: str, value: Any) -> None:
        msg = (f"nodes are read-only: cannot set {name!r} on node {self._info.name}; keep "
               "your own dict (e.g. values[node] = ...) instead")
        self._src.violations.append(msg)
        raise ReadOnlyTree(msg)

    def __delattr__(self, name: str) -> None:
        self.__setattr__(name, None)

    # ----- identity ----------------------------------------------------------------------
    @property
    def name(self) -> str:
        """The node's name in the pictures and messages (``"A"`` is the root)."""
        return self._info.name

    @property
    def path(self) -> Path:
        """The child indices from the root to this node (the root's path is ``()``)."""
        return self._info.path

    @property
    def depth(self) -> int:
        """The number of moves from the root to this node (the root has depth 0)."""
        return len(self._info.path)

    @property
    def move(self) -> Any:
        """The move (label) that leads from the parent to this node; None at the root."""
        return self._info.move

    def __repr__(self) -> str:
        player = "max" if self._info.is_max else "min"
        return f"SearchNode({self._info.name!r}, {player}, path={self._info.path})"

    def __eq__(self, other: object) -> bool:
        return (isinstance(other, SearchNode) and other._src is self._src
                and other._info.path == self._info.path)

    def __hash__(self) -> int:
        return hash(self._info.path)

    def __lt__(self, other: SearchNode) -> bool:
        return self._info.path < other._info.path

    # ----- the four questions ------------------------------------------------------------
    @_question
    def is_leaf(self) -> bool:
        """True when the node has no children (a terminal position)."""
        return self._info.is_leaf

    @_question
    def is_max(self) -> bool:
        """True at a MAX node (the maximizer is to move), False at a MIN node."""
        return self._info.is_max

    @_question
    def children(self) -> list[SearchNode]:
        """The children in the tree's order (a new list each call: sorting it is fine).
        Recorded: the grader knows which nodes your search expanded."""
        src = self._src
        return [SearchNode.answered_by(i, src) for i in src.children(self._info.path)]

    @_question
    def static(self) -> float:
        """The static value: a leaf's value, or an interior node's static evaluation (what a
        depth-limited search returns at its depth limit). Recorded: the grader knows which
        nodes your search evaluated, in which order."""
        return self._src.static(self._info.path)

    @_question
    def estimate(self) -> float:
        """The same number as :meth:`static`, for ordering children (move ordering); reading
        it does not count as evaluating the node."""
        return self._src.estimate(self._info.path)


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

    def info(self, path: Path) -> NodeInfo:
        """What the node at ``path`` knows of itself (its ``move`` is the move label)."""
        n = self.tree.node(path)
        move = self.tree.node(path[:-1]).moves[path[-1]] if path else None
        return NodeInfo(n.path, n.name, n.is_max, not n.children, move)

    def root(self) -> SearchNode:
        """The root of the tree as a :class:`SearchNode`."""
        return SearchNode.answered_by(self.info(()), self)

    def node(self, path: Path) -> SearchNode:
        """The node at ``path`` as a :class:`SearchNode`."""
        return SearchNode.answered_by(self.info(tuple(path)), self)

    def mark(self) -> None:
        """Note the end of one iteration (progressive deepening yields once per depth)."""
        self.marks.append(len(self.calls))

    def log(self, kind: str, path: Path) -> None:
        """Record one call; past :attr:`limit` calls, raise :class:`TooManyCalls`."""
        if len(self.calls) >= self.limit:
            raise TooManyCalls(f"more than {self.limit} calls to children()/static(): "
                               "the search seems to loop or to search the same nodes again "
                               "and again")
        self.calls.append((kind, path))

    # ----- the source of the nodes --------------------------------------------------------
    def children(self, path: Path) -> list[NodeInfo]:
        """The children of the node at ``path`` (the call recorded)."""
        self.log(CHILDREN, path)
        n = self.tree.node(path)
        return [NodeInfo(c.path, c.name, c.is_max, not c.children, m)
                for m, c in zip(n.moves, n.children, strict=True)]

    def static(self, path: Path) -> float:
        """The static value of the node at ``path`` (the call recorded: an evaluation)."""
        self.log(STATIC, path)
        return self._static_value(path, "static()")

    def estimate(self, path: Path) -> float:
        """The static value of the node at ``path``, for ordering (recorded as an estimate,
        not an evaluation)."""
        self.log(ESTIMATE, path)
        return self._static_value(path, "estimate()")

    def _static_value(self, path: Path, call: str) -> float:
        """The node's static value; where it has none, a :class:`TreeError` in a student's
        words (the tree's own message speaks to someone building a tree). Nodes at a depth
        limit are named only on a tree that can be searched to one: a tree with no static
        value at any interior node is searched to its leaves (a question without a depth
        limit)."""
        node = self.tree.node(path)
        if node.value is None:
            limit = " or nodes at the depth limit" if self._has_interior_static() else ""
            raise TreeError(path, f"{node.name}: {call} is only for leaves (a node with no "
                                  f"children){limit}; this node has children")
        return self.tree.evaluate(node)

    def _has_interior_static(self) -> bool:
        """Whether some interior node of the tree carries a static value."""
        return any(n.value is not None for n in self.tree.nodes() if n.children)

    # ----- what was recorded ---------------------------------------------------------------
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


def refuse_kit_searches(error: Callable[[str], BaseException]) -> Callable[[], None]:
    """Make every search of the kit (minimax, alphabeta, negamax, deepen, ...) raise
    ``error(name of the search)`` instead of searching; returns the undo function. The
    lecture checks and the student's own graded runs use it; where grading counts, the
    sandbox also takes the searches' code out of the child's sight
    (:mod:`minimaxkit.isolation`), which no reload undoes.

    Every public search first calls ``prepare`` (and the searches that share the plain and
    table searches then ``run_search``), looked up in its own module: those names are
    replaced, in each module of :data:`SEARCH_MODULES` that has them, by a function that
    raises ``error`` named after its caller (the search).

    >>> from minimaxkit import minimax
    >>> from minimaxkit.examples import aima_5_2
    >>> undo = refuse_kit_searches(lambda name: RuntimeError(f"{name} refused"))
    >>> try:
    ...     minimax(aima_5_2())
    ... except RuntimeError as err:
    ...     print(err)
    minimax refused
    >>> undo(); minimax(aima_5_2(), trace=False).value
    3
    """
    def refuse(*args: Any, **kwargs: Any) -> Any:
        raise error(sys._getframe(1).f_code.co_name)

    modules = [importlib.import_module(name) for name in SEARCH_MODULES]
    saved = [(m, n, getattr(m, n)) for m in modules for n in SEARCH_HOOKS if n in vars(m)]
    for module, name, _ in saved:
        setattr(module, name, refuse)

    def undo() -> None:
        for module, name, original in saved:
            setattr(module, name, original)
    return undo
