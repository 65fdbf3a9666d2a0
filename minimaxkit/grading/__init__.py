"""Grading game-tree search: what the code did, not only what it answered.

Student code sees a tree only through :class:`SearchNode` (``is_leaf()``, ``is_max()``,
``children()``, ``static()``, ``estimate()``, ``name``, ``path``, ``depth``, ``move``), which
records every call. The grader runs the student function on each test tree in a forked,
time-limited child process (:func:`run_contained`), compares the nodes it evaluated with the
reference traces of every accepted convention (:func:`compare`), names known bugs by their
signatures (:mod:`~minimaxkit.grading.bugs`), and scores each tree on its own.

In an nbgrader notebook a test cell is ``grade(fn, "question", points=3)``; see
``docs/grading.md`` for the whole workflow.

>>> from minimaxkit import GameTree
>>> from minimaxkit.grading import reference, run_check
>>> def alphabeta(node, alpha, beta):
...     if node.is_leaf():
...         return node.static()
...     v = float("-inf") if node.is_max() else float("inf")
...     for child in node.children():
...         w = alphabeta(child, alpha, beta)
...         if node.is_max():
...             v = max(v, w)
...             if v >= beta:
...                 return v
...             alpha = max(alpha, v)
...         else:
...             v = min(v, w)
...             if v <= alpha:
...                 return v
...             beta = min(beta, v)
...     return v
>>> tree = GameTree.from_nested([[3, 12, 8], [2, 4, 6], [14, 5, 2]])
>>> run_check("alphabeta", alphabeta, tree, reference("alphabeta", tree)).summary
'value 3 ✔, 7 leaves ✔ (matches any cut rule and fail mode)'
"""

from typing import TYPE_CHECKING

from .._lazy import attach

if TYPE_CHECKING:  # the names, for type checkers; imported on first use (._lazy)
    from .bugs import BUGS, Bug, buggy_alphabeta, recognise
    from .checks import Picture, TreeResult, run_check
    from .compare import Comparison, Divergence, compare
    from .explore import Trial, explore, node_of, test_tree, try_on
    from .grader import GradeReport, TreeVerdict, grade, grade_report
    from .node import Recorder, SearchNode
    from .references import CONVENTIONS, build_tree, convention_label, reference, seed_for
    from .sandbox import Outcome, describe, run_contained
    from .suite import student_id


__all__ = [
    "SearchNode", "Recorder", "run_contained", "Outcome", "describe",
    "reference", "build_tree", "CONVENTIONS", "convention_label", "seed_for",
    "compare", "Comparison", "Divergence", "BUGS", "Bug", "buggy_alphabeta", "recognise",
    "run_check", "TreeResult", "Picture", "grade", "grade_report", "GradeReport",
    "TreeVerdict", "student_id", "node_of", "try_on", "Trial", "explore",
    "test_tree",
]

_WHERE = {name: where for where, names in {
    '.bugs': ('BUGS', 'Bug', 'buggy_alphabeta', 'recognise'),
    '.checks': ('Picture', 'TreeResult', 'run_check'),
    '.compare': ('Comparison', 'Divergence', 'compare'),
    '.explore': ('Trial', 'explore', 'node_of', 'test_tree', 'try_on'),
    '.grader': ('GradeReport', 'TreeVerdict', 'grade', 'grade_report'),
    '.node': ('Recorder', 'SearchNode'),
    '.references': ('CONVENTIONS', 'build_tree', 'convention_label', 'reference', 'seed_for'),
    '.sandbox': ('Outcome', 'describe', 'run_contained'),
    '.suite': ('student_id',),
}.items() for name in names}
__getattr__, __dir__ = attach(__name__, _WHERE)
