"""A tree's verdict for assignment 1's checks: ``minimax`` (the value, and every leaf
evaluated once: a value read twice in a row is one evaluation, as in every assignment),
``minimax_limited`` (the nodes at the depth limit, and any leaf above it) and
``best_move`` (value, move and nodes: all three for the point, two for half).

>>> from minimaxkit import GameTree
>>> value_part(Returned.read({"number": 2}), 3.0)
(False, 'value 2 ✘ (expected 3)')
"""

from __future__ import annotations

from dataclasses import dataclass

from ...student import evaluated_in
from ...tree import GameTree
from .compare import Comparison, compare, value_text
from .references import Reference, TreeCase
from .results import (
    NO,
    OK,
    Picture,
    Record,
    Returned,
    TreeResult,
    halves,
    leaves_text,
    mismatch_lines,
    same_value,
)

__all__ = ["grade_minimax", "value_part"]

Path = tuple[int, ...]


def value_part(got: Returned, expected: float) -> tuple[bool, str]:
    """Whether the returned value is right, and the words for it."""
    if got.kind != "number":
        return False, f"value {NO}: returned {got.words()}; expected a number (the value)"
    if same_value(got.number, expected):
        return True, f"value {value_text(got.number)} {OK}"
    return False, f"value {value_text(got.number)} {NO} (expected {value_text(expected)})"


@dataclass(frozen=True)
class _Move:
    """The move half of ``best_move``: right or not, and the words for it."""

    right: bool
    words: str


def _move_part(child: Returned, tree: GameTree, ref: Reference) -> _Move:
    assert ref.moves is not None
    best = " or ".join(tree.root.children[i].name for i in ref.moves)
    if child.kind == "node" and child.path is not None and len(child.path) == 1 \
            and child.path[0] in ref.moves:
        return _Move(True, f"move {child.name} {OK}")
    if child.kind == "node":
        got = f"move {child.name}"
    elif child.kind == "none":  # the pair was returned, but the move in it was never set
        got = "move: None, not a child node (was the best child ever set?)"
    else:
        got = f"move: {child.words()}, not a child node"
    return _Move(False, f"{got} {NO} (best: {best})")


def _search_words(c: Comparison, tree: GameTree, depth: int | None,
                  leaves: list[Path]) -> str:
    # a leaf above the depth limit is evaluated too: the count says so where there is one
    above = " and leaves above it" if depth is not None and any(
        len(path) < depth for path in c.reference) else ""
    nodes = "leaves" if depth is None else f"nodes at depth {depth}{above}"
    if c.same_leaves:
        return f"evaluated all {len(c.reference)} {nodes} once {OK}"
    done = (leaves_text(len(leaves)) if depth is None else
            f"{len(leaves)} node{'' if len(leaves) == 1 else 's'} at depth {depth}{above}")
    return f"evaluated {done} {NO} (expected {len(c.reference)}, each once)"


def grade_minimax(out: Record, case: TreeCase) -> TreeResult:
    """``minimax``, ``minimax_limited`` and ``best_move`` on one tree."""
    tree, ref = case.tree, case.ref
    assert ref.search is not None and ref.value is not None
    got = Returned.read(out.result)
    move: _Move | None = None
    if ref.moves is not None:  # best_move: (value, child)
        pair = got.pair()
        if pair is None:
            return TreeResult(0.0, f"returned {got.words()}; expected a pair "
                                   "(value, best child)")
        got, child = pair
        move = _move_part(child, tree, ref)
    value_ok, value_words = value_part(got, ref.value)
    leaves = evaluated_in(out.calls)
    trace = ref.search.trace
    c = compare(leaves, {"minimax": trace}, tree)
    search_ok = c.same_leaves
    parts = [value_words, *([move.words] if move else []),
             _search_words(c, tree, case.depth, leaves)]
    scores = [float(value_ok), float(search_ok)] + ([float(move.right)] if move else [])
    result = TreeResult(halves(sum(scores) / len(scores)), ", ".join(parts))
    if value_ok and search_ok and (move is None or move.right):
        return result
    if not search_ok:
        result.lines += mismatch_lines(tree, c, "minimax", pruning=False)
    if not c.same_leaves:
        result.picture = Picture(tree, trace, c.marks(), "(minimax)")
    return result
