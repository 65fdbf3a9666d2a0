"""The node and tree types: :class:`Node`, one position of an explicit tree, and
:class:`GameTree`, a :class:`~minimaxkit.game.Game` whose states are its nodes.

A tree is built from one of its forms (:mod:`.building` reads them, :mod:`.checks` checks
their parts); nodes without a name get the default names A, B, C, ... in breadth-first
order.

>>> t = GameTree.from_nested([[1, 2], [3]], root="min")
>>> t.root.player, t.node((0,)).player, t.node((0, 1)).value
('min', 'max', 2)
>>> GameTree.from_dict(t.to_dict()) == t
True
"""

from __future__ import annotations

import json
import random
from collections import deque
from collections.abc import Hashable, Iterator, Sequence
from dataclasses import dataclass, field
from itertools import chain, count, product
from typing import Any

from ..errors import OptionError, TreeError
from .building import build, named_children, nested_children
from .checks import Path, check_player, check_value
from .forms import JSON_NESTING, deep_json, loads_deep, to_dict, to_nested
from .random_trees import random_nested

__all__ = ["Node", "GameTree", "default_name", "REPR_MAX_NODES", "REPR_MAX_DEPTH"]

#: ``repr`` spells out trees up to this many nodes and levels; larger ones get a summary.
REPR_MAX_NODES = 500
REPR_MAX_DEPTH = 100


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


# A leaf is made by setting its slots directly: half the time of the frozen dataclass's
# __init__, which matters for trees of 100,000 leaves.
_new_node = object.__new__
_SET_PATH, _SET_NAME, _SET_MAX, _SET_VALUE, _SET_CHILDREN, _SET_MOVES, _SET_BY_MOVE = (
    getattr(Node, f).__set__ for f in ("path", "name", "is_max", "value", "children",
                                       "moves", "_by_move"))


def _make_node(path: Path, name: str | None, is_max: bool, value: float | None,
               edges: Sequence[tuple[Hashable, Node]]) -> Node:
    """A node from its parts; unnamed nodes get their default name later."""
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


def _from_nested(item: Any, path: Path, is_max: bool, edges: list[Any]) -> Node:
    """The node of a nested-list item: a list's node has no value; a leaf's is checked."""
    if edges:
        return _make_node(path, None, is_max, None, edges)
    return _make_node(path, None, is_max, check_value(item, path, leaf=True), [])


def _from_named(d: Any, path: Path, default_max: bool, edges: list[Any]) -> Node:
    """The node of a named item (checked by :func:`~.building.named_children`)."""
    is_max = d["player"] == "max" if "player" in d else default_max
    return _make_node(path, d.get("name"), is_max, d.get("value"), edges)


def _name_nodes(root: Node) -> Node:
    """Give every unnamed node its breadth-first default name; check names are unique."""
    order = list(_breadth_first(root))
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


def _breadth_first(root: Node) -> Iterator[Node]:
    queue = deque([root])
    while queue:
        node = queue.popleft()
        yield node
        queue.extend(node.children)


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
        self._nodes = list(_breadth_first(root))
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
        return cls(_name_nodes(build(spec, check_player(root, ()), nested_children,
                                     _from_nested)))

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
        if not isinstance(spec, dict):
            raise TreeError((), f"a tree must be a dict, got {type(spec).__name__}")
        return cls(_name_nodes(build(spec, True, named_children, _from_named)))

    @classmethod
    def from_json(cls, text: str) -> GameTree:
        """The tree of :meth:`to_json`'s text, at any depth: Python's JSON reader recurses
        (about a thousand levels by default), so a deeper text is read again in a thread
        with room for its depth (see :func:`~minimaxkit.tree.forms.loads_deep`)."""
        try:
            spec = json.loads(text)
        except RecursionError:
            spec = loads_deep(text)
        return cls.from_dict(spec)

    @classmethod
    def random(  # noqa: PLR0913 - the options are keyword-only, as networkx writes them
            cls, *, depth: int, branching: int | tuple[int, int] = 2,
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
        spec = random_nested(depth=depth, branching=branching, values=values, ties=ties,
                             seed=seed)
        return cls.from_nested(spec, root=root)

    def with_static(self, *, noise: float = 0.0, seed: int | None = None) -> GameTree:
        """A copy whose interior nodes carry a static value: their true minimax value plus
        uniform noise in [-noise, noise]. Gives trees on which ``order="static"`` and depth
        limits mean something. The values come from the kit's :func:`~minimaxkit.minimax`,
        so where the kit's searches are refused, so is this.

        >>> t = GameTree.from_nested([[3, 12], [2, 4]]).with_static()
        >>> t.root.value, t.node((1,)).value
        (3, 2)
        """
        from ..search import minimax  # the search layer is above this one

        rng = random.Random(seed)
        d = self.to_dict()

        def annotate(spec: dict[str, Any], node: Node) -> None:
            if node.children:
                v = minimax(self, node, trace=False).value
                spec["value"] = v + rng.uniform(-noise, noise) if noise else v
                for edge, child in zip(spec["children"], node.children, strict=True):
                    annotate(edge["node"], child)

        annotate(d, self.root)
        return GameTree.from_dict(d)

    # ----- the written forms -----------------------------------------------------------
    def to_dict(self) -> dict[str, Any]:
        """The named form, complete: ``from_dict(t.to_dict())`` equals ``t``. Built without
        recursion, so any depth works."""
        return to_dict(self.root)

    def to_json(self, **kwargs: Any) -> str:
        """The named form as JSON text (keyword arguments go to ``json.dumps``). A tree
        deeper than the JSON writer's nesting limit is written without it (compact, keys
        in the named form's order or sorted with ``sort_keys=True``; other keywords need
        a shallower tree)."""
        if self.height < JSON_NESTING:
            return json.dumps(self.to_dict(), **kwargs)
        unknown = set(kwargs) - {"sort_keys"}
        if unknown:
            raise OptionError(sorted(unknown)[0], f"this tree is {self.height} levels deep; "
                                                  "only sort_keys works past "
                                                  f"{JSON_NESTING} levels")
        return deep_json(self.root, bool(kwargs.get("sort_keys")))

    def to_nested(self) -> list[Any] | float:
        """The nested-list form (players and names are not kept).

        >>> GameTree.from_nested([[3, 1], [2]]).to_nested()
        [[3, 1], [2]]
        """
        return to_nested(self.root)

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
            from ..draw import tree_png
            from ..draw.model import TooLargeToDraw
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
            from ..draw.render import tree_bundle
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
                                        "order='static'); give the node a static value (a "
                                        "'value' beside its 'children' in "
                                        "GameTree.from_dict, or tree.with_static()), or search "
                                        "deeper")
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
