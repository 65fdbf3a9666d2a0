"""What is decided once per submission: the one convention it is graded under (docs/grading.md,
*Conventions*) and the known bug that accounts for every tree.

>>> from minimaxkit.examples import aima_5_2
>>> from minimaxkit.grading.verdicts.references import reference
>>> tree = aima_5_2()
>>> ref = reference("alphabeta", tree)
>>> right = [tuple(p) for p in ref["conventions"]["strict-hard"]["leaves"]]
>>> choose_convention("alphabeta", [(tree, ref, right)], list(CONVENTIONS), []).name
'equal-soft'
>>> choose_convention("alphabeta", [(tree, ref, right)], list(CONVENTIONS),
...                   ["strict-hard"]).why
'every tree matches it, and your code reads so'
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from ...tree import GameTree
from .bugs import BUGS, Bug, Signatures, matching, signatures
from .conventions import CONVENTIONS, Convention, reference_leaves

__all__ = ["Attempt", "choose_convention", "Diagnosis", "diagnose", "bug_lines"]

Path = tuple[int, ...]
#: a tree as the choice sees it: the tree, its reference data and what the submission
#: evaluated (one list of leaves, or one per iteration for deepening); None if it failed
Attempt = tuple[GameTree, dict[str, Any], "list[Path] | list[list[Path]] | None"]

def choose_convention(check: str, trials: list[Attempt], allowed: list[str],
                      read: list[str], *,
                      sigs: list[Signatures | None] | Callable[[], list[Any]] | None = None
                      ) -> Convention:
    """The convention for every tree: one all trees match (preferring what the code ``read``
    as), else what the code reads as, else the one that accounts for the most trees, right or
    as a known bug (``sigs`` per trial, or a function that makes them when needed)."""
    if len(allowed) == 1:
        return Convention(allowed[0], "the question fixes it")
    said = [c for c in allowed if c in read] if 0 < len(read) < len(CONVENTIONS) else []
    ran = [t for t in trials if t[2] is not None]
    right = {c: sum(got == reference_leaves(check, ref, c) for _, ref, got in ran)
             for c in allowed}
    whole = [c for c in allowed if ran and right[c] == len(ran)]
    if whole:
        pick = next((c for c in whole if c in said), None)
        if pick is not None:
            return Convention(pick, "every tree matches it, and your code reads so")
        return Convention(whole[0], "every tree matches it")
    if len(said) == 1:
        return Convention(said[0], "your code reads so: its cut tests and what it returns")
    pool = said or allowed
    if check == "deepen" or not ran:
        pick = max(pool, key=lambda c: (right[c], -allowed.index(c)))
        return Convention(pick, f"it matches the most of your trees ({right[pick]} of "
                                f"{len(trials)})" if ran else "the lectures' default")
    if callable(sigs):
        sigs = sigs()
    if sigs is None:
        sigs = [signatures(tree, check) for tree, _, _ in trials]
    known = {c: 0 for c in allowed}
    for (_, ref, got), sig in zip(trials, sigs, strict=True):
        if got is None:
            continue
        found = matching(got, sig or {})  # type: ignore[arg-type]
        for c in allowed:
            if got == reference_leaves(check, ref, c) or any(c in cs for cs in found.values()):
                known[c] += 1
    pick = max(pool, key=lambda c: (known[c], right[c], -allowed.index(c)))
    return Convention(pick, f"your code does not say which, and it accounts for the most of "
                            f"your trees ({known[pick]} of {len(trials)}: right, or as a known "
                            "bug evaluates)")


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
    account for it alone."""

    overall: list[str] = field(default_factory=list)
    per_tree: dict[int, list[str]] = field(default_factory=dict)

    def top_lines(self) -> list[str]:
        """The lines under the head when one bug accounts for every tree."""
        if not self.overall:
            return []
        bugs = [BUGS[n] for n in self.overall[:3]]
        if len(bugs) == 1:
            return [f"likely bug (it accounts for what your search evaluated on every tree): "
                    f"{bugs[0].advice}"]
        return ["likely bug, one of (each accounts for what your search evaluated on every "
                "tree):"] + [f"  - {b.advice}" for b in bugs]

    def tree_lines(self, index: int) -> list[str]:
        """The lines of failing tree ``index``."""
        if self.overall:  # said once, at the top
            return []
        here = [BUGS[n] for n in self.per_tree.get(index, [])[:3]]
        if not here:
            return []
        lead = ("on this tree your search evaluated exactly what a search with this bug "
                "evaluates (not on all your trees, so look for more than one mistake)")
        return [lead + ":"] + [f"  - {b.advice}" for b in here]


def diagnose(check: str, trials: list[Attempt], conv: str,
             sigs: list[Signatures | None]) -> Diagnosis:
    """The known bugs in ``conv`` that evaluate exactly what the submission did: on every tree
    (only if some tree is wrong), and on each wrong tree."""
    out = Diagnosis()
    everywhere: dict[str, bool] | None = None
    wrong = False  # some tree is wrong in every convention: a bug, not only a convention
    for i, ((_, ref, got), sig) in enumerate(zip(trials, sigs, strict=True)):
        if got is None or sig is None:
            continue
        right = got == reference_leaves(check, ref, conv)
        if not right and any(got == reference_leaves(check, ref, c) for c in CONVENTIONS):
            continue  # right in another convention: the tree says so, and shows no bug
        wrong = wrong or not right
        here = {name: conv in convs for name, convs in matching(got, sig).items()}  # type: ignore[arg-type]
        fits = {name: here.get(name, False) for name in {k.split("/")[0] for k in sig}}
        # on a right tree, a bug that does not show there fits (its leaves are the right
        # ones); one that would show is ruled out
        if not right:
            out.per_tree[i] = [n for n in BUGS if here.get(n)]
        everywhere = fits if everywhere is None else {
            n: everywhere.get(n, False) and fits.get(n, False) for n in everywhere}
    if wrong and everywhere:
        out.overall = [n for n in BUGS if everywhere.get(n)]
    return out
