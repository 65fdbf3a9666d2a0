"""The correct ways to write alpha-beta, as the lecture checks accept them.

Alpha-beta has two choices that change what a search *does* without changing the root's
value. The cut rule: cut on equality (v ≥ β at MAX, v ≤ α at MIN: all five sources) or only
strictly (v > β, v < α: some autograders). And what a node returns: fail-soft (the best v it
found, which may lie outside [α, β]), fail-hard (v clamped into [α, β]: the textbooks'), or
one-sided fail-hard (v started at the node's own bound and returned as it is: the example
sheet's form). Negamax and the MaxMin / MinMax pair are other ways to write any of these.

A check cannot see inside a reader's search, only the leaves it evaluates and the value it
returns at the root; so it accepts every convention whose leaves the reader's search
evaluates, on every tree. Cutting on equality, the three return conventions evaluate the
same leaves; cutting strictly, fail-soft evaluates fewer than the other two where values tie.
The search checks then tell the return conventions apart by what the reader's search returns
from a narrow window (``alphabeta_checks.RETURN_PROBES``), and name the one it is in.

The course's own convention is :data:`COURSE`: cut on equality, fail-soft.

>>> COURSE.words
'cut on equality (v ≥ β, v ≤ α), fail-soft'
>>> names_of([c for c in CONVENTIONS if not c.prune_on_equal and c.fail != "soft"])
'strict cuts (v > β, v < α), fail-hard or one-sided fail-hard'
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

__all__ = ["Convention", "CONVENTIONS", "COURSE", "names_of", "course_note"]

#: The words for each return convention, as the glossary defines them.
FAIL_WORDS = {"soft": "fail-soft", "hard": "fail-hard", "one-sided": "one-sided fail-hard"}
RULE_WORDS = {True: "cut on equality (v ≥ β, v ≤ α)", False: "strict cuts (v > β, v < α)"}


@dataclass(frozen=True)
class Convention:
    """One correct alpha-beta: its cut rule and what a node returns (the kit's
    ``alphabeta(..., prune_on_equal=..., fail=...)``)."""

    prune_on_equal: bool
    fail: str

    @property
    def words(self) -> str:
        """The convention in the glossary's words."""
        return f"{RULE_WORDS[self.prune_on_equal]}, {FAIL_WORDS[self.fail]}"

    @property
    def options(self) -> dict[str, object]:
        """The options that make the kit's alphabeta search this way."""
        return {"prune_on_equal": self.prune_on_equal, "fail": self.fail}


#: Every correct convention, the course's first.
CONVENTIONS = tuple(Convention(eq, fail) for eq in (True, False)
                    for fail in ("soft", "hard", "one-sided"))
#: The course's convention: cut on equality, fail-soft (lecture 3's pseudo-code).
COURSE = CONVENTIONS[0]


def names_of(conventions: Sequence[Convention]) -> str:
    """Words for a set of conventions, grouped by cut rule.

    >>> names_of(CONVENTIONS[:3])
    'cut on equality (v ≥ β, v ≤ α), fail-soft, fail-hard or one-sided fail-hard'
    """
    parts = []
    for rule in (True, False):
        fails = [FAIL_WORDS[c.fail] for c in conventions if c.prune_on_equal is rule]
        if fails:
            listed = ", ".join(fails[:-1]) + (" or " if len(fails) > 1 else "") + fails[-1]
            parts.append(f"{RULE_WORDS[rule]}, {listed}")
    return "; or ".join(parts)


def course_note(conventions: Sequence[Convention]) -> str:
    """What a right answer's verdict adds: nothing in the course's convention, else which
    convention it is and where the course's differs: its cut rule, what a node returns, or
    both.

    >>> course_note(CONVENTIONS[:3])
    ''
    >>> course_note(CONVENTIONS[3:4])[:48]
    'Right, with strict cuts (v > β, v < α), fail-sof'
    >>> "cuts on equality" in course_note(CONVENTIONS[1:3])
    False
    >>> "returns v as it found it" in course_note(CONVENTIONS[1:3])
    True
    """
    if COURSE in conventions:
        return ""
    notes = [f"Right, with {names_of(conventions)}: also correct."]
    if not any(c.prune_on_equal for c in conventions):
        notes.append(RULE_NOTE)
    if not any(c.fail == COURSE.fail for c in conventions):
        notes.append(RETURN_NOTE)
    if len(notes) == 1:
        notes.append(f"The course's own is {COURSE.words}.")
    return " ".join(notes)


#: Said when a right answer cuts only strictly.
RULE_NOTE = ("The course cuts on equality (v ≥ β, v ≤ α), as all five sources do, which "
             "evaluates fewer leaves where values tie (lecture 4); see the glossary's 'cut on "
             "equality'.")
#: Said when a right answer returns something other than fail-soft's v.
RETURN_NOTE = ("The course returns v as it found it (fail-soft); one-sided fail-hard is the "
               "example sheet's form, fail-hard clamps v into [α, β] as the textbooks do "
               "(lecture 3's optional part, 'what a node returns').")
