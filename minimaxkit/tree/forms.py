"""A tree's written forms, at any depth: the named form as a dict (:func:`to_dict`) and as
JSON text (:func:`deep_json` for trees deeper than ``json.dumps`` goes, :func:`loads_deep`
for texts deeper than ``json.loads`` goes), and the nested-list form (:func:`to_nested`).
Each is written with a loop, not recursion. A node here is a
:class:`~minimaxkit.tree.Node` (anything with its ``name``, ``player``, ``value``,
``children`` and ``moves``).

>>> from minimaxkit import GameTree
>>> root = GameTree.from_nested([[3, 1], 2]).root
>>> to_nested(root)
[[3, 1], 2]
>>> deep_json(root, sort_keys=False) == json.dumps(to_dict(root))
True
"""

from __future__ import annotations

import json
import sys
import threading
from typing import Any

from ..errors import TreeError

__all__ = ["MAX_JSON_NESTING", "JSON_NESTING", "to_dict", "to_nested", "deep_json",
           "loads_deep"]

#: The deepest JSON nesting :func:`loads_deep` reads (a tree level is 3 JSON levels).
MAX_JSON_NESTING = 300_000
#: Tree levels ``json.dumps`` handles well below the recursion limit.
JSON_NESTING = 300


def to_dict(root: Any) -> dict[str, Any]:
    """The named form of the tree below ``root``, complete: every node's name and player,
    its value if it has one, and its children with their moves."""

    def one(node: Any) -> dict[str, Any]:
        d: dict[str, Any] = {"name": node.name, "player": node.player}
        if node.value is not None:
            d["value"] = node.value
        return d

    out = one(root)
    stack = [(root, out)]
    while stack:
        node, d = stack.pop()
        if node.children:
            kids = [one(c) for c in node.children]
            d["children"] = [{"move": m, "node": k}
                             for m, k in zip(node.moves, kids, strict=True)]
            stack.extend(zip(node.children, kids, strict=True))
    return out


def to_nested(root: Any) -> list[Any] | float:
    """The nested-list form of the tree below ``root``: a leaf's value, or a list of the
    children's forms (players and names are not kept)."""
    if not root.children:
        return root.value  # type: ignore[no-any-return]
    out: list[Any] = []
    stack = [(root, out)]
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


def deep_json(root: Any, sort_keys: bool) -> str:
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
        node = item
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


def loads_deep(text: str) -> Any:
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
