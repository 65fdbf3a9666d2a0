"""The worked examples of the course's sources, as trees, named by what each source is:
the example sheet with a hand trace (``sheet_tree``, ``sheet_binary``), the machine-player
tutorial (``tutorial_tree``) and AIMA's Figure 5.2 (``aima_5_2``).

>>> sheet_tree().root.value is None, len(sheet_tree().leaves())
(True, 27)
>>> aima_5_2().root.moves
('a1', 'a2', 'a3')
>>> tutorial_tree().to_nested()
[0.3, [0.7, 0.5, 0.9]]
"""

from __future__ import annotations

from .tree import GameTree

__all__ = ["tree_002", "binary_002", "example_001", "aima_5_2", "sheet_tree", "sheet_binary",
           "tutorial_tree", "EXAMPLES"]

#: The example sheet's 3-ply, branching-3 tree (27 leaves), left to right as the sheet draws it.
TREE_002 = [[[8, 7, 3], [9, 1, 6], [2, 4, 1]],
            [[1, 3, 5], [3, 9, 2], [6, 5, 2]],
            [[1, 2, 3], [9, 7, 2], [16, 6, 4]]]


def sheet_tree() -> GameTree:
    """The example sheet's 27-leaf tree: root value 5; alpha-beta evaluates 16 leaves,
    8 7 3 9 2 4 1 1 3 5 3 9 6 1 2 3."""
    return GameTree.from_nested(TREE_002)


def sheet_binary(last: float = 9) -> GameTree:
    """The example sheet's small binary example (MAX root, leaves 2 7 | 1 ?): alpha-beta
    evaluates 2 7 1 and not the last leaf. The sheet leaves that value unknown ("?");
    ``last`` sets it, and no value changes what is evaluated."""
    return GameTree.from_nested([[2, 7], [1, last]])


def tutorial_tree(siblings: tuple[float, float] = (0.5, 0.9)) -> GameTree:
    """The machine-player tutorial's 0.3 / 0.7 example: the human (MIN) moves; the first
    leaf is 0.3 and the second leaf, under a computer (MAX) node, is 0.7; then α = 0.7 ≥
    β = 0.3 and the 0.7 leaf's siblings (their values unknown in the tutorial, ``siblings``
    here) are never examined."""
    return GameTree.from_nested([0.3, [0.7, *siblings]], root="min")


def aima_5_2() -> GameTree:
    """AIMA's Figure 5.2 tree: MAX node A over MIN nodes B, C, D; value 3, move a1."""
    leaves = [[3, 12, 8], [2, 4, 6], [14, 5, 2]]
    return GameTree.from_dict({"name": "A", "player": "max", "children": [
        {"move": f"a{i + 1}", "node": {"name": mn, "player": "min", "children": [
            {"move": f"{mn.lower()}{j + 1}", "node": {"value": v}} for j, v in enumerate(vals)]}}
        for i, (mn, vals) in enumerate(zip("BCD", leaves, strict=True))]})


#: The same examples under the names the kit's own tests and grading data first used (the
#: course's file numbers of the documents), kept importable.
tree_002 = sheet_tree
binary_002 = sheet_binary
example_001 = tutorial_tree

#: Every built-in example by name.
EXAMPLES = {"tree_002": tree_002, "binary_002": binary_002, "example_001": example_001,
            "aima_5_2": aima_5_2, "sheet_tree": sheet_tree, "sheet_binary": sheet_binary,
            "tutorial_tree": tutorial_tree}
