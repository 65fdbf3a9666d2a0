"""Which bound is not doing its job: the slips behind an alpha-beta that returns the right
values but evaluates the wrong leaves.

Three different slips make a search evaluate every leaf, as minimax does, and a fourth
makes it miss only one kind of cut-off. A check that has seen the reader's leaves can tell
them apart with two small searches from a narrow window (:data:`ROOT_PROBE`,
:data:`DEEP_PROBE`) and the kit's trace of the tree it failed on:

* no cut test at all: even the root, given a window, searches every child;
* α and β not passed down: the root cuts on the window it is given, but a node below,
  searched with (-∞, ∞), never does;
* the bounds passed down but never moved (α not raised with max at MAX nodes, β not
  lowered with min at MIN nodes): a node below cuts on the window it is given, but no node
  cuts on a value found beside it;
* one kind of cut-off missing (the recitation's slip: β raised with max at MIN nodes, so
  no MAX node below ever reaches β): the other kind happens wherever alpha-beta's does.

Each hint is said only with a refusal, after the values were found right.

>>> from minimaxkit import GameTree
>>> tree = GameTree.from_nested([[5, 6], [7, 8]])
>>> [len(p) for p in tree_leaves(tree)]
[2, 2, 2, 2]
"""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence
from typing import Any

from ..search import alphabeta
from ..trace import Cutoff
from ..tree import GameTree

__all__ = ["ROOT_PROBE", "DEEP_PROBE", "bound_slip_hint", "tree_leaves"]

#: A window and a MAX-root tree whose root must cut after its first child: B (MIN) returns 5,
#: at least β = 4, so C's two leaves are pruned. A search with no cut test evaluates all 4.
ROOT_PROBE = ([[5, 6], [7, 8]], (-math.inf, 4.0))
#: A window and a tree where a node two levels down must cut on the window passed to it:
#: C (MAX), entered with β = 4 from the root, reaches 5 and prunes its leaf 1. A search that
#: gives its children (-∞, ∞) evaluates both leaves.
DEEP_PROBE = ([[[5, 1]]], (-math.inf, 4.0))

#: Runs the reader's search on a tree from a window; the leaves it evaluated (paths), or None
#: when it could not be run.
Counted = Callable[[GameTree, tuple[float, float]], "Sequence[Any] | None"]

NO_CUT = ("; no cut-off happens at all, not even at the root searched from a narrow window: "
          "is there a cut test (v ≥ β at MAX, v ≤ α at MIN) that returns at once?")
NOT_PASSED = ("; a node cuts on the window it is given, but the nodes below it never do: "
              "are α and β passed down? Each child is searched with its parent's current "
              "(α, β), not with (-∞, ∞)")
NOT_MOVED = ("; a node cuts on the window it is given, but never on a value found beside "
             "it: does each MAX node raise α with max (α = max(α, v)) and each MIN node "
             "lower β with min (β = min(β, v))?")
ONE_KIND = {
    "beta": ("; the α-cuts happen but the β-cuts do not: does each MIN node lower β with min "
             "(β = min(β, v), not max), and pass it down to its children?"),
    "alpha": ("; the β-cuts happen but the α-cuts do not: does each MAX node raise α with max "
              "(α = max(α, v), not min), and pass it down to its children?"),
}


def tree_leaves(tree: GameTree) -> list[Any]:
    """The paths of the tree's leaves, left to right."""
    return [n.path for n in tree.nodes() if not n.children]


def _probe(counted: Counted, probe: tuple[Any, tuple[float, float]]) -> int | None:
    """How many leaves the reader's search evaluates on ``probe`` (None: it failed)."""
    nested, window = probe
    leaves = counted(GameTree.from_nested(nested), window)
    return None if leaves is None else len(leaves)


def _missed_cut_kinds(tree: GameTree, limit: int | None, evaluated: Sequence[Any],
                      options: dict[str, object]) -> tuple[set[str], set[str]]:
    """The kinds ("alpha", "beta") of the kit's cut-offs the reader's search made, and of
    those it missed (it evaluated a leaf below a child the cut-off prunes)."""
    result = alphabeta(tree, depth=limit, **options)  # type: ignore[arg-type]
    assert result.trace is not None
    made: set[str] = set()
    missed: set[str] = set()
    for event in result.trace.events:
        if not isinstance(event, Cutoff) or not event.pruned:
            continue
        pruned = [(*event.path, i) for i in event.pruned]
        below = any(tuple(p[:len(c)]) == c for p in evaluated for c in pruned)
        (missed if below else made).add(event.kind)
    return made, missed


def bound_slip_hint(tree: GameTree, limit: int | None, evaluated: Sequence[Any],
                    options: dict[str, object], counted: Counted) -> str:
    """The slip a search that returned the right values but evaluated ``evaluated`` on
    ``tree`` (to ``limit``) points to, as '; ...', or '' when the leaves do not tell.
    ``options`` are the kit's alphabeta options of the convention it is compared with."""
    if limit is None and len(evaluated) == len(tree_leaves(tree)):
        return _every_leaf_hint(counted)
    made, missed = _missed_cut_kinds(tree, limit, evaluated, options)
    if len(missed) == 1 and made and not (made & missed):
        return ONE_KIND[next(iter(missed))]
    return ""


def _every_leaf_hint(counted: Counted) -> str:
    """Why a search evaluates every leaf: which of the probes it cuts on."""
    root = _probe(counted, ROOT_PROBE)
    if root is None:
        return ""
    if root == 4:
        return NO_CUT
    deep = _probe(counted, DEEP_PROBE)
    if deep is None:
        return ""
    return NOT_PASSED if deep == 2 else NOT_MOVED
