"""What is decided once per submission: the one convention it is graded under (docs/grading.md,
*Conventions*) and the known bug that accounts for every tree.

>>> from minimaxkit.examples import aima_5_2
>>> from minimaxkit.grading.verdicts.observed import Step
>>> from minimaxkit.grading.verdicts.references import compute
>>> tree = aima_5_2()
>>> ref = compute("alphabeta", tree)
>>> right = Observed((Step(3.0, None, ref.convention("strict-one-sided").leaves),))
>>> choose_convention("alphabeta", [Attempt(tree, ref, right)], list(CONVENTIONS), []).name
'equal-soft'
>>> choose_convention("alphabeta", [Attempt(tree, ref, right)], list(CONVENTIONS),
...                   ["strict-one-sided"]).why
'every tree matches it, and your code reads so'
>>> print(choose_convention("alphabeta", [Attempt(tree, ref, right)], list(CONVENTIONS),
...                         []).why.partition("; ")[0])
your values fit fail-soft, fail-hard and the sheet's one-sided form alike, with either cut rule
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from ...tree import GameTree
from .bugs import BUGS, Bug, Signatures, matching, signatures
from .conventions import CONVENTIONS, FAIL_WORDS, Convention
from .observed import Observed, Options, expanded_leaves, observed
from .references import Reference, reference_leaves
from .results import Record, same_value
from .where import where, where_seen

__all__ = ["Attempt", "attempt", "choose_convention", "Diagnosis", "diagnose", "bug_lines",
           "is_right", "signatures_of"]

Path = tuple[int, ...]
_MINIMAX = ("minimax", "minimax_limited", "best_move")
MINIMAX_CONVENTION = ""  # the minimax checks have one way to be right


@dataclass(frozen=True)
class Attempt:
    """A tree as the once-per-submission steps see it: the tree, its reference, what the
    submission showed there (None if it did not finish), the tree's options, and the leaves
    the submission asked for children (finished or not)."""

    tree: GameTree
    ref: Reference
    got: Observed | None
    options: Options = field(default_factory=Options)
    expanded_leaves: tuple[Path, ...] = ()


def attempt(check: str, tree: GameTree, ref: Reference | dict[str, Any] | None,
            options: Options | dict[str, Any] | None, out: Record | object) -> Attempt:
    """The :class:`Attempt` of a tree from what a run left (``out``: a recording's outcome,
    or anything else for a tree that was not run) and its reference as stored."""
    opts = options if isinstance(options, Options) else Options.read(options)
    reference = ref if isinstance(ref, Reference) else \
        Reference.read(ref, check, tree, opts.as_dict()) if ref else Reference()
    calls = getattr(out, "calls", None)
    if calls is None or not hasattr(out, "ok"):
        return Attempt(tree, reference, None, opts)
    got = observed(check, out, tree)  # type: ignore[arg-type]
    return Attempt(tree, reference, got, opts, expanded_leaves(calls, tree))


def signatures_of(check: str, trial: Attempt) -> Signatures:
    """The known bugs' signatures on ``trial``'s tree, with its options."""
    return signatures(trial.tree, check, trial.options)


def _leaves_right(check: str, got: Observed, ref: Reference, conv: str) -> bool:
    if check in _MINIMAX:
        assert ref.search is not None
        return sorted(got.leaves) == sorted(ref.search.leaves) and \
            len(set(got.leaves)) == len(got.leaves)
    if check == "deepen":
        return got.iterations == reference_leaves(check, ref, conv)
    return list(got.leaves) == reference_leaves(check, ref, conv)


def _answers_right(check: str, got: Observed, ref: Reference, conv: str) -> bool:
    if check == "deepen":
        its = ref.iterations_of(conv)
        return len(got.steps) == len(its) and all(
            same_value(s.value, it.value) and s.move is not None and len(s.move) == 1
            and s.move[0] in it.moves for s, it in zip(got.steps, its, strict=True))
    if check == "best_move" and not (got.move is not None and len(got.move) == 1 and
                                     ref.moves is not None and got.move[0] in ref.moves):
        return False
    expected = ref.answer(conv) if check in ("alphabeta", "ordered_alphabeta") else ref.value
    return expected is not None and same_value(got.value, expected)


def is_right(check: str, got: Observed, ref: Reference, conv: str) -> bool:
    """Whether a submission is right on a tree under ``conv``: its answers and its leaves."""
    return _leaves_right(check, got, ref, conv) and _answers_right(check, got, ref, conv)


def _conventions_of(check: str) -> list[str]:
    return [MINIMAX_CONVENTION] if check in _MINIMAX else list(CONVENTIONS)


def choose_convention(check: str, trials: list[Attempt], allowed: list[str],
                      read: list[str], *,
                      sigs: list[Signatures | None] | Callable[[], list[Signatures | None]] |
                      None = None) -> Convention | None:
    """The convention for every tree: one all trees match (its leaves, and its values
    where a tree's window tells fail modes apart), preferring what the code ``read`` as,
    else what the code reads as, else the one that accounts for the most trees, right or
    as a known bug (``sigs`` per trial, or a function that makes them when needed). None when
    no tree finished; not ``claimed`` when nothing tells the conventions apart."""
    if len(allowed) == 1:
        return Convention(allowed[0], "the question fixes it")
    ran = [t for t in trials if t.got is not None]
    if not ran:
        return None
    said = [c for c in allowed if c in read] if 0 < len(read) < len(CONVENTIONS) else []
    right = {c: sum(_leaves_right(check, t.got, t.ref, c) for t in ran if t.got)
             for c in allowed}
    whole = [c for c in allowed if right[c] == len(ran)]
    # where a window tells the fail modes apart by the root's value, the conventions whose
    # values are the submission's too
    exact = [c for c in whole if all(_answers_right(check, t.got, t.ref, c)
                                     for t in ran if t.got)]
    whole = exact or whole
    if whole:
        pick = next((c for c in whole if c in said), None)
        if pick is not None and [c for c in whole if c in said] == [pick]:
            return Convention(pick, "every tree matches it, and your code reads so")
        if len(whole) == 1:
            return Convention(whole[0], "every tree matches it")
        return Convention(pick or whole[0], alike(whole))
    if len(said) == 1:
        return Convention(said[0], "your code reads so: its cut tests and what it returns")
    # code whose text says nothing is weighed in the lectures' fail mode, fail-soft
    pool = said or [c for c in allowed if c.endswith("-soft")] or allowed
    if callable(sigs):
        sigs = sigs()
    if sigs is None:
        sigs = [signatures_of(check, t) for t in trials]
    known = _explained(check, trials, sigs, allowed)
    score = {c: (known[c], right[c]) for c in pool}
    pick = max(pool, key=lambda c: (*score[c], -allowed.index(c)))
    if all(s == score[pick] for s in score.values()):
        return Convention(allowed[0], "neither your code nor what it evaluated shows which "
                                      "convention it follows", claimed=False)
    return Convention(pick, f"your code does not say which, and it accounts for the most of "
                            f"your trees ({known[pick]} of {len(trials)}: right, or as a known "
                            "bug evaluates)")


def alike(fitting: list[str]) -> str:
    """Why a convention was chosen among several that every tree fits, where the code's text
    does not settle it: the trees cannot tell them apart (the first is the one compared).

    >>> print(alike(["equal-soft", "equal-hard", "equal-one-sided"]))
    your values fit fail-soft, fail-hard and the sheet's one-sided form alike; the trees here cannot tell them apart
    >>> print(alike(["equal-hard", "strict-hard"]))
    your values fit fail-hard with either cut rule; the trees here cannot tell them apart
    """  # noqa: E501 - a doctest's output is one line
    fails = list(dict.fromkeys(FAIL_WORDS[name.partition("-")[2]] for name in fitting))
    fails = [f.replace("one-sided fail-hard", "the sheet's one-sided form") for f in fails]
    either = len({name.partition("-")[0] for name in fitting}) > 1
    if len(fails) == 1:
        what = fails[0] + (" with either cut rule" if either else "")
    else:
        what = ", ".join(fails[:-1]) + " and " + fails[-1] + " alike" + \
            (", with either cut rule" if either else "")
    return f"your values fit {what}; the trees here cannot tell them apart"


def _explained(check: str, trials: list[Attempt], sigs: list[Signatures | None],
               allowed: list[str]) -> dict[str, int]:
    """Convention -> how many trees it accounts for: right, or as a known bug in it does."""
    known = dict.fromkeys(allowed, 0)
    for trial, sig in zip(trials, sigs, strict=True):
        if trial.got is None:
            continue
        found = matching(trial.got, sig or {}, check)
        for c in allowed:
            if _leaves_right(check, trial.got, trial.ref, c) or \
                    any(c in cs for cs in found.values()):
                known[c] += 1
    return known


def bug_lines(bugs: list[Bug]) -> list[str]:
    """The lines that name the likely bug, or a few."""
    if not bugs:
        return []
    if len(bugs) == 1:
        return [f"likely bug: {bugs[0].advice}"]
    return ["likely bug, one of:"] + [f"  - {b.advice}" for b in bugs[:3]]


@dataclass
class Diagnosis:
    """The bugs that account for every tree (``overall``), and per failing tree those that
    account for it alone; ``shown``: where the first of ``overall`` shows, in words."""

    overall: list[str] = field(default_factory=list)
    per_tree: dict[int, list[str]] = field(default_factory=dict)
    shown: str = ""

    @property
    def about_returns(self) -> bool:
        """The bug named for every tree is in what a node returns."""
        return bool(self.overall) and BUGS[self.overall[0]].about_returns

    def top_lines(self) -> list[str]:
        """The lines under the head when one bug accounts for every tree."""
        if not self.overall:
            return []
        bugs = [BUGS[n] for n in self.overall[:3]]
        shown = [f"  ({self.shown})"] if self.shown else []
        if len(bugs) == 1:
            return [f"likely bug (it accounts for what your search did on every tree): "
                    f"{bugs[0].advice}", *shown]
        return ["likely bug, one of (each accounts for what your search did on every "
                "tree):"] + [f"  - {b.advice}" for b in bugs] + shown

    def tree_lines(self, index: int) -> list[str]:
        """The lines of failing tree ``index``."""
        if self.overall:  # said once, at the top
            return []
        here = [BUGS[n] for n in self.per_tree.get(index, [])[:3]]
        if not here:
            return []
        lead = ("on this tree your search did exactly what a search with this bug "
                "does (not on all your trees, so look for more than one mistake)")
        return [lead + ":"] + [f"  - {b.advice}" for b in here]


def _matches(check: str, trial: Attempt, sig: Signatures, conv: str) -> dict[str, bool]:
    """Bug -> whether its sample in ``conv`` did exactly what the submission did here."""
    assert trial.got is not None
    found = {name: conv in convs for name, convs in matching(trial.got, sig, check).items()}
    return {name: found.get(name, False) for name in {k.split("/")[0] for k in sig}}


def diagnose(check: str, trials: list[Attempt], conv: str | None,
             sigs: list[Signatures | None], names: list[str] | None = None) -> Diagnosis:
    """The known bugs in ``conv`` (the minimax checks: "") that did exactly what the
    submission did: on every tree (only if some tree is wrong), and on each wrong tree.
    ``names``: the trees' names as the test lists them, said with where the bug shows when
    there are several trees."""
    conv = conv if conv is not None and check not in _MINIMAX else \
        _conventions_of(check)[0]
    out = Diagnosis()
    everywhere: dict[str, bool] | None = None
    wrong = False  # some tree is wrong in every convention: a bug, not only a convention
    first_wrong: dict[str, int] = {}
    for i, (trial, sig) in enumerate(zip(trials, sigs, strict=True)):
        if trial.got is None or sig is None:
            continue
        right = is_right(check, trial.got, trial.ref, conv)
        if not right and any(is_right(check, trial.got, trial.ref, c)
                             for c in _conventions_of(check)):
            continue  # right in another convention: the tree says so, and shows no bug
        wrong = wrong or not right
        fits = _matches(check, trial, sig, conv)
        if not right:
            out.per_tree[i] = [n for n in BUGS if fits.get(n)]
            for n in out.per_tree[i]:
                first_wrong.setdefault(n, i)
        everywhere = fits if everywhere is None else {
            n: everywhere.get(n, False) and fits.get(n, False) for n in everywhere}
    if wrong and everywhere:
        out.overall = [n for n in BUGS if everywhere.get(n)]
    _facts(check, trials, out, names)
    if out.overall and out.overall[0] in first_wrong:
        index = first_wrong[out.overall[0]]
        trial = trials[index]
        bug = out.overall[0]
        shown = where_seen(bug, trial.tree, trial.options, trial.got) or \
            where(bug, trial.tree, trial.options, check=check)
        out.shown = on_tree(shown, index, names)
    return out


def on_tree(shown: str, index: int, names: list[str] | None) -> str:
    """``shown`` (where a bug shows on tree ``index``) with the tree's name, when there are
    several trees to tell apart.

    >>> on_tree("it shows at node D (MAX, path (2,)): ...", 1, ["sheet", "ties"])
    'on the tree ties, it shows at node D (MAX, path (2,)): ...'
    >>> on_tree("it shows on this tree: with max_depth = 3, ...", 0, ["deep", "ties"])
    'it shows on the tree deep: with max_depth = 3, ...'
    >>> on_tree("it shows at node D", 0, ["sheet"])
    'it shows at node D'
    """
    if not shown or names is None or len(names) < 2 or index >= len(names):
        return shown
    if "on this tree" in shown:
        return shown.replace("on this tree", f"on the tree {names[index]}", 1)
    return f"on the tree {names[index]}, {shown}"


def _facts(check: str, trials: list[Attempt], out: Diagnosis,
           names: list[str] | None = None) -> None:
    """Bugs the calls prove on their own, named whatever the leaves: a search that asked a
    leaf for its children (it stops only at the depth limit)."""
    index = next((i for i, t in enumerate(trials) if t.expanded_leaves), None)
    if index is None or check not in ("minimax_limited", "best_move", "deepen"):
        return
    asked = trials[index]
    if "leaf_not_checked" not in out.overall:
        out.overall.insert(0, "leaf_not_checked")
    out.shown = on_tree(where("leaf_not_checked", asked.tree, asked.options,
                              asked=asked.expanded_leaves), index, names)
