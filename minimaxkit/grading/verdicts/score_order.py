"""A tree's verdict for assignment 3's ``order``: the children of every interior node in the
right order (MAX high to low, MIN low to high, ties in the tree's order); the point for all
nodes, half for at least half of them. Where every wrong node is wrong the same way, one line
says how: the direction at one player's nodes, the player decided by the depth, or equal
estimates reversed.

>>> from minimaxkit import GameTree
>>> tree = GameTree.from_nested([[3, 1], [2, 2]], root="min").with_static()
>>> _kind(tree.node((1,)), [(1, 1), (1, 0)])
'ties'
"""

from __future__ import annotations

from ...tree import GameTree, Node
from .compare import names
from .references import TreeCase
from .results import NO, OK, Record, Returned, TreeResult, halves

__all__ = ["grade_order"]

Path = tuple[int, ...]


def _given_order(desc: Returned, tree: GameTree) -> list[Path] | None:
    """The children a node's ordering returned, as paths (None if it was not a list of
    the tree's nodes)."""
    if desc.kind != "seq" or any(d.kind != "node" for d in desc.items):
        return None
    paths = [d.path for d in desc.items if d.path is not None]
    try:
        for p in paths:
            tree.node(p)
    except KeyError:  # a node of another tree
        return None
    return paths


def _sorted(node: Node, high_first: bool, ties_reversed: bool) -> list[Path]:
    """The children by estimate, highest (or lowest) first; equal ones in the tree's order,
    or (``ties_reversed``) in its reverse, as reversing a sorted list leaves them."""
    def low_first(c: Node) -> float:
        return c.value or 0

    def high(c: Node) -> float:
        return -(c.value or 0)

    if ties_reversed:
        kids = sorted(node.children, key=low_first if high_first else high)[::-1]
    else:
        kids = sorted(node.children, key=high if high_first else low_first)
    return [c.path for c in kids]


def _kind(node: Node, given: list[Path] | None) -> str:
    """How a node's order is wrong: "direction" (the other player's order), "ties" (equal
    estimates reversed), or "other"."""
    if given is None:
        return "other"
    if given == _sorted(node, node.is_max, True):
        return "ties"
    if given in (_sorted(node, not node.is_max, False), _sorted(node, not node.is_max, True)):
        return "direction"
    return "other"


def _matters(node: Node) -> bool:
    """Whether the direction of the order matters at ``node`` (its estimates differ)."""
    return len({c.value for c in node.children}) > 1


def _hint(wrong: list[tuple[Node, str]], tree: GameTree) -> list[str]:
    """One line when every wrong node is wrong the same way."""
    kinds = {k for _, k in wrong}
    if kinds == {"ties"}:
        return ["at every node you ordered wrongly, children with equal estimates come in the "
                "reverse of the tree's order: sort with reverse=True (it keeps equal ones in "
                "order) instead of reversing a sorted list"]
    if kinds != {"direction"}:
        return []
    wrong_at = {n.path for n, _ in wrong}
    interior = [n for n in tree.nodes() if n.children and _matters(n)]
    players = {n.player for n, _ in wrong}
    if len(players) == 1 and len({n.player for n in interior}) == 2:
        player = players.pop().upper()
        how = "highest estimate first" if player == "MAX" else "lowest estimate first"
        return [f"every node you ordered wrongly is a {player} node: a {player} node's "
                f"children go {how}, so sort with reverse=node.is_max()"]
    off = [n for n in interior if n.is_max != (len(n.path) % 2 == 0)]
    if off and {n.path for n in off} == wrong_at:
        first = min(off, key=lambda n: n.path)
        return [f"the player decided by the depth: {first.name} is {first.player.upper()} at "
                f"depth {len(first.path)}, and your order takes even depths for MAX; sort "
                "with reverse=node.is_max()"]
    return ["every node you ordered wrongly is in the other player's order: MAX nodes' "
            "children go from the highest estimate, MIN nodes' from the lowest"]


def grade_order(out: Record, case: TreeCase) -> TreeResult:
    """The order at every interior node of one tree."""
    tree, ref = case.tree, case.ref
    got = out.result if isinstance(out.result, dict) else {}
    right, lines = 0, []
    wrong: list[tuple[Node, str]] = []
    for path, expected in ref.orders.items():
        node = tree.node(path)
        desc = Returned.read(got.get(",".join(map(str, path))))
        paths = _given_order(desc, tree)
        want = [path + (i,) for i in expected]
        if paths == want:
            right += 1
            continue
        wrong.append((node, _kind(node, paths)))
        how = "high to low" if node.is_max else "low to high"
        shown = names(tree, paths) if paths is not None else desc.words()
        lines.append(f"at {node.name} ({node.player.upper()}): you gave {shown}; expected "
                     f"{names(tree, want)} (estimates {how}, ties in the tree's order)")
    total = len(ref.orders)
    summary = f"right order at {right} of {total} nodes {OK if right == total else NO}"
    return TreeResult(halves(right / total), summary, _hint(wrong, tree) + lines[:6])
