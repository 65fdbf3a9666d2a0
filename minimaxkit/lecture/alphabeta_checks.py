"""The checks of lecture 3's spot-the-bug exercises: a reader's alpha-beta against the kit's.

A search passes when, on every tree, it returns the root's value and evaluates the leaves,
in order, that the kit's alphabeta evaluates in one correct convention (``conventions``):
cut on equality or strictly, fail-soft, fail-hard or one-sided fail-hard; negamax and the
MaxMin / MinMax pair evaluate the same leaves as the plain function. An answer outside the
course's convention passes with a note naming its convention and the course's.

The trees (``check_trees``): the example sheet's, AIMA's, and random trees with values from
-9 to 9, ties, MAX and MIN roots and uneven depths, to depth 6; the depth-limited exercise
adds static values and limits that stop above some leaves.

>>> check_bug_tutorial(11, 2)[0], check_bug_tutorial(9, 2)[1][:17]
(True, 'line 9 is right: ')
"""

from __future__ import annotations

import math
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from ..examples import aima_5_2, sheet_tree
from ..search import alphabeta
from ..tree import GameTree
from ._reader import (
    Counting,
    Failed,
    arguments_fit,
    call,
    number,
    number_or_note,
    short,
    shown,
)
from .check_trees import check_trees
from .conventions import CONVENTIONS, COURSE, Convention, course_note
from .cut_slips import bound_slip_hint
from .search_checks import NEGAMAX_NOTE, VIEWS, views_of
from .slips import ALPHABETA_SLIPS, MINIMAX_SLIPS, bound_hint, slip_hint

__all__ = ["check_bug_recitation", "check_bug_blog", "check_bug_tutorial", "TUTORIAL_BUG_LINE",
           "Case", "search_cases", "compare_search"]

Result = tuple[bool, str]
NOT_DOING_ITS_JOB = "some bound is not doing its job"


@dataclass(frozen=True)
class Case:
    """One tree a search is checked on: its label in messages, the tree, and the depth
    limit (None: to the leaves)."""

    label: str
    tree: GameTree
    limit: int | None = None

    def kit_leaves(self, convention: Convention) -> list[Any]:
        """The leaves the kit's alphabeta evaluates here in ``convention``, in order."""
        result = alphabeta(self.tree, depth=self.limit, **convention.options)  # type: ignore[arg-type]
        assert result.trace is not None
        return list(result.trace.leaves)

    @property
    def value(self) -> float:
        return alphabeta(self.tree, depth=self.limit, trace=False).value


def _root(tree: GameTree) -> str:
    return "MAX" if tree.root.is_max else "MIN"


def search_cases(depth_limited: bool) -> list[Case]:
    """The trees of a search check, the depth-limited ones with ``depth_limited``."""
    cases = [Case("the example sheet's tree", sheet_tree()), Case("AIMA's tree", aima_5_2())]
    cases += [Case(f"random tree {i} ({_root(t)} root, leaves at depths 2 to {t.height})", t)
              for i, t in enumerate(check_trees(16, depth=5))]
    cases += [Case(f"random tree {16 + i} ({_root(t)} root, depth {t.height})", t)
              for i, t in enumerate(check_trees(6, depth=6, first_seed=16))]
    if depth_limited:
        cases.append(Case("the example sheet's tree with static values, depth 2",
                          sheet_tree().with_static(), 2))
        cases += [Case(f"random tree {22 + i} with static values, depth 4",
                       t.with_static(noise=2, seed=i), 4)
                  for i, t in enumerate(check_trees(4, depth=6, first_seed=22))]
    return cases


def _as_written(got: Any) -> str:
    """A returned number as the tree's integer values are written: 8, not 8.0 (the game a
    check passes evaluates to floats)."""
    if isinstance(got, float) and got.is_integer():
        return str(int(got))
    return short(got)


def _value_problem(got: Any, case: Case, views: set[str]) -> str:
    """'' when ``got`` is the case's root value from one of the points of view still in
    ``views`` (which it narrows: MAX's, or negamax's player to move), else what is wrong
    with it."""
    want = case.value
    if number(got) is None:
        pair = " (return the value alone)" if isinstance(got, (tuple, list)) else ""
        return f"on {case.label} it returns {shown(got)}{pair}; expected a number, {want}"
    views &= views_of(got, want, case.tree.root.is_max)
    if not views:
        return f"on {case.label} it returns {_as_written(got)}; the value is {want}"
    return ""


def _above_limit_hint(counting: Counting, case: Case, limit: int | None) -> str:
    """Where a depth-limited search (to ``limit``) went wrong: the leaf above the limit it
    never evaluated that alpha-beta evaluates ('' when there is none, or when the search
    evaluated some leaf above the limit, so that it does test for leaves)."""
    if limit is None:
        return ""
    above = [p for p in case.kit_leaves(COURSE) if len(p) < limit]
    if not above or any(len(p) < limit for p in counting.evaluated):
        return ""
    node = case.tree.node(above[0])
    return (f". Leaf {node.name}, at depth {len(above[0])} above the limit {limit}, was never "
            "evaluated: a node without moves is a leaf at any depth (test for no moves as "
            "well as for the depth)")


#: Said when a depth-limited search goes exactly one ply past its limit on every tree.
ONE_PLY_TOO_DEEP = ("It goes exactly one ply past the limit on every tree: is the depth "
                    "compared the wrong way (depth > max_depth)? Stop when depth == max_depth")
#: Said when it goes further: the depth does not grow, or grows too slowly.
NOT_COUNTED = "Is the depth counted on the way down (depth + 1 passed to each child)?"


def _depth_problem(counting: Counting, case: Case, reader: Reader, cases: list[Case]) -> str:
    """'' when a depth-limited search evaluated only nodes at the limit or leaves above;
    else the first node it evaluated below the limit, and what its depths on every
    depth-limited case point to: a comparison one ply off, or a depth not counted."""
    limit = case.limit
    if limit is None:
        return ""
    tree = case.tree
    allowed = {n.path for n in tree.nodes()
               if len(n.path) == limit or (len(n.path) < limit and not n.children)}
    outside = [p for p in counting.evaluated if p not in allowed]
    if not outside:
        return ""
    why = ONE_PLY_TOO_DEEP if _plies_past_limit(reader, cases) == 1 else NOT_COUNTED
    return (f"on {case.label} it evaluates node {tree.node(outside[0]).name}, at depth "
            f"{len(outside[0])}: a search to depth {limit} stops at depth {limit}. {why}")


def _plies_past_limit(reader: Reader, cases: list[Case]) -> int:
    """How far past its limit, at most, the search evaluates a node on the depth-limited
    cases it can be run on (0: never past)."""
    past = 0
    for case in cases:
        if case.limit is None:
            continue
        try:
            _, counting = reader.run(case)
        except Failed:
            continue
        past = max([past, *(len(p) - case.limit for p in counting.evaluated)])
    return past


def _leaves_problem(evaluated: list[Any], case: Case, alive: list[Convention],
                    reader: Reader) -> str:
    """What differs between the leaves a search evaluated and those alpha-beta evaluates
    (in the course's convention where that was still possible, else the first left), with
    the slip it points to where the leaves and two probes tell (``cut_slips``)."""
    model = COURSE if COURSE in alive else alive[0]
    need = case.kit_leaves(model)
    mine = len(evaluated)
    if mine == len(case.tree.leaves()) > len(need) and case.limit is None:
        how = f"evaluates all {mine} leaves, as minimax does, where alpha-beta needs {len(need)}"
    elif mine != len(need):
        how = f"evaluates {mine} leaves where alpha-beta needs {len(need)}"
    else:
        how = f"evaluates {mine} leaves, but not the ones alpha-beta evaluates"
    hint = bound_slip_hint(case.tree, case.limit, evaluated, model.options, reader.leaves_from)
    return f"the values are right, but on {case.label} it {how}: {NOT_DOING_ITS_JOB}{hint}"


@dataclass(frozen=True)
class Reader:
    """A reader's search and how a check calls it: ``call_it(f, game, depth, window)``,
    named ``call_as`` in messages; ``limited``: it takes a depth limit."""

    f: Any
    call_it: Callable[[Any, Any, Any, tuple[float, float]], Any]
    call_as: str
    limited: bool

    def limit(self, case: Case) -> int:
        """The depth the search is asked to reach on ``case``: its limit, else its height."""
        return case.limit if case.limit is not None else case.tree.height

    def run(self, case: Case) -> tuple[Any, Counting]:
        """The root value the search returns on ``case`` from the full window, and the game
        that counted what it evaluated; :class:`Failed` (naming the tree) when it cannot be
        run."""
        counting = Counting(case.tree, limit=self.limit(case) if self.limited else None)
        full = (-math.inf, math.inf)
        try:
            got = call(lambda f, g, d: self.call_it(f, g, d, full), self.f, counting,
                       self.limit(case), call_as=self.call_as)
        except Failed as failed:  # the same kind (no result, or a diagnosis), with the tree
            raise type(failed)(f"on {case.label}: {failed}") from None
        return got, counting

    def run_window(self, case: Case, window: tuple[float, float]) -> tuple[Any, Counting] | None:
        """The root value the search returns on ``case`` when called with ``window`` as its
        (α, β), and the game that counted what it evaluated; None when it cannot be run."""
        counting = Counting(case.tree, limit=self.limit(case) if self.limited else None)
        try:
            got = call(lambda f, g, d: self.call_it(f, g, d, window), self.f, counting,
                       self.limit(case), call_as=self.call_as)
        except Failed:
            return None
        return got, counting

    def leaves_from(self, tree: GameTree, window: tuple[float, float]) -> list[Any] | None:
        """The leaves the search evaluates on ``tree`` from ``window`` (None: it failed)."""
        ran = self.run_window(Case("a probe", tree), window)
        return None if ran is None else ran[1].evaluated

    def tried(self, cases: list[Case]) -> list[tuple[Any, ...]]:
        """(tree, root, value, limit) on each case the search returns a number on."""
        out = []
        for case in cases:
            try:
                got, _ = self.run(case)
            except Failed:
                continue
            if number(got) is not None:
                out.append((case.tree, case.tree.root, got, self.limit(case)))
        return out


def _wrong_value_hint(reader: Reader, got: Any, cases: list[Case]) -> str:
    """The classic slip a wrong root value is, where the values on every case tell: α (or
    β) returned from every node, or one of :data:`~.slips.MINIMAX_SLIPS`."""
    return bound_hint(got) or slip_hint(reader.tried(cases), MINIMAX_SLIPS + ALPHABETA_SLIPS)


def _conventions_of(reader: Reader, cases: list[Case]) -> tuple[list[Convention], str]:
    """The conventions whose leaves the reader's search evaluates on every case, and the
    negamax note when its values are the player to move's ('' when MAX's); or no
    convention and what went wrong first."""
    alive, views = list(CONVENTIONS), set(VIEWS)
    for case in cases:
        got, counting = reader.run(case)
        limit = reader.limit(case) if reader.limited else None
        wrong = _value_problem(got, case, views)
        if wrong:
            hint = _wrong_value_hint(reader, got, cases) if number(got) is not None else ""
            return [], wrong + (hint or _above_limit_hint(counting, case, limit))
        wrong = _depth_problem(counting, case, reader, cases)
        if wrong:
            return [], wrong
        matching = [c for c in alive if counting.evaluated == case.kit_leaves(c)]
        if not matching:
            return [], (_leaves_problem(counting.evaluated, case, alive, reader)
                        + _above_limit_hint(counting, case, limit))
        alive = matching
    return alive, "" if VIEWS[0] in views else NEGAMAX_NOTE


#: The searches that tell the return conventions apart, each a MAX-root tree (nested
#: lists) and the window the root is searched with. In the first the root fails high on a
#: leaf child worth 6 > β = 4: fail-soft and one-sided fail-hard return 6, fail-hard clamps it
#: to 4. In the second both MIN children cut below α = 4: fail-soft returns 2, the best value
#: found; fail-hard and one-sided fail-hard return α, 4. (A one-sided MIN child starts at β and
#: never returns more, so only a leaf child can show the one-sided root above β.)
RETURN_PROBES = (([[3, 5], 6, [1, 9]], (1.0, 4.0)), ([[2, 7], [1, 8]], (4.0, 9.0)))


def _returns_like(reader: Reader, alive: list[Convention]) -> list[Convention]:
    """The conventions in ``alive`` whose value from the root's window is the reader's on
    each of :data:`RETURN_PROBES`: cutting on equality the three return conventions evaluate
    the same leaves, and only what a node returns from a window tells them apart.
    ``alive`` itself when the probes cannot tell (a call fails, or no convention returns
    what the reader's does: its full-window answers were right, so it is not refused for
    it)."""
    if len({c.fail for c in alive}) < 2:
        return alive
    keep = list(alive)
    for nested, window in RETURN_PROBES:
        tree = GameTree.from_nested(nested)
        ran = reader.run_window(Case("a probe", tree), window)
        got = None if ran is None else ran[0]
        if number(got) is None:
            return alive
        keep = [c for c in keep if got == alphabeta(
            tree, window=window, trace=False, **c.options).value]  # type: ignore[arg-type]
        if not keep:
            return alive
    return keep


def compare_search(f: Any, call_it: Callable[[Any, Any, Any, tuple[float, float]], Any],
                   depth: bool, call_as: str) -> Result:
    """Run ``f`` (through ``call_it(f, game, depth, window)``) on the cases and judge it."""
    if not callable(f) or isinstance(f, type):
        raise Failed(f"expected the function {call_as}, got {shown(f)}")
    arguments_fit(f, call_as.count(",") + 1, call_as)
    cases = search_cases(depth)
    reader = Reader(f, call_it, call_as, depth)
    alive, said = _conventions_of(reader, cases)
    if not alive:
        return False, said
    alive = _returns_like(reader, alive)
    note = course_note(alive)
    if note:
        return True, (f"{note} Same values and leaves as the kit's alphabeta in that "
                      f"convention on {len(cases)} trees.{said}")
    return True, (f"same values and same leaves as the kit's alphabeta on {len(cases)} trees "
                  "(MAX and MIN roots, values from -9 to 9 with ties, uneven depths to 6), "
                  f"cutting on equality as the course does.{said}")


def check_bug_recitation(ab_recitation: Any) -> Result:
    """Exercise 3.2: the recitation's fail-soft alpha-beta, its slip fixed; every correct
    convention passes. Refuses:

    * the recitation's slip, β raised with max at MIN nodes;
    * β set to the last value (beta = v) instead of lowered;
    * α never raised at MAX nodes;
    * a search without bounds that evaluates every leaf;
    * α returned from every node;
    * MAX and MIN told apart by depth;
    * the kit's own search.
    """
    return compare_search(ab_recitation, lambda f, g, _d, w: f(g, g.initial_state(), *w), False,
                          "ab_recitation(game, n, alpha, beta)")


def check_bug_blog(minimax_ab: Any) -> Result:
    """Exercise 3.3: the blog post's depth-limited alpha-beta, its slip fixed; every correct
    convention passes. Refuses:

    * the blog's slip, recursive calls to minimax;
    * α and β reset to ±∞ in the recursive calls;
    * the depth not counted on the way down;
    * the depth compared one step too soon;
    * no test for a leaf above the depth limit;
    * a running max started at 0;
    * the kit's own search.
    """
    return compare_search(minimax_ab, lambda f, g, d, w: f(g, g.initial_state(), 0, d, *w),
                          True,
                          "minimax_ab(game, n, depth, max_depth, alpha, beta)")


#: The tutorial's ScoredMove alpha-beta, as lecture 3 writes it anew with the tutorial's slip
#: kept: the number of the wrong line.
TUTORIAL_BUG_LINE = 11


def check_bug_tutorial(line: Any = None, beta_start: Any = None) -> Result:
    """Exercise 3.4: the wrong line of the tutorial's scored-move search, and the start
    value of β its prose means. Refuses:

    * line 9 (the computer's branch, which is right);
    * another line;
    * β starting at -2, as the prose writes;
    * β starting at another value;
    * the line typed as a string.
    """
    number_, note = number_or_note(line)
    if number_ is None:
        return False, f"line: {note}"
    if number_ != TUTORIAL_BUG_LINE:
        if number_ == 9:
            return False, ("line 9 is right: it stores a score, result.score; look at the "
                           "human's branch")
        return False, ("not that line: look for a score that is set to something that is "
                       "not a score (lines 1 to 14)")
    start, note = number_or_note(beta_start)
    if start is None:
        return False, f"the line is right; beta_start: {note}"
    if start != 2:
        if start == -2:
            return False, ("the line is right; -2 is what the prose writes, but β falling "
                           "from -2 to 0.3 would be a rise: which start value is meant?")
        return False, "the line is right; now, which start value does the prose mean for β?"
    return True, (f"line {TUTORIAL_BUG_LINE} should read `best = (m, result.score)`, and β "
                  "starts at 2.")
