"""Every correct way to write a search passes every lecture check that takes a search, and a
right answer outside the course's convention is told which convention it is in.

The programs are written here from templates, the way students write them: one function,
the MaxMin / MinMax pair, negamax, the example sheet's while-loop and the machine-player
tutorial's best-so-far form; cutting on equality or strictly; fail-soft, fail-hard (the
value clamped into [α, β]) and one-sided fail-hard (the value started at the node's own
bound). Lecture 3's checks must accept all of them (issue 37: the sheet's own loop with
``while α ≤ β`` and the clamped fail-hard with ``>``/``<`` were refused), lecture 2's the
forms that apply to minimax; the hand trace, every convention's trace.
"""

from __future__ import annotations

import itertools
import math
from typing import Any

import pytest

from minimaxkit import alphabeta
from minimaxkit.lecture import check
from minimaxkit.lecture.conventions import CONVENTIONS, COURSE, Convention
from minimaxkit.lecture.hand_trace import HandTrace, exercise_tree

# ----- alpha-beta written five ways ---------------------------------------------------------------
#: The body of one node's search at a MAX node, for the plain and pair forms: START is the
#: value's start, CUT the cut test, AT_CUT what a cut returns, AT_END what the loop's end does.
PLAIN = '''
def {name}(game, n, {depth_args}alpha, beta):
    if not game.moves(n){stop}:
        return game.evaluate(n)
    if game.is_max(n):
        v = {start_max}
        for m in game.moves(n):
            v = max(v, {name}(game, game.play(n, m), {next_depth}alpha, beta))
            if v {cut_max} beta:
                return {at_cut_max}
            alpha = max(alpha, v)
        return {end_max}
    v = {start_min}
    for m in game.moves(n):
        v = min(v, {name}(game, game.play(n, m), {next_depth}alpha, beta))
        if v {cut_min} alpha:
            return {at_cut_min}
        beta = min(beta, v)
    return {end_min}
'''

PAIR = '''
def {name}(game, n, {depth_args}alpha, beta):
    def max_min(n, {depth_args}alpha, beta):
        if not game.moves(n){stop}:
            return game.evaluate(n)
        v = {start_max}
        for m in game.moves(n):
            v = max(v, min_max(game.play(n, m), {next_depth}alpha, beta))
            if v {cut_max} beta:
                return {at_cut_max}
            alpha = max(alpha, v)
        return {end_max}

    def min_max(n, {depth_args}alpha, beta):
        if not game.moves(n){stop}:
            return game.evaluate(n)
        v = {start_min}
        for m in game.moves(n):
            v = min(v, max_min(game.play(n, m), {next_depth}alpha, beta))
            if v {cut_min} alpha:
                return {at_cut_min}
            beta = min(beta, v)
        return {end_min}

    if game.is_max(n):
        return max_min(n, {depth_args}alpha, beta)
    return min_max(n, {depth_args}alpha, beta)
'''

NEGAMAX = '''
def {name}(game, n, {depth_args}alpha, beta):
    def nega(n, {depth_args}alpha, beta, sign):
        if not game.moves(n){stop}:
            return sign * game.evaluate(n)
        v = {start_nega}
        for m in game.moves(n):
            v = max(v, -nega(game.play(n, m), {next_depth}-beta, -alpha, -sign))
            if v {cut_max} beta:
                return {at_cut_max}
            alpha = max(alpha, v)
        return {end_max}

    if game.is_max(n):
        return nega(n, {depth_args}alpha, beta, 1)
    return -nega(n, {depth_args}-beta, -alpha, -1)
'''

#: Negamax without a wrapper: every value, the root's too, from the side of the player to
#: move (review finding 4: refused by lecture 3's checks, accepted by lecture 2's).
NEGAMAX_MOVER = '''
def {name}(game, n, {depth_args}alpha, beta):
    if not game.moves(n){stop}:
        return game.evaluate(n) if game.is_max(n) else -game.evaluate(n)
    v = {start_nega}
    for m in game.moves(n):
        v = max(v, -{name}(game, game.play(n, m), {next_depth}-beta, -alpha))
        if v {cut_max} beta:
            return {at_cut_max}
        alpha = max(alpha, v)
    return {end_max}
'''

#: The example sheet's loop: α and β are the running values (one-sided fail-hard).
SHEET = '''
def {name}(game, n, {depth_args}alpha, beta):
    if not game.moves(n){stop}:
        return game.evaluate(n)
    moves = list(game.moves(n))
    if game.is_max(n):
        while alpha {loop} beta and moves:
            alpha = max(alpha, {name}(game, game.play(n, moves.pop(0)), {next_depth}alpha, beta))
        return alpha
    while alpha {loop} beta and moves:
        beta = min(beta, {name}(game, game.play(n, moves.pop(0)), {next_depth}alpha, beta))
    return beta
'''

#: The machine-player tutorial's form: the best so far starts at the node's own bound and the
#: bound follows it (one-sided fail-hard).
TUTORIAL = '''
def {name}(game, n, {depth_args}alpha, beta):
    if not game.moves(n){stop}:
        return game.evaluate(n)
    mx = game.is_max(n)
    best = alpha if mx else beta
    for m in game.moves(n):
        result = {name}(game, game.play(n, m), {next_depth}alpha, beta)
        if mx and result > best:
            best = alpha = result
        elif not mx and result < best:
            best = beta = result
        if alpha {tutorial_cut} beta:
            return best
    return best
'''

FORMS = {"one function": PLAIN, "MaxMin/MinMax pair": PAIR, "negamax": NEGAMAX,
         "negamax, the mover's values": NEGAMAX_MOVER}


def fill(template: str, name: str, convention: Convention, depth: bool) -> str:
    """The template written in ``convention`` (depth-limited with ``depth``)."""
    equal, fail = convention.prune_on_equal, convention.fail
    return template.format(
        name=name,
        depth_args="depth, max_depth, " if depth else "",
        next_depth="depth + 1, max_depth, " if depth else "",
        stop=" or depth == max_depth" if depth else "",
        start_max="alpha" if fail == "one-sided" else "-math.inf",
        start_min="beta" if fail == "one-sided" else "math.inf",
        start_nega="alpha" if fail == "one-sided" else "-math.inf",
        cut_max=">=" if equal else ">",
        cut_min="<=" if equal else "<",
        at_cut_max="beta" if fail == "hard" else "v",
        at_cut_min="alpha" if fail == "hard" else "v",
        end_max="max(v, alpha)" if fail == "hard" else "v",
        end_min="min(v, beta)" if fail == "hard" else "v",
        loop="<" if equal else "<=",
        tutorial_cut=">=" if equal else ">")


def define(source: str, name: str) -> Any:
    ns: dict[str, Any] = {"math": math}
    exec(source, ns)
    return ns[name]


SEARCHES = {"bug_recitation": ("ab_recitation", False), "bug_blog": ("minimax_ab", True)}
PROGRAMS = [(form, template, c) for (form, template), c in
            itertools.product(FORMS.items(), CONVENTIONS)]
PROGRAMS += [("the example sheet's while-loop", SHEET, c) for c in CONVENTIONS
             if c.fail == "one-sided"]
PROGRAMS += [("the tutorial's best-so-far", TUTORIAL, c) for c in CONVENTIONS
             if c.fail == "one-sided"]


def test_the_templates_are_the_kits_conventions() -> None:
    """Independent of the checks: each program evaluates the leaves the kit's alphabeta
    evaluates in its convention, and returns the root's value, on the example sheet's tree."""
    from minimaxkit.examples import sheet_tree
    from minimaxkit.lecture._reader import Counting

    tree = sheet_tree()
    for form, template, convention in PROGRAMS:
        f = define(fill(template, "ab", convention, False), "ab")
        counting = Counting(tree)
        value = f(counting, tree.root, -math.inf, math.inf)  # a MAX root: MAX's value
        kit = alphabeta(tree, **convention.options)  # type: ignore[arg-type]
        assert value == kit.value == 5, (form, convention)
        assert counting.evaluated == kit.trace.leaves, (form, convention)


@pytest.mark.parametrize("exercise", sorted(SEARCHES))
@pytest.mark.parametrize(("form", "template", "convention"), PROGRAMS,
                         ids=[f"{f}-{c.words}" for f, _, c in PROGRAMS])
def test_every_convention_passes_lecture_threes_checks(exercise: str, form: str,
                                                       template: str,
                                                       convention: Convention) -> None:
    name, depth = SEARCHES[exercise]
    verdict = check(exercise, define(fill(template, name, convention, depth), name))
    assert verdict.ok, (form, convention.words, verdict.message)
    assert ("Written as negamax" in verdict.message) is (template is NEGAMAX_MOVER), verdict
    assert "it looks like" not in verdict.message
    if convention == COURSE:
        assert "as the course does" in verdict.message
    else:  # the verdict names the convention, return convention too (review lecturer 2, 5)
        assert f"Right, with {convention.words}: also correct" in verdict.message, \
            verdict.message
    if not convention.prune_on_equal:
        assert "The course cuts on equality" in verdict.message, verdict.message


def test_strict_fail_soft_and_strict_fail_hard_are_told_apart() -> None:
    """With strict cuts the return conventions evaluate different leaves, and the verdict
    names the one the program is in."""
    soft = check("bug_recitation", define(fill(PLAIN, "ab_recitation", CONVENTIONS[3], False),
                                          "ab_recitation"))
    sheet = check("bug_recitation", define(fill(SHEET, "ab_recitation", CONVENTIONS[5], False),
                                           "ab_recitation"))
    assert "strict cuts (v > β, v < α), fail-soft" in soft.message
    assert "one-sided fail-hard" in sheet.message and "fail-soft" not in \
        sheet.message.split(":")[0]


# ----- lecture 2: minimax written three ways --------------------------------------------------
MAXMIN_ONE = '''
def value(x):
    if x.is_leaf():
        return x.static()
    values = [value(y) for y in x.children()]
    return max(values) if x.is_max() else min(values)
'''
MAXMIN_NEGAMAX = '''
def value(x):
    if x.is_leaf():
        return x.static() if x.is_max() else -x.static()
    return max(-value(y) for y in x.children())
'''


def test_lecture_two_accepts_one_function_and_negamax() -> None:
    one = define(MAXMIN_ONE, "value")
    verdict = check("maxmin", one, one)
    assert verdict.ok and "negamax" not in verdict.message, verdict
    nega = define(MAXMIN_NEGAMAX, "value")
    verdict = check("maxmin", nega, nega)
    assert verdict.ok and "Written as negamax" in verdict.message, verdict


SCORED_NEGAMAX = '''
def best(game, state):
    if not game.moves(state):
        return (game.evaluate(state) if game.is_max(state) else -game.evaluate(state)), None
    best_value, best_move = -2, None
    for move in game.moves(state):
        value = -best(game, game.play(state, move))[0]
        if value > best_value:
            best_value, best_move = value, move
    return best_value, best_move
'''
SIMPLE_PAIR = '''
def simple(game, state):
    low, high = game.value_range

    def max_min(s):
        if not game.moves(s):
            return game.evaluate(s)
        v = -math.inf
        for m in game.moves(s):
            v = max(v, min_max(game.play(s, m)))
            if v >= high:
                return v
        return v

    def min_max(s):
        if not game.moves(s):
            return game.evaluate(s)
        v = math.inf
        for m in game.moves(s):
            v = min(v, max_min(game.play(s, m)))
            if v <= low:
                return v
        return v

    return max_min(state) if game.is_max(state) else min_max(state)
'''

#: Simple pruning as negamax: the mover's values, stopping at the best the mover can get.
SIMPLE_NEGAMAX = '''
def simple(game, state):
    lowest, highest = game.value_range
    mx = game.is_max(state)
    if not game.moves(state):
        return game.evaluate(state) if mx else -game.evaluate(state)
    top = highest if mx else -lowest
    best = -math.inf
    for move in game.moves(state):
        best = max(best, -simple(game, game.play(state, move)))
        if best >= top:
            break
    return best
'''


def test_lecture_two_scored_move_and_simple_pruning_in_other_forms() -> None:
    verdict = check("scored_move", define(SCORED_NEGAMAX, "best"))
    assert verdict.ok and "Written as negamax" in verdict.message, verdict
    verdict = check("simple_pruning", define(SIMPLE_PAIR, "simple"))
    assert verdict.ok, verdict
    verdict = check("simple_pruning", define(SIMPLE_NEGAMAX, "simple"))
    assert verdict.ok and "Written as negamax" in verdict.message, verdict


# ----- the hand trace: every convention's own trace passes --------------------------------------
@pytest.mark.parametrize("convention", CONVENTIONS, ids=[c.words for c in CONVENTIONS])
def test_every_conventions_hand_trace_passes(convention: Convention) -> None:
    trace = HandTrace(exercise_tree())
    expected = next(e for e in trace.expected if e.convention == convention)
    answer = {name: expected.entries.get(name) for name in trace.interior}
    verdict = check("hand_trace", answer, set(expected.pruned))
    assert verdict.ok, (convention.words, verdict.message)
    course = next(e for e in trace.expected if e.convention == COURSE)
    same_as_course = (course.entries, course.pruned) == (expected.entries, expected.pruned)
    assert ("Right, with" in verdict.message) is not same_as_course, verdict.message
    if convention.prune_on_equal and not same_as_course:
        # the cut rule is the course's: the note is about what a node returns (finding 3)
        assert "The course cuts on equality" not in verdict.message, verdict.message
        assert "The course returns v as it found it (fail-soft)" in verdict.message
        assert "the example sheet's form" in verdict.message


def test_the_checks_trees_have_every_case_a_bug_needs() -> None:
    """Issue 37: every test tree had leaves >= 0. The search checks' trees have negative
    values, ties under one node, leaves at uneven depths and MIN roots, and the
    depth-limited ones stop above some leaves."""
    from minimaxkit.lecture.alphabeta_checks import search_cases

    cases = search_cases(depth_limited=True)
    trees = [c.tree for c in cases]
    assert any(leaf.value < 0 for t in trees for leaf in t.leaves())
    assert any(len({c.value for c in n.children}) < len(n.children)
               for t in trees for n in t.nodes() if n.children and not n.children[0].children)
    assert any(len({len(leaf.path) for leaf in t.leaves()}) > 1 for t in trees)
    assert {t.root.is_max for t in trees} == {True, False}
    assert any(c.limit is not None and any(len(leaf.path) < c.limit for leaf in c.tree.leaves())
               for c in cases)
