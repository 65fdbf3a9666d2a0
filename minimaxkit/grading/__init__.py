"""Grading game-tree search: what the code did, not only what it answered.

The names a notebook uses (``grade``, ``node_of``, ``try_on``...), imported on first use. A test
cell is ``grade(fn, "question", points=3)``; docs/grading.md has the workflow and
docs/design.md, *Grading in layers*, the layers below.

>>> from minimaxkit import GameTree
>>> from minimaxkit.grading import reference, run_check
>>> def alphabeta(node, alpha, beta):
...     if node.is_leaf():
...         return node.static()
...     for child in node.children():
...         v = alphabeta(child, alpha, beta)
...         alpha, beta = (max(alpha, v), beta) if node.is_max() else (alpha, min(beta, v))
...         if alpha >= beta:
...             break
...     return alpha if node.is_max() else beta
>>> tree = GameTree.from_nested([[3, 12, 8], [2, 4, 6], [14, 5, 2]])
>>> run_check("alphabeta", alphabeta, tree, reference("alphabeta", tree)).summary
'value 3 ✔, 7 leaves ✔'
"""

from typing import TYPE_CHECKING

from ..support.lazy import attach

if TYPE_CHECKING:  # for type checkers; imported on first use (._lazy)
    from ..student import MissingCall, ReadOnlyTree, Recorder, SearchNode
    from .api.explore import Trial, explore, node_of, test_tree, try_on
    from .api.grade import grade, grade_report, run_check
    from .recording.outcome import Outcome, describe
    from .recording.runners import run_contained
    from .testdata.places import student_id
    from .testdata.trees import build_tree, seed_for
    from .verdicts.bugs import BUGS, Bug, buggy_alphabeta, recognise
    from .verdicts.compare import Comparison, Divergence, compare
    from .verdicts.conventions import CONVENTIONS, convention_label
    from .verdicts.feedback import GradeReport, TreeVerdict
    from .verdicts.references import reference
    from .verdicts.results import Picture, TreeResult

__all__ = [
    "SearchNode", "Recorder", "MissingCall", "ReadOnlyTree", "run_contained", "Outcome",
    "describe", "reference", "build_tree", "CONVENTIONS", "convention_label", "seed_for",
    "compare", "Comparison", "Divergence", "BUGS", "Bug", "buggy_alphabeta", "recognise",
    "run_check", "TreeResult", "Picture", "grade", "grade_report", "GradeReport",
    "TreeVerdict", "student_id", "node_of", "try_on", "Trial", "explore", "test_tree",
]

_WHERE = {name: where for where, names in {
    '..student': ('MissingCall', 'ReadOnlyTree', 'Recorder', 'SearchNode'),
    '.api.explore': ('Trial', 'explore', 'node_of', 'test_tree', 'try_on'),
    '.api.grade': ('grade', 'grade_report', 'run_check'),
    '.recording.outcome': ('Outcome', 'describe'),
    '.recording.runners': ('run_contained',),
    '.testdata.places': ('student_id',),
    '.testdata.trees': ('build_tree', 'seed_for'),
    '.verdicts.bugs': ('BUGS', 'Bug', 'buggy_alphabeta', 'recognise'),
    '.verdicts.compare': ('Comparison', 'Divergence', 'compare'),
    '.verdicts.conventions': ('CONVENTIONS', 'convention_label'),
    '.verdicts.references': ('reference',),
    '.verdicts.feedback': ('GradeReport', 'TreeVerdict'),
    '.verdicts.results': ('Picture', 'TreeResult'),
}.items() for name in names}
__getattr__, __dir__ = attach(__name__, _WHERE)
