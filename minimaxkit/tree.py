"""Explicit game trees: nested lists, a named dict/JSON form, seeded random trees.

A tree is a :class:`~minimaxkit.game.Game` whose states are its :class:`Node` objects, so
every search runs on trees and real games alike. Nodes are addressed by their *path*
(the tuple of child indices from the root) and have names (A, B, C, ... in breadth-first
order unless given).

>>> tree = GameTree.from_nested([[3, 12, 8], [2, 4, 6], [14, 5, 2]])
>>> tree.node((1, 2))
Node(path=(1, 2), name='J', player='max', value=6)
>>> [n.name for n in tree.root.children]
['B', 'C', 'D']
>>> len(tree), len(tree.leaves())
(13, 9)
"""

from __future__ import annotations

import json
import math
import random as _random
import sys
import threading
from collections import deque
from collections.abc import Hashable, Iterator, Sequence
from dataclasses import dataclass, field
from itertools import chain, count, product
from numbers import Real
from typing import Any

from .errors import OptionError, TreeError
from .support.gc_pause import paused_gc

__all__ = ["GameTree", "Node", "Path", "default_name"]

Path = tuple[int, ...]
_PLAYERS = ("max", "min")
_NODE_KEYS = {"name", "player", "value", "children"}
_EDGE_KEYS = {"move", "node"}


def default_name(i: int) -> str:
    """The i-th default node name: A..Z, then AA, AB, ... like spreadsheet columns.

    >>> [default_name(i) for i in (0, 1, 25, 26, 27, 701, 702)]
    ['A', 'B', 'Z', 'AA', 'AB', 'ZZ', 'AAA']
    """
    name = ""
    i += 1
    while i:
        i, r = divmod(i - 1, 26)
        name = chr(ord("A") + r) + name
    return name


@dataclass(frozen=True, eq=False, slots=True)
class Node:
    """One position of an explicit tree. Leaves have a value; interior nodes may have one too
    (their static evaluation, used when a depth limit stops there)."""

    path: Path
    name: str
    is_max: bool
    value: float | None
    children: tuple[Node, ...] = field(default=(), repr=False)
    moves: tuple[Hashable, ...] = field(default=(), repr=False)
    _by_move: dict[Hashable, Node] = field(default_factory=dict, repr=False)

    def __repr__(self) -> str:
        return (
            f"Node(path={self.path!r}, name={self.name!r}, player={self.player!r}, "
            f"value={self.value!r})"
        )

    @property
    def player(self) -> str:
        """``"max"`` or ``"min"``: who is to move here."""
        return "max" if self.is_max else "min"

    @property
    def is_leaf(self) -> bool:
        """True when the node has no children."""
        return not self.children

    def child(self, move: Hashable) -> Node:
        """The child reached by ``move`` (a label, or an index for nested trees)."""
        try:
            return self._by_move[move]
        except KeyError:
            raise KeyError(f"node {self.name} at path {self.path} has no move {move!r}; "
                           f"its moves are {list(self.moves)}") from None


def _check_value(value: Any, path: Path, *, leaf: bool) -> float | None:
    """A node's value as given, after checking it is an int or a float that a search, a
    drawing and JSON all handle exactly: finite and within a float's range. Other number
    types (``Fraction``, ``Decimal``) are refused rather than rounded behind the user's back.
    """
    kind = type(value)  # the usual cases first: a plain int or a finite float
    if kind is int and -_FLOAT_MAX <= value <= _FLOAT_MAX:
        return value  # type: ignore[no-any-return]
    if kind is float and math.isfinite(value):
        return value  # type: ignore[no-any-return]
    if value is None and not leaf:
        return None
    what = "a leaf" if leaf else "a static value"
    if isinstance(value, bool) or not isinstance(value, Real):
        raise TreeError(path, f"{what} must be a finite number, got {value!r}")
    if not isinstance(value, (int, float)):
        raise TreeError(path, f"{what} must be an int or a float, got the "
                              f"{type(value).__name__} {value!r}; convert it, e.g. float(x)")
    if isinstance(value, int) and not -_FLOAT_MAX <= value <= _FLOAT_MAX:
        raise TreeError(path, f"{what} must be within a float's range (about ±1.8e308), "
                              f"got an int of {len(str(abs(value)))} digits")
    if not math.isfinite(value):
        raise TreeError(path, f"{what} must be a finite number, got {value!r}")
    return value


_FLOAT_MAX = int(__import__("sys").float_info.max)


def _build(spec: Any, is_max: bool, expand: Any, make: Any) -> Node:
    """Build a tree bottom-up without recursion (any depth that fits in memory).

    ``expand(item, path, is_max)`` returns the item's children as ``(move, item, is_max)``
    triples, or None for a leaf; ``make(item, path, is_max, edges)`` makes its Node. An item
    met again on its own path is a cycle: a TreeError at the path where it closes. The
    garbage collector pauses meanwhile (see :func:`~minimaxkit.support.gc_pause.paused_gc`)."""
    with paused_gc(settle=True):
        return _build_walk(spec, is_max, expand, make)


def _build_walk(spec: Any, is_max: bool, expand: Any, make: Any) -> Node:
    on_path = {id(spec)}
    kids = expand(spec, (), is_max)
    stack: list[list[Any]] = [[spec, (), is_max, kids, 0, []]]
    while True:
        frame = stack[-1]
        item, path, mx, kids, i, edges = frame
        if kids is not None and i < len(kids):
            frame[4] = i + 1
            move, child, cmx = kids[i]
            cpath = path + (i,)
            if id(child) in on_path and isinstance(child, (list, dict)):
                raise TreeError(cpath, "cycle: this node contains itself (the nested "
                                       "structure refers back to one of its ancestors)")
            ckids = expand(child, cpath, cmx)
            if ckids is None:  # a leaf: made at once, without a frame of its own
                edges.append((move, make(child, cpath, cmx, [])))
                continue
            on_path.add(id(child))
            edges.append(move)
            stack.append([child, cpath, cmx, ckids, 0, []])
            continue
        node = make(item, path, mx, [(m, n) for m, n in edges] if kids else [])
        stack.pop()
        if kids is not None:
            on_path.discard(id(item))
        if not stack:
            return node
        parent_edges = stack[-1][5]
        parent_edges[-1] = (parent_edges[-1], node)


def _player(spec: Any, path: Path) -> bool:
    if spec not in _PLAYERS:
        raise TreeError(path, f"unknown player {spec!r}; expected 'max' or 'min'")
    return bool(spec == "max")


def _make(path: Path, name: str | None, is_max: bool, value: float | None,
          edges: Sequence[tuple[Hashable, Node]]) -> Node:
    """A node from its parts; unnamed nodes get their default name later. A leaf is made
    by setting its slots directly (half the time of the frozen dataclass's ``__init__``,
    which matters for trees of 100,000 leaves)."""
    if not edges:
        node = _new_node(Node)
        _SET_PATH(node, path)
        _SET_NAME(node, name or "")
        _SET_MAX(node, is_max)
        _SET_VALUE(node, value)
        _SET_CHILDREN(node, ())
        _SET_MOVES(node, ())
        _SET_BY_MOVE(node, {})
        return node
    return Node(path, name or "", is_max, value, tuple(c for _, c in edges),
                tuple(m for m, _ in edges), dict(edges))


_new_node = object.__new__
_SET_PATH, _SET_NAME, _SET_MAX, _SET_VALUE, _SET_CHILDREN, _SET_MOVES, _SET_BY_MOVE = (
    getattr(Node, f).__set__ for f in ("path", "name", "is_max", "value", "children",
                                       "moves", "_by_move"))


def _name_nodes(root: Node) -> Node:
    """Give every unnamed node its breadth-first default name; check names are unique."""
    order = list(_bfs(root))
    given = [n for n in order if n.name]
    taken = {n.name for n in given}
    if len(taken) < len(given):  # a name used twice: the second node in breadth-first order
        seen: dict[str, Path] = {}
        for node in given:
            if node.name in seen:
                raise TreeError(node.path, f"name {node.name!r} is already used by the node "
                                           f"at path {seen[node.name]}")
            seen[node.name] = node.path
    unnamed = [n for n in order if not n.name]
    names = _default_names()
    if taken:
        names = (x for x in names if x not in taken)
    for node, name in zip(unnamed, names, strict=False):  # names never run out
        _SET_NAME(node, name)
    return root


def _default_names() -> Iterator[str]:
    """``default_name(0)``, ``default_name(1)``, ...: every name of one letter, then of
    two, ..., each length in order (``itertools.product``, no arithmetic per name).

    >>> names = _default_names(); [next(names) for _ in range(28)][-3:]
    ['Z', 'AA', 'AB']
    """
    letters = "ABCDEFGHIJKLMNOPQRSTUVWXYZ"
    return chain.from_iterable(map("".join, product(letters, repeat=k)) for k in count(1))


def _bfs(root: Node) -> Iterator[Node]:
    queue = deque([root])
    while queue:
        node = queue.popleft()
        yield node
        queue.extend(node.children)



#: The deepest JSON nesting :func:`_loads_deep` reads (a tree level is 3 JSON levels).
MAX_JSON_NESTING = 300_000
#: ``repr`` spells out trees up to this many nodes and levels; larger ones get a summary.
REPR_MAX_NODES = 500
REPR_MAX_DEPTH = 100


def _loads_deep(text: str) -> Any:
    """``json.loads`` of a text nested deeper than the recursion limit allows: read in a
    thread whose stack has room for it (16 KB per level), with the limit raised meanwhile.
    Deeper than :data:`MAX_JSON_NESTING` is a TreeError naming the limit."""
    depth = max_depth = 0
    for ch in text:  # an upper bound of the nesting (brackets inside strings count too)
        if ch in "[{":
            depth += 1
            max_depth = max(max_depth, depth)
        elif ch in "]}":
            depth -= 1
    if max_depth > MAX_JSON_NESTING:
        raise TreeError((), f"the JSON text nests {max_depth:,} levels deep; the limit is "
                            f"{MAX_JSON_NESTING:,}; build so deep a tree with from_dict")
    out: dict[str, Any] = {}

    def read() -> None:
        try:
            out["spec"] = json.loads(text)
        except BaseException as err:  # handed to the caller's thread
            out["error"] = err

    old_limit, old_size = sys.getrecursionlimit(), threading.stack_size()
    sys.setrecursionlimit(max(old_limit, max_depth + 1_000))
    threading.stack_size(min(max(16 * 1024 * (max_depth + 1_000), 1 << 20), 1 << 30))
    try:
        worker = threading.Thread(target=read, name="minimaxkit-json")
        worker.start()
        worker.join()
    finally:
        threading.stack_size(old_size)
        sys.setrecursionlimit(old_limit)
    if "error" in out:
        raise out["error"]
    return out["spec"]


class GameTree:
    """An explicit game tree; a :class:`~minimaxkit.game.Game` whose states are its nodes.

    >>> t = GameTree.from_nested([[1, 2], [3]], root="min")
    >>> t.root.player, t.node((0,)).player, t.node((0, 1)).value
    ('min', 'max', 2)
    >>> GameTree.from_dict(t.to_dict()) == t
    True
    """

    def __init__(self, root: Node) -> None:
        self.root = root
        self._nodes = list(_bfs(root))
        self._by_path = {n.path: n for n in self._nodes}
        self._by_name = {n.name: n for n in self._nodes}
        values = [n.value for n in self._nodes if n.value is not None]
        self.value_range: tuple[float, float] = (min(values), max(values))

    # ----- construction -------------------------------------------------------------
    @classmethod
    def from_nested(cls, spec: Any, *, root: str = "max") -> GameTree:
        """A tree from nested lists: numbers are leaves, players alternate from ``root``.

        >>> GameTree.from_nested([[8, 7], 3]).node((1,))
        Node(path=(1,), name='C', player='min', value=3)
        >>> GameTree.from_nested([[1, None]])
        Traceback (most recent call last):
        ...
        minimaxkit.errors.TreeError: node at path (0, 1): a leaf must be a finite number, got None
        """
        def expand(item: Any, path: Path, is_max: bool) -> list[Any] | None:
            if isinstance(item, (list, tuple)):
                if not item:
                    raise TreeError(path, "an interior node needs at least one child, "
                                          "got an empty list")
                return [(i, c, not is_max) for i, c in enumerate(item)]
            return None

        def make(item: Any, path: Path, is_max: bool, edges: list[Any]) -> Node:
            if edges:
                return _make(path, None, is_max, None, edges)
            return _make(path, None, is_max, _check_value(item, path, leaf=True), [])

        return cls(_name_nodes(_build(spec, _player(root, ()), expand, make)))

    @classmethod
    def from_dict(cls, spec: dict[str, Any]) -> GameTree:
        """A tree from the named form: each node a dict with ``name``, ``player``, and
        either ``value`` (a leaf) or ``children`` (a list of ``{"move": m, "node": {...}}``
        or of plain node dicts, whose moves are then their indices). A node without a player
        takes the opposite of its parent's; the root's default is ``"max"``. An interior node
        may carry a ``value``: its static evaluation.

        >>> t = GameTree.from_dict({"name": "A", "player": "max", "children": [
        ...     {"move": "a1", "node": {"name": "B", "value": 3}},
        ...     {"move": "a2", "node": {"name": "C", "value": 5}}]})
        >>> t.node((1,)).name, t.root.moves
        ('C', ('a1', 'a2'))
        """
        def expand(d: Any, path: Path, default_max: bool) -> list[Any] | None:
            if not isinstance(d, dict):
                raise TreeError(path, f"a node must be a dict, got {type(d).__name__}")
            if not d.keys() <= _NODE_KEYS:
                raise TreeError(path, f"unknown key(s) {sorted(set(d) - _NODE_KEYS)}; a node "
                                      f"has {sorted(_NODE_KEYS)}")
            is_max = _player(d["player"], path) if "player" in d else default_max
            name = d.get("name")
            if name is not None and (not isinstance(name, str) or not name):
                raise TreeError(path, f"a name must be a non-empty string, got {name!r}")
            children = d.get("children")
            if children is None:
                _check_value(d.get("value"), path, leaf=True)
                return None
            if not isinstance(children, list) or not children:
                raise TreeError(path, "an interior node needs a non-empty list of children, "
                                      f"got {children!r}")
            _check_value(d.get("value"), path, leaf=False)
            kids: list[Any] = []
            used: set[Hashable] = set()
            for i, entry in enumerate(children):
                move: Hashable = i
                if isinstance(entry, dict) and "node" in entry:
                    extra = set(entry) - _EDGE_KEYS
                    if extra:
                        raise TreeError(path + (i,), f"unknown key(s) {sorted(extra)} beside "
                                                     "'move' and 'node'")
                    move = entry.get("move", i)
                    if not isinstance(move, (str, int)) or isinstance(move, bool):
                        raise TreeError(path + (i,), "a move label must be a string or an "
                                                     f"int, got {move!r}")
                    entry = entry["node"]
                if move in used:
                    raise TreeError(path + (i,), f"move {move!r} is used twice at this node")
                used.add(move)
                kids.append((move, entry, not is_max))
            return kids

        def make(d: Any, path: Path, default_max: bool, edges: list[Any]) -> Node:
            is_max = d["player"] == "max" if "player" in d else default_max
            return _make(path, d.get("name"), is_max, d.get("value"), edges)

        if not isinstance(spec, dict):
            raise TreeError((), f"a tree must be a dict, got {type(spec).__name__}")
        return cls(_name_nodes(_build(spec, True, expand, make)))

    @classmethod
    def from_json(cls, text: str) -> GameTree:
        """The tree of :meth:`to_json`'s text, at any depth: Python's JSON reader recurses
        (about a thousand levels by default), so a deeper text is read again in a thread
        with room for its depth (see :func:`_loads_deep`)."""
        try:
            spec = json.loads(text)
        except RecursionError:
            spec = _loads_deep(text)
        return cls.from_dict(spec)

    def to_dict(self) -> dict[str, Any]:
        """The named form, complete: ``from_dict(t.to_dict())`` equals ``t``. Built without
        recursion, so any depth works."""

        def one(node: Node) -> dict[str, Any]:
            d: dict[str, Any] = {"name": node.name, "player": node.player}
            if node.value is not None:
                d["value"] = node.value
            return d

        out = one(self.root)
        stack = [(self.root, out)]
        while stack:
            node, d = stack.pop()
            if node.children:
                kids = [one(c) for c in node.children]
                d["children"] = [{"move": m, "node": k}
                                 for m, k in zip(node.moves, kids, strict=True)]
                stack.extend(zip(node.children, kids, strict=True))
        return out

    def to_json(self, **kwargs: Any) -> str:
        """The named form as JSON text (keyword arguments go to ``json.dumps``). A tree
        deeper than the JSON writer's nesting limit is written without it (compact, keys
        in the named form's order or sorted with ``sort_keys=True``; other keywords need
        a shallower tree)."""
        if self.height < _JSON_NESTING:
            return json.dumps(self.to_dict(), **kwargs)
        unknown = set(kwargs) - {"sort_keys"}
        if unknown:
            raise OptionError(sorted(unknown)[0], f"this tree is {self.height} levels deep; "
                                                  "only sort_keys works past "
                                                  f"{_JSON_NESTING} levels")
        return _deep_json(self.root, bool(kwargs.get("sort_keys")))

    def to_nested(self) -> list[Any] | float:
        """The nested-list form (players and names are not kept).

        >>> GameTree.from_nested([[3, 1], [2]]).to_nested()
        [[3, 1], [2]]
        """
        if not self.root.children:
            return self.root.value  # type: ignore[return-value]
        out: list[Any] = []
        stack = [(self.root, out)]
        while stack:
            node, lst = stack.pop()
            for c in node.children:
                if c.children:
                    sub: list[Any] = []
                    lst.append(sub)
                    stack.append((c, sub))
                else:
                    lst.append(c.value)
        return out

    @classmethod
    def random(cls, *, depth: int, branching: int | tuple[int, int] = 2,
               values: tuple[int, int] = (0, 9), ties: bool = True, seed: int | None = None,
               root: str = "max") -> GameTree:
        """A seeded random tree with every leaf at ``depth``.

        ``branching`` is fixed (an int) or drawn per node from an inclusive range; leaf
        values are integers drawn from the inclusive range ``values``; with ``ties=False``
        no two leaves share a value.

        >>> t = GameTree.random(depth=2, branching=3, seed=1)
        >>> len(t.leaves()), t == GameTree.random(depth=2, branching=3, seed=1)
        (9, True)
        """
        def whole(x: Any) -> bool:
            return isinstance(x, int) and not isinstance(x, bool)

        if not whole(depth) or depth < 0:
            raise OptionError("depth", f"must be a whole number >= 0, got {depth!r}")
        pair: Any = (branching, branching) if whole(branching) else branching
        if not (isinstance(pair, (tuple, list)) and len(pair) == 2
                and all(whole(b) for b in pair) and 1 <= pair[0] <= pair[1]):
            raise OptionError("branching", "must be a whole number >= 1 or a range (lo, hi) "
                                           f"with 1 <= lo <= hi, got {branching!r}")
        lo_b, hi_b = int(pair[0]), int(pair[1])
        if not (isinstance(values, (tuple, list)) and len(values) == 2
                and all(whole(v) for v in values) and values[0] <= values[1]):
            raise OptionError("values", "must be a range (lo, hi) of whole numbers with "
                                        f"lo <= hi, got {values!r}")
        lo, hi = values
        if seed is not None and not whole(seed):
            raise OptionError("seed", f"must be None or a whole number, got {seed!r}")
        if not isinstance(ties, bool):
            raise OptionError("ties", f"must be True or False, got {ties!r}")
        if hi_b ** depth > _RANDOM_LEAVES:
            raise OptionError("depth", f"branching {hi_b} to depth {depth} may make "
                                       f"{hi_b ** depth:,} leaves; the limit is "
                                       f"{_RANDOM_LEAVES:,}")
        rng = _random.Random(seed)
        shape = cls._random_shape(rng, depth, lo_b, hi_b)
        n_leaves = _count_leaves(shape)
        if ties:
            leaf_values = [rng.randint(lo, hi) for _ in range(n_leaves)]
        else:
            if hi - lo + 1 < n_leaves:
                raise OptionError("values", f"{values} holds {hi - lo + 1} distinct values, "
                                            f"too few for {n_leaves} leaves without ties")
            leaf_values = rng.sample(range(lo, hi + 1), n_leaves)
        it = iter(leaf_values)
        return cls.from_nested(_fill(shape, it), root=root)

    @staticmethod
    def _random_shape(rng: _random.Random, depth: int, lo_b: int, hi_b: int) -> Any:
        """Nested lists of None (the leaves), drawn depth-first (the order seeds rely on)."""
        if depth == 0:
            return None
        root: list[Any] = []
        stack = [(root, depth)]
        while stack:
            lst, d = stack.pop()
            n = rng.randint(lo_b, hi_b)
            if d == 1:
                lst.extend([None] * n)
                continue
            kids: list[list[Any]] = [[] for _ in range(n)]
            lst.extend(kids)
            stack.extend((k, d - 1) for k in reversed(kids))
        return root

    def with_static(self, *, noise: float = 0.0, seed: int | None = None) -> GameTree:
        """A copy whose interior nodes carry a static value: their true minimax value plus
        uniform noise in [-noise, noise]. Gives trees on which ``order="static"`` and depth
        limits mean something.

        >>> t = GameTree.from_nested([[3, 12], [2, 4]]).with_static()
        >>> t.root.value, t.node((1,)).value
        (3, 2)
        """
        from .search import minimax  # local: search imports this module

        rng = _random.Random(seed)
        d = self.to_dict()

        def annotate(spec: dict[str, Any], node: Node) -> None:
            if node.children:
                v = minimax(self, node, trace=False).value
                spec["value"] = v + rng.uniform(-noise, noise) if noise else v
                for edge, child in zip(spec["children"], node.children, strict=True):
                    annotate(edge["node"], child)

        annotate(d, self.root)
        return GameTree.from_dict(d)

    # ----- access ---------------------------------------------------------------------
    def node(self, path: Sequence[int]) -> Node:
        """The node at ``path`` (a tuple of child indices from the root)."""
        try:
            return self._by_path[tuple(path)]
        except KeyError:
            raise KeyError(f"no node at path {tuple(path)}") from None

    def contains(self, state: Any) -> bool:
        """True when ``state`` is one of this tree's own nodes (not an equal-looking node of
        another tree).

        >>> a, b = GameTree.from_nested([1, 2]), GameTree.from_nested([1, 2])
        >>> a.contains(a.root), a.contains(b.root)
        (True, False)
        """
        return isinstance(state, Node) and self._by_path.get(state.path) is state

    def by_name(self, name: str) -> Node:
        """The node called ``name``."""
        return self._by_name[name]

    def nodes(self) -> list[Node]:
        """Every node, breadth-first."""
        return list(self._nodes)

    def leaves(self) -> list[Node]:
        """The leaves, left to right."""
        return [n for n in sorted(self._nodes, key=lambda n: n.path) if not n.children]

    @property
    def height(self) -> int:
        """The length of the longest path from the root to a leaf."""
        return max(len(n.path) for n in self._nodes)

    def __len__(self) -> int:
        return len(self._nodes)

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, GameTree) or len(self) != len(other):
            return False
        # node lists are breadth-first, so equal trees list equal nodes in the same order
        return all(a.path == b.path and a.name == b.name and a.is_max == b.is_max
                   and a.value == b.value and a.moves == b.moves
                   for a, b in zip(self._nodes, other._nodes, strict=True))

    def __hash__(self) -> int:
        return hash(tuple((n.path, n.name, n.is_max, n.value, n.moves) for n in self._nodes))

    def __repr__(self) -> str:
        """The named form, ``GameTree.from_dict({...})``, for a tree of up to
        ``REPR_MAX_NODES`` nodes and ``REPR_MAX_DEPTH`` levels; a one-line summary for a
        larger one (Python's ``repr`` of a dict recurses, and a page of text helps no one).

        >>> repr(GameTree.from_nested([1, 2]))[:50]
        "GameTree.from_dict({'name': 'A', 'player': 'max', "
        >>> chain = 1
        >>> for _ in range(5_000):
        ...     chain = [chain]
        >>> repr(GameTree.from_nested(chain))[:63]
        '<GameTree: 5,001 nodes, 1 leaf, 5,000 levels deep, root A (MAX)'
        """
        height = self.height
        if len(self) <= REPR_MAX_NODES and height <= REPR_MAX_DEPTH:
            return f"GameTree.from_dict({self.to_dict()!r})"
        leaves = sum(1 for n in self._nodes if not n.children)
        return (f"<GameTree: {len(self):,} nodes, {leaves:,} lea{'f' if leaves == 1 else 'ves'}, "
                f"{height:,} level{'' if height == 1 else 's'} deep, root {self.root.name} "
                f"({self.root.player.upper()}); to_dict() or to_json() has it all>")

    def _repr_png_(self) -> bytes | None:
        try:
            from .draw import tree_png
            from .draw.model import TooLargeToDraw
        except ImportError:
            return None
        try:
            return tree_png(self)
        except TooLargeToDraw:  # the text repr says what the tree is
            return None

    def _repr_mimebundle_(self, include: Any = None, exclude: Any = None
                          ) -> tuple[dict[str, Any], dict[str, Any]] | None:
        """The picture as PNG, and as HTML ``<img>`` with its text alternative (drawn once)."""
        try:
            from .draw.render import tree_bundle
        except ImportError:
            return None
        return tree_bundle(self)

    # ----- the game protocol ------------------------------------------------------------
    def initial_state(self) -> Node:
        """The root."""
        return self.root

    def moves(self, state: Node) -> tuple[Hashable, ...]:
        """The node's move labels (child indices for nested trees); empty at a leaf."""
        return state.moves

    def play(self, state: Node, move: Hashable) -> Node:
        """The child reached by ``move``."""
        return state._by_move[move]

    def is_max(self, state: Node) -> bool:
        """True at MAX nodes."""
        return state.is_max

    def evaluate(self, state: Node) -> float:
        """A leaf's value, or an interior node's static value (an error if it has none)."""
        if state.value is None:
            raise TreeError(state.path, f"interior node {state.name} has no static value, but "
                                        "the search needs one here (a depth limit or "
                                        "order='static'); give it a 'value' or search deeper")
        return state.value

    def check_static(self, depth: int | None, start: Node | None = None) -> None:
        """Raise :class:`TreeError` unless every interior node ``depth`` moves below ``start``
        (the root by default) has a static value: a search stops there and evaluates it.

        >>> t = GameTree.from_nested([[[1, 2]], 3])
        >>> try:
        ...     t.check_static(1)
        ... except TreeError as err:
        ...     print(err.path, "needs a static value")
        (0,) needs a static value
        >>> t.check_static(2, t.node((0,)))  # two moves below B there are only leaves
        """
        if depth is None:
            return
        level = [start or self.root]
        for _ in range(depth):
            level = [c for n in level for c in n.children]
            if not level:  # below the deepest leaf: nothing to check (depth may be huge)
                return
        for n in level:
            if n.children:
                self.evaluate(n)


_RANDOM_LEAVES = 1_000_000  # the most leaves GameTree.random may make
_JSON_NESTING = 300  # tree levels json.dumps handles well below the recursion limit


def _deep_json(root: Node, sort_keys: bool) -> str:
    """The named form of a very deep tree as compact JSON, written without recursion
    (the same text ``json.dumps`` writes for shallower trees, with ", " and ": ")."""
    out: list[str] = []
    enc = json.dumps
    stack: list[Any] = [root]
    while stack:
        item = stack.pop()
        if isinstance(item, str):
            out.append(item)
            continue
        node: Node = item
        fields = [("name", enc(node.name)), ("player", enc(node.player))]
        if node.value is not None:
            fields.append(("value", enc(node.value)))
        head = ", ".join(f'"{k}": {v}' for k, v in fields)
        if not node.children:
            out.append("{" + head + "}")
            continue
        if sort_keys:  # "children" sorts before "name"
            out.append('{"children": [')
            stack.append("], " + head + "}")
        else:
            out.append("{" + head + ', "children": [')
            stack.append("]}")
        for k in range(len(node.children) - 1, -1, -1):
            stack.append("}")
            stack.append(node.children[k])
            stack.append(("" if k == 0 else ", ") + '{"move": ' + enc(node.moves[k])
                         + ', "node": ')
    return "".join(out)


def _count_leaves(shape: Any) -> int:
    count, stack = 0, [shape]
    while stack:
        item = stack.pop()
        if item is None:
            count += 1
        else:
            stack.extend(item)
    return count


def _fill(shape: Any, values: Iterator[int]) -> Any:
    """The shape with its leaves (None) replaced by values, left to right."""
    if shape is None:
        return next(values)
    out: list[Any] = []
    stack: list[tuple[Iterator[Any], list[Any]]] = [(iter(shape), out)]
    while stack:
        it, dst = stack[-1]
        c: Any = next(it, _END)
        if c is _END:
            stack.pop()
        elif c is None:
            dst.append(next(values))
        else:
            sub: list[Any] = []
            dst.append(sub)
            stack.append((iter(c), sub))
    return out


_END = object()
