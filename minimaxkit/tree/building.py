"""Building a tree from its nested-list or named (dict) form, without recursion, so that any
depth that fits in memory works.

:func:`build` walks a spec depth-first with an explicit stack; what a spec's items are is
said by two functions: ``expand`` (an item's children, or None for a leaf) and ``make`` (the
node of an item, from its children). :func:`nested_children` and :func:`named_children`
are the ``expand`` of the two forms; each checks its form as it goes.

>>> nested_children([[1, 2], 3], (), True)
[(0, [1, 2], False), (1, 3, False)]
>>> nested_children(3, (0, 1), False) is None
True
>>> named_children({"children": [{"move": "a", "node": {"value": 1}}]}, (), True)
[('a', {'value': 1}, False)]
"""

from __future__ import annotations

from collections.abc import Callable, Hashable
from typing import Any, TypeVar

from ..errors import TreeError
from ..support.gc_pause import paused_gc
from .checks import Path, check_player, check_value

__all__ = ["Expand", "Make", "build", "nested_children", "named_children", "NODE_KEYS",
           "EDGE_KEYS"]

N = TypeVar("N")
#: An item's children as ``(move, item, is_max)`` triples, or None for a leaf:
#: ``expand(item, path, is_max)``.
Expand = Callable[[Any, Path, bool], list[tuple[Hashable, Any, bool]] | None]
#: The node of an item, from its children's ``(move, node)`` edges (empty for a leaf):
#: ``make(item, path, is_max, edges)``.
Make = Callable[[Any, Path, bool, list[tuple[Hashable, N]]], N]

#: The keys a node of the named form may have, and an edge's.
NODE_KEYS = {"name", "player", "value", "children"}
EDGE_KEYS = {"move", "node"}


def build(spec: Any, is_max: bool, expand: Expand, make: Make[N]) -> N:
    """Build a tree bottom-up without recursion (any depth that fits in memory).

    ``expand(item, path, is_max)`` returns the item's children as ``(move, item, is_max)``
    triples, or None for a leaf; ``make(item, path, is_max, edges)`` makes its node. An item
    met again on its own path is a cycle: a TreeError at the path where it closes. The
    garbage collector pauses meanwhile (see :func:`~minimaxkit.support.gc_pause.paused_gc`)."""
    with paused_gc(settle=True):
        return _walk(spec, is_max, expand, make)


class _Frame:
    """A spec item whose children are being built: its ``path``, player and children to
    expand (``kids``), the index of the next one, and the edges made so far (a pending
    child's edge holds only its move until its node is made)."""

    __slots__ = ("item", "path", "is_max", "kids", "next", "edges")

    def __init__(self, item: Any, path: Path, is_max: bool,
                 kids: list[tuple[Hashable, Any, bool]]) -> None:
        self.item, self.path, self.is_max, self.kids = item, path, is_max, kids
        self.next = 0
        self.edges: list[Any] = []


def _walk(spec: Any, is_max: bool, expand: Expand, make: Make[N]) -> N:
    kids = expand(spec, (), is_max)
    if kids is None:
        return make(spec, (), is_max, [])
    on_path = {id(spec)}
    stack = [_Frame(spec, (), is_max, kids)]
    while True:
        frame = stack[-1]
        if frame.next < len(frame.kids):
            child = _step(frame, expand, make, on_path)
            if child is not None:
                stack.append(child)
            continue
        node = make(frame.item, frame.path, frame.is_max, frame.edges)
        stack.pop()
        on_path.discard(id(frame.item))
        if not stack:
            return node
        parent_edges = stack[-1].edges
        parent_edges[-1] = (parent_edges[-1], node)


def _step(frame: _Frame, expand: Expand, make: Make[N], on_path: set[int]) -> _Frame | None:
    """Take the frame's next child: a leaf is made at once; an interior child gets a frame
    of its own (returned), its edge waiting for its node."""
    move, child, child_max = frame.kids[frame.next]
    frame.next += 1
    child_path = frame.path + (frame.next - 1,)
    if id(child) in on_path and isinstance(child, (list, dict)):
        raise TreeError(child_path, "cycle: this node contains itself (the nested "
                                    "structure refers back to one of its ancestors)")
    child_kids = expand(child, child_path, child_max)
    if child_kids is None:  # a leaf: made at once, without a frame of its own
        frame.edges.append((move, make(child, child_path, child_max, [])))
        return None
    on_path.add(id(child))
    frame.edges.append(move)
    return _Frame(child, child_path, child_max, child_kids)


def nested_children(item: Any, path: Path,
                    is_max: bool) -> list[tuple[Hashable, Any, bool]] | None:
    """The nested-list form: a list is an interior node (its moves are its indices, its
    children the other player's), anything else a leaf (its value is checked by ``make``)."""
    if isinstance(item, (list, tuple)):
        if not item:
            raise TreeError(path, "an interior node needs at least one child, "
                                  "got an empty list")
        return [(i, c, not is_max) for i, c in enumerate(item)]
    return None


def named_children(d: Any, path: Path, default_max: bool
                   ) -> list[tuple[Hashable, Any, bool]] | None:
    """The named form: a dict with ``name``, ``player``, and either ``value`` (a leaf) or
    ``children`` (a list of ``{"move": m, "node": {...}}`` or of plain node dicts, whose
    moves are then their indices). A node without a player is the opposite of its parent's
    (``default_max``). The node's own parts are checked here."""
    if not isinstance(d, dict):
        raise TreeError(path, f"a node must be a dict, got {type(d).__name__}")
    if not d.keys() <= NODE_KEYS:
        raise TreeError(path, f"unknown key(s) {sorted(set(d) - NODE_KEYS)}; a node "
                              f"has {sorted(NODE_KEYS)}")
    is_max = check_player(d["player"], path) if "player" in d else default_max
    name = d.get("name")
    if name is not None and (not isinstance(name, str) or not name):
        raise TreeError(path, f"a name must be a non-empty string, got {name!r}")
    children = d.get("children")
    if children is None:
        check_value(d.get("value"), path, leaf=True)
        return None
    if not isinstance(children, list) or not children:
        raise TreeError(path, "an interior node needs a non-empty list of children, "
                              f"got {children!r}")
    check_value(d.get("value"), path, leaf=False)
    return _edges(children, path, not is_max)


def _edges(children: list[Any], path: Path,
           child_max: bool) -> list[tuple[Hashable, Any, bool]]:
    """The children of a named node as ``(move, node dict, is_max)``, each move checked and
    used once."""
    kids: list[tuple[Hashable, Any, bool]] = []
    used: set[Hashable] = set()
    for i, entry in enumerate(children):
        move: Hashable = i
        if isinstance(entry, dict) and "node" in entry:
            extra = set(entry) - EDGE_KEYS
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
        kids.append((move, entry, child_max))
    return kids
