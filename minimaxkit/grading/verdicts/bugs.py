"""Known bugs and their signatures: what a sample search with that one mistake
(:mod:`.samples`), or a changed reference (no pruning, players swapped, depth off by one, no
ordering), shows on the same tree: its value and the leaves it evaluates, in order
(docs/grading.md, *How grading works*).

>>> from minimaxkit.examples import tree_002
>>> tree = tree_002()
>>> leaves = run_sample(buggy_alphabeta("wrong_comparison"), tree)
>>> len(leaves), [b.name for b in recognise(leaves, tree, "alphabeta")]
(6, ['wrong_comparison'])
>>> leaves = run_sample(buggy_alphabeta("beta_max"), tree)
>>> len(leaves), [b.name for b in recognise(leaves, tree, "alphabeta")]
(21, ['not_passed_min', 'beta_not_updated', 'beta_max'])
"""

from __future__ import annotations

import functools
import math
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from ...search import alphabeta, minimax
from ...student import Recorder
from ...tree import GameTree
from ..samples.alphabeta import ORDERING_ONLY, SAMPLE_BUGS, AlphaBetaSample, buggy_alphabeta
from ..samples.deepening import DEEPENING_BUGS, DeepeningSample
from ..samples.minimax import MINIMAX_BUGS, buggy_minimax
from .conventions import CONVENTIONS
from .observed import Observed, Options, Step, observed_by
from .results import same_value

__all__ = ["Bug", "BUGS", "SAMPLE_BUGS", "buggy_alphabeta", "run_sample", "recognise",
           "swapped", "signatures", "matching", "Signatures", "same_as"]

Path = tuple[int, ...]
INF = math.inf
_MINIMAX = ("minimax", "minimax_limited", "best_move")
_ALPHABETA = ("alphabeta", "ordered_alphabeta")


@dataclass(frozen=True)
class Bug:
    """A known mistake and the advice shown to the student (its first words, up to a colon,
    name it). ``about_returns``: a mistake in what a node returns, so the fail mode its code
    reads as says nothing of its convention."""

    name: str
    advice: str
    about_returns: bool = False


BUGS: dict[str, Bug] = {b.name: b for b in [
    Bug("no_pruning", "no pruning: your search evaluated every leaf. Alpha-beta "
        "stops at a MAX node once v ≥ β and at a MIN node once v ≤ α. If it does, check that "
        "α and β are passed down to the recursive calls and updated (α = max(α, v) at MAX, "
        "β = min(β, v) at MIN): otherwise no node ever sees a finite bound"),
    Bug("not_passed_max", "α and β are not passed down from MAX nodes: the calls on a MAX "
        "node's children start again from (-∞, ∞), so the MIN nodes below never cut"),
    Bug("not_passed_min", "α and β are not passed down from MIN nodes: the calls on a MIN "
        "node's children start again from (-∞, ∞), so the MAX nodes below never cut"),
    Bug("alpha_not_updated", "α is never updated: after each child of a MAX node set "
        "α = max(α, v), so that the MIN nodes below it can cut"),
    Bug("beta_not_updated", "β is never updated: after each child of a MIN node set "
        "β = min(β, v), so that the MAX nodes below it can cut"),
    Bug("root_forgets_alpha", "the root's loop forgets its bound: the root searches each "
        "child with the window it was given and never narrows it (α = max(α, v) at a MAX "
        "root, β = min(β, v) at a MIN root), so its later children cannot be cut"),
    Bug("cut_before_update", "the cut test comes before the update: it tests α ≥ β (or "
        "β ≤ α) with the bound of the children before, then updates it, so every cut comes "
        "one child late. Update first (α = max(α, v)), then test, or test v ≥ β directly"),
    Bug("over_pruning", "over-pruning: your search cuts where alpha-beta does not. A MAX node "
        "stops only when v ≥ β (β comes from the MIN nodes above), a MIN node only when "
        "v ≤ α; comparing v with the node's own bound (v ≥ α at MAX) or with both bounds "
        "cuts good moves"),
    Bug("wrong_window", "wrong initial window: the search does not start from the window "
        "it is given (α and β swapped, or set to the same number): start with the α and β "
        "of the call (-∞ and ∞ on most trees) and pass them on"),
    Bug("window_ignored", "ignores the window it is given: your search starts from "
        "(-∞, ∞) whatever α and β it is called with, so on a tree whose root is called with "
        "a narrower window it returns the value of the whole tree instead of the value "
        "searched in that window. Search with the α and β you are given"),
    Bug("wrong_comparison", "cut on the wrong comparison: a MAX node cuts when v ≥ β (or "
        "v > β), a MIN node when v ≤ α (or v < α)"),
    Bug("swapped", "MIN and MAX swapped: your search minimises at MAX nodes and maximises at "
        "MIN nodes (node.is_max() is True where MAX is to move)"),
    Bug("beta_max", "β updated with max, the recitation's erratum (lecture 3): at a MIN node "
        "β becomes min(β, v), not max(β, v)"),
    Bug("alpha_min", "α updated with min: at a MAX node α becomes max(α, v), not min(α, v)"),
    Bug("returns_bound", "a node returns a bound instead of its value: your MIN nodes "
        "return α (or your MAX nodes β) where they should return v, the least (greatest) "
        "value of their children; a MIN node returns v (or β, at one side, in the sheet's "
        "form), never the α it was given", about_returns=True),
    Bug("cut_returns_infinity", "returns ±∞ at a cut instead of v: a MAX node that cuts "
        "(v ≥ β) returns ∞, a MIN node that cuts (v ≤ α) returns -∞. Where the root is "
        "called with (-∞, ∞) no answer changes, but in a narrower window the root's value "
        "does: return v (fail-soft) or the bound (fail-hard)", about_returns=True),
    Bug("start_at_zero", "your running value starts at 0: a MAX node whose children are all "
        "below 0 gets 0 (a MIN node whose children are all above 0, likewise). Start a MAX "
        "node's value at -math.inf and a MIN node's at math.inf (or at the first child's "
        "value)"),
    Bug("parity", "the player to move decided by the depth: your search takes even depths "
        "for MAX and odd ones for MIN, but the player to move is the node's own: ask "
        "node.is_max() (a root can be MIN)"),
    Bug("shared_bounds", "α and β are shared between nodes: your search keeps them where "
        "every call changes them (a global, or one list passed down), so a child's update "
        "changes its parent's window. Pass α and β as arguments: each call has its own"),
    Bug("leaf_not_checked", "a leaf above the depth limit is not checked: your search stops "
        "only at the depth limit and asks a leaf for its children. Stop when node.is_leaf() "
        "or node.depth == max_depth"),
    Bug("always_max", "every node maximises: a MIN node's value is the least of its "
        "children's values (node.is_max() is False there)"),
    Bug("ignores_depth", "best_move ignores max_depth: it searched the children to the "
        "leaves; call minimax_limited(child, max_depth)"),
    Bug("move_always_max", "best_move always maximises: at a MIN root the best move is the "
        "child with the smallest value; ask node.is_max()"),
    Bug("fixed_depth", "best_move searches to a depth of its own: it evaluated the nodes at "
        "depth 2 whatever max_depth is; pass max_depth on to minimax_limited"),
    Bug("depth_deeper", "depth off by one: your search evaluates the nodes one ply below the "
        "depth limit (depth counts from the root, which has depth 0: stop when "
        "node.depth == max_depth)"),
    Bug("depth_shallower", "depth off by one: your search evaluates the nodes one ply above "
        "the depth limit (depth counts from the root, which has depth 0: stop when "
        "node.depth == max_depth, not max_depth - 1)"),
    Bug("no_ordering", "no move ordering: your search visits the children in the tree's "
        "order, not sorted by their estimates"),
    Bug("reversed_ordering", "ordering reversed: MAX nodes' children go from the highest "
        "estimate to the lowest, MIN nodes' from the lowest to the highest"),
    Bug("ties_reversed", "equal estimates searched in reverse: your search (or the "
        "order_children it calls) puts children with equal estimates in reverse, as a list "
        "sorted one way and then reversed leaves them. Where the order comes from your "
        "order_children, that is graded in order_children's question only; written into the "
        "search, sort with reverse=True (it keeps equal ones in the tree's order) instead of "
        "reversing a sorted list"),
    Bug("static_for_order", "static() used to order: your search reads node.static() of "
        "the children to sort them, and every static() counts as an evaluation; sort by "
        "node.estimate()"),
    Bug("root_only_ordering", "only the root's children are ordered: sort the children "
        "of every node by their estimates, not only the root's"),
    Bug("no_reordering", "no reordering: each iteration searches the children in the tree's "
        "order instead of the previous iteration's best child first, then the others by "
        "estimate"),
    Bug("previous_not_first", "the previous iteration's best child is not searched first: "
        "your deepening sorts each node's children by estimate but never moves the best child "
        "an earlier iteration found there to the front, which is what reordering is for. "
        "After sorting, put best[node] first (when the node has one), then the others in "
        "static order"),
    Bug("root_values", "the root ordered by the previous iteration's values: your deepening "
        "sorts the root's children by the values they returned in the last iteration, but a "
        "child that was cut off returned only a bound, not its value, so the order is not the "
        "one asked for. Search the previous iteration's best child first, then the others in "
        "static order (by estimate), as at every other node"),
    Bug("previous_only", "best children of the last iteration only: your deepening forgets "
        "a node's best child when the iteration after it did not find one there (the node "
        "failed low, or was cut off); keep one dict for all iterations and overwrite an "
        "entry only when an iteration finds a best child"),
    Bug("first_move", "the first iteration's move at every depth: yield the best child each "
        "iteration found at the root, not the one the first found"),
    Bug("tie_last", "a later child replaces the best one: your search takes a child as the "
        "best when the value is not above α (a test v ≥ α, or value ≥ best), so a tie, or "
        "any child after the best, replaces it. The best child is the first whose value "
        "raised α (at MAX; lowered β at MIN): test v > α"),
    Bug("cut_best_not_kept", "the child that cuts is not kept as the best: a child that "
        "causes a cut-off is the node's best child; note it before you leave the loop"),
    Bug("fail_low_best", "a best child kept where the node failed low: where no child raised "
        "α (at MAX), the children's values are only bounds and name no best move in this "
        "assignment; keep the entry of an earlier iteration there"),
]}


def run_sample(sample: Callable[..., Any], tree: GameTree, *args: Any) -> list[Path]:
    """The leaves a trusted sample evaluates on ``tree``, in order."""
    rec = Recorder(tree)
    try:
        sample(rec.root(), *(args or (-INF, INF)))
    except (RecursionError, ValueError):  # a sample that fails on this tree matches nothing
        return []
    return rec.evaluated


def swapped(tree: GameTree) -> GameTree:
    """The same tree with MAX and MIN swapped at every node."""
    d = tree.to_dict()
    todo = [d]
    while todo:
        node = todo.pop()
        node["player"] = "min" if node["player"] == "max" else "max"
        todo += [edge["node"] for edge in node.get("children", [])]
    return GameTree.from_dict(d)


#: bug (``name`` or ``name/variant``) -> convention -> what its sample shows on a tree
Signatures = dict[str, dict[str, Observed]]


def _search(search: Callable[..., Any], tree: GameTree, **kw: Any) -> Observed | None:
    try:
        r = search(tree, **kw)
    except ValueError:  # no static values at that depth
        return None
    assert r.trace is not None
    return Observed((Step(float(r.value), None, tuple(r.trace.leaves)),))


def _minimax_signatures(tree: GameTree, check: str, depth: int | None) -> Signatures:
    out: Signatures = {}
    for sample, (name, checks) in MINIMAX_BUGS.items():
        if check in checks:
            seen = observed_by(buggy_minimax(sample, check), tree, check, {"depth": depth})
            if seen is not None:
                out[name if sample == name else f"{name}/{sample}"] = {"": seen}
    return out


def _alphabeta_signatures(tree: GameTree, check: str,
                          window: tuple[float, float] | None) -> Signatures:
    out: Signatures = {}
    ordered = check == "ordered_alphabeta"
    order = "static" if ordered else None
    flipped = swapped(tree)
    bounds = window or (-INF, INF)
    options = {"window": window} if window is not None else {}

    def worst_first(game: Any, state: Any, move: Any) -> float:  # the ordering reversed
        return -float(game.evaluate(game.play(state, move)))

    every = _search(minimax, tree, order=order)
    for conv, (equal, fail) in CONVENTIONS.items():
        kw: dict[str, Any] = {"prune_on_equal": equal, "fail": fail, "window": bounds}
        changed = {"no_pruning": every}
        if ordered:
            changed["no_ordering"] = _search(alphabeta, tree, **kw)
            changed["reversed_ordering"] = _search(alphabeta, tree, order=worst_first, **kw)
        else:
            changed["swapped"] = _search(alphabeta, flipped, **kw)
        for name, seen in changed.items():
            if seen is not None:
                out.setdefault(name, {})[conv] = seen
        for sample, name in SAMPLE_BUGS.items():
            if sample in ORDERING_ONLY and not ordered:
                continue
            seen = observed_by(AlphaBetaSample(sample, equal, fail, ordered), tree, check,
                               options)
            if seen is not None:
                out.setdefault(name if sample == name else f"{name}/{sample}", {})[conv] = seen
    return out


def _deepening_signatures(tree: GameTree, max_depth: int, reorder: bool) -> Signatures:
    out: Signatures = {}
    options = {"max_depth": max_depth, "reorder": reorder}
    for conv, (equal, fail) in CONVENTIONS.items():
        for sample, name in DEEPENING_BUGS.items():
            if not reorder and sample in ("no_reordering", "previous_only", "tie_last",
                                          "tie_last_root", "cut_best_not_kept",
                                          "fail_low_best", "static_for_order",
                                          "previous_not_first", "root_values"):
                continue  # mistakes of the reordering: without it they change nothing
            seen = observed_by(DeepeningSample(sample, equal, fail), tree, "deepen", options)
            if seen is not None:
                out.setdefault(name if sample == name else f"{name}/{sample}", {})[conv] = seen
    return out


@functools.lru_cache(maxsize=256)
def _signatures(tree: GameTree, check: str, options: Options) -> Signatures:
    if check in _MINIMAX:
        return _minimax_signatures(tree, check, options.depth)
    if check in _ALPHABETA:
        return _alphabeta_signatures(tree, check, options.window)
    if check == "deepen" and options.max_depth is not None:
        return _deepening_signatures(tree, options.max_depth, options.reorder)
    return {}


def signatures(tree: GameTree, check: str, options: Options | None = None) -> Signatures:
    """Bug -> convention -> what it shows on ``tree`` for ``check`` with the tree's
    ``options`` (a depth limit, alpha-beta's window...; the minimax checks have one
    convention, ""); variants of one bug kept apart as ``name/variant``. Computed once per
    tree and options (the suites' fixed trees are the same for every student)."""
    return _signatures(tree, check, options or Options())


def same_as(got: Observed, sample: Observed, check: str) -> bool:
    """Whether a submission showed what a sample shows: the same value and leaves (in order,
    for alpha-beta and deepening; the same nodes in any order for minimax, which may search
    the children in any order), and the same move where there is one."""
    if len(got.steps) != len(sample.steps):
        return False
    for mine, theirs in zip(got.steps, sample.steps, strict=True):
        if check in _MINIMAX:
            if sorted(mine.leaves) != sorted(theirs.leaves):
                return False
        elif mine.leaves != theirs.leaves:
            return False
        if not (mine.value is None and theirs.value is None or
                theirs.value is not None and same_value(mine.value, theirs.value)):
            return False
        if check in ("best_move", "deepen") and mine.move != theirs.move:
            return False
    return True


def matching(got: Observed | list[Path], sigs: Signatures, check: str = "alphabeta"
             ) -> dict[str, list[str]]:
    """The bugs whose signature is what ``got`` shows (a list of leaves: those leaves,
    whatever the value), with the conventions it is found in.

    >>> leaf = Observed((Step(1.0, None, ((0,),)),))
    >>> matching([(0,)], {"a": {"equal-soft": leaf, "strict-soft": Observed(())}})
    {'a': ['equal-soft']}
    """
    found: dict[str, list[str]] = {}
    for key, per in sigs.items():
        name = key.split("/")[0]
        for conv, sig in per.items():
            if isinstance(got, list):
                hit = list(sig.leaves) == [tuple(p) for p in got] if check not in _MINIMAX \
                    else sorted(sig.leaves) == sorted(tuple(p) for p in got)
            else:
                hit = same_as(got, sig, check)
            if hit and conv not in found.get(name, []):
                found.setdefault(name, []).append(conv)
    return found


def recognise(leaves: list[Path] | Observed, tree: GameTree, check: str, *,
              depth: int | None = None,
              window: tuple[float, float] | None = None) -> list[Bug]:
    """The known bugs that evaluate exactly ``leaves`` on ``tree`` in some convention (for
    minimax: the same nodes in any order; alpha-beta's root called with ``window``), in the
    catalogue's order."""
    got = leaves if isinstance(leaves, Observed) else list(leaves)
    paths = [tuple(p) for p in (got.leaves if isinstance(got, Observed) else got)]
    correct = _correct_leaves(tree, check, window)
    found = matching(got, signatures(tree, check, Options(depth=depth, window=window)), check)
    # a bug that does not show on this tree evaluates what a correct search in its
    # convention does: it is not recognised in such leaves
    return [b for n, b in BUGS.items()
            if any(correct.get(conv) != paths for conv in found.get(n, []))]


def _correct_leaves(tree: GameTree, check: str,
                    window: tuple[float, float] | None = None) -> dict[str, list[Path]]:
    """Convention -> the leaves a correct alpha-beta evaluates in it (none for minimax)."""
    if check not in _ALPHABETA:
        return {}
    order = "static" if check == "ordered_alphabeta" else None
    out = {}
    for conv, (equal, fail) in CONVENTIONS.items():
        seen = _search(alphabeta, tree, prune_on_equal=equal, fail=fail, order=order,
                       window=window or (-INF, INF))
        if seen is not None:
            out[conv] = list(seen.leaves)
    return out
