"""The lectures' exercises: for each, its check, its worked answer (text and code) and its
minutes (the lecture time model, ``timing``).

The code of every answer is run by the tests against its check (tests/test_notebooks.py),
so an answer cannot go stale.
"""

from __future__ import annotations

from dataclasses import replace
from functools import partial

from . import alphabeta_checks, bound_checks, hand_trace, ordering_checks, search_checks
from .evaluation6 import EXERCISES_6
from .record import Exercise

__all__ = ["Exercise", "EXERCISES", "MINUTES"]

EXERCISES: dict[str, Exercise] = {
    "count": Exercise(search_checks.check_count, """\
A leaf counts as one node and one leaf; an interior node counts itself and adds up its
children. This is minimax without the max and the min.""", '''\
def count(game, state):
    if not game.moves(state):
        return 1, 1
    nodes, leaves = 1, 0
    for move in game.moves(state):
        n, k = count(game, game.play(state, move))
        nodes, leaves = nodes + n, leaves + k
    return nodes, leaves''', ("count",)),
    "positions": Exercise(search_checks.check_positions, """\
Remember the positions already seen and do not walk below them again. The same position
is reached by many move orders (X a1, O b2, X c3 and X c3, O b2, X a1), which is why the
tree is so much bigger than the set of positions; a transposition table exploits this.""",
                          '''\
def positions(game, state, seen=None):
    seen = set() if seen is None else seen
    if state not in seen:
        seen.add(state)
        for move in game.moves(state):
            positions(game, game.play(state, move), seen)
    return seen''', ("positions",)),
    "binary": Exercise(search_checks.check_binary, """\
A MAX root over two MIN nodes, each over two leaves. The last leaf is the "?" that
alpha-beta never evaluates: any number will do.""", "binary = [[2, 7], [1, 9]]", ("binary",)),
    "maxmin": Exercise(search_checks.check_maxmin, """\
The textbook-style handout's pair of procedures, in the kit's words: a leaf returns its
static value, x.static(); otherwise MaxMin takes the max over the children of MinMax, and
MinMax the min over the children of MaxMin. Each calls the other, because the players
alternate. The node's questions are methods, always called with parentheses: x.is_leaf()
(without them, `if x.is_leaf:` is always true).""", '''\
def max_min(x):
    if x.is_leaf():
        return x.static()
    return max(min_max(y) for y in x.children())

def min_max(x):
    if x.is_leaf():
        return x.static()
    return min(max_min(y) for y in x.children())''', ("max_min", "min_max")),
    "scored_move": Exercise(search_checks.check_scored_move, """\
The machine-player tutorial's best-move search: keep the best (value, move) so far, value
first as everywhere in the course; start the value just outside the range of values (-2
for MAX, 2 for MIN) so that some move is always chosen, and compare values, not moves.""", '''\
def best(game, state):
    if not game.moves(state):
        return game.evaluate(state), None
    mx = game.is_max(state)
    best_value, best_move = (-2 if mx else 2), None
    for move in game.moves(state):
        value, _ = best(game, game.play(state, move))
        if (value > best_value) if mx else (value < best_value):
            best_value, best_move = value, move
    return best_value, best_move''', ("best",)),
    "simple_pruning": Exercise(search_checks.check_simple_pruning, """\
Minimax, with one test added in the loop: once the best value so far is the best value
possible for the player to move (the top of game.value_range at MAX, the bottom at MIN),
no later move can beat it, so the loop stops. Nothing else changes: the value is minimax's.""",
                               '''\
def simple(game, state):
    if not game.moves(state):
        return game.evaluate(state)
    lowest, highest = game.value_range
    mx = game.is_max(state)
    best = -math.inf if mx else math.inf
    for move in game.moves(state):
        value = simple(game, game.play(state, move))
        best = max(best, value) if mx else min(best, value)
        if best == (highest if mx else lowest):
            break  # no move can do better than the best possible
    return best''', ("simple",)),
    "hand_trace": Exercise(hand_trace.check_hand_trace, """\
A enters with (-∞, ∞), and so do B and B's first child E, which returns max(4, 6) = 6: B's
β falls to 6. F enters with (-∞, 6); its first leaf, 7, is already ≥ β: a β-cut, F returns
7 and the edge to its second leaf, N, is pruned. B returns 6, and A's α rises to 6. C enters
with (6, ∞), and so does G, whose leaves 2 and -3 never reach α: G returns 2 (fail-soft), and
2 ≤ α is an α-cut at C: C returns 2 and the edge to H is pruned. D enters with (6, ∞); I
returns max(-2, 9) = 9 and D's β falls to 9; J enters with (6, 9), its leaves 3 and 1 stay
below α, and J returns 3, an α-cut at D's last child, with nothing left to prune. D returns
3, A returns 6. (One-sided fail-hard returns α = 6 at G, C, J and D instead; clamped
fail-hard also 6 at F, which it clamps to β = 6. The windows are the same.)""", '''\
answer = {
    #     α           β          returns
    "A": (-math.inf, math.inf, 6),
    "B": (-math.inf, math.inf, 6),
    "C": (6, math.inf, 2),
    "D": (6, math.inf, 3),
    "E": (-math.inf, math.inf, 6),
    "F": (-math.inf, 6, 7),
    "G": (6, math.inf, 2),
    "H": None,
    "I": (6, math.inf, 9),
    "J": (6, 9, 3),
}
pruned = {"H", "N"}''', ("answer", "pruned")),
    "bug_recitation": Exercise(alphabeta_checks.check_bug_recitation, """\
The minimizer's bound is β, the most the minimizer has to concede so far: a new, smaller
value must lower it, so β ← min(v, β). With max, β never falls below its starting value,
the maximizer's children never see a tight β, and β-cuts below MIN nodes are missed. The
value stays right (a wider window is never wrong) but the search does more work: the
kind of bug that survives in lecture notes.""", '''\
def ab_recitation(game, n, alpha, beta):
    if not game.moves(n):
        return game.evaluate(n)
    if game.is_max(n):
        v = -math.inf
        for m in game.moves(n):
            v = max(v, ab_recitation(game, game.play(n, m), alpha, beta))
            if v >= beta:
                return v
            alpha = max(v, alpha)
        return v
    v = math.inf
    for m in game.moves(n):
        v = min(v, ab_recitation(game, game.play(n, m), alpha, beta))
        if v <= alpha:
            return v
        beta = min(v, beta)
    return v''', ("ab_recitation",)),
    "bug_blog": Exercise(alphabeta_checks.check_bug_blog, """\
The recursive calls must call minimax_ab itself, passing α and β on; the blog's listing
calls minimax, a search of three arguments, with five (six in this rewrite, which passes
the game too), which (even if it ran) would search every subtree in full and prune nothing
below the root. The fix is one word in each of the two calls.""", '''\
def minimax_ab(game, n, depth, max_depth, alpha, beta):
    if not game.moves(n) or depth == max_depth:
        return game.evaluate(n)
    if game.is_max(n):
        value = -math.inf
        for m in game.moves(n):
            value = max(value, minimax_ab(game, game.play(n, m), depth + 1, max_depth,
                                          alpha, beta))
            if value >= beta:
                break
            alpha = max(alpha, value)
    else:
        value = math.inf
        for m in game.moves(n):
            value = min(value, minimax_ab(game, game.play(n, m), depth + 1, max_depth,
                                          alpha, beta))
            if alpha >= value:
                break
            beta = min(beta, value)
    return value''', ("minimax_ab",)),
    "bug_tutorial": Exercise(alphabeta_checks.check_bug_tutorial, """\
Line 11 stores the whole result, a (move, score) pair, where a score belongs: the human's
branch must read `best = (m, result.score)`, as the computer's branch does (the tutorial's
plain minimax has the same slip). And in the prose, β starts at 2, not -2: the search
starts with the window (-2, 2), just outside the scores -1 ... 1, so that some move is
always chosen.""",
                        "check('bug_tutorial', line=11, beta_start=2)"),
    "best_order": Exercise(partial(ordering_checks.check_order, want=5, what="best"), """\
Put the MIN node with the highest value first, so α is as high as it can be at once, and
inside every later MIN node put its lowest leaf first, so that it cuts after one leaf:
3 + 1 + 1 = 5 = 3^1 + 3^1 - 1 leaves, the Knuth-Moore bound.""",
                           "best = [[3, 12, 8], [2, 4, 6], [2, 14, 5]]", ("best",)),
    "worst_order": Exercise(partial(ordering_checks.check_order, want=9, what="worst"), """\
Never let a MIN node's leaf fall to α before its last leaf: inside each MIN node put its
lowest leaf last (the leaves from high to low, say). The first MIN node has no α to fall
to; a later one cuts at most at its lowest leaf, because every other leaf of this tree (4
or more) is above 3, the highest α can reach. So the MIN nodes may come in any order.""",
                            "worst = [[6, 4, 2], [14, 5, 2], [12, 8, 3]]", ("worst",)),
    "center_first": Exercise(ordering_checks.check_center_first, """\
MAX searches high keys first and MIN low keys first, so the key must say "good for MAX"
in MAX's terms: the centre gets the highest key at a MAX node and the lowest at a MIN node.""",
                             '''\
def center_first(game, state, move):
    closeness = -abs(move - 3)
    return closeness if game.is_max(state) else -closeness''', ("center_first",)),
    "km_4_5": Exercise(ordering_checks.check_km, """\
b^⌈d/2⌉ + b^⌊d/2⌋ - 1 with b = 4 and d = 5: 4^3 + 4^2 - 1 = 64 + 16 - 1 = 79, against
4^5 = 1024 leaves for minimax.""", "check('km_4_5', 79)"),
    "research_window": Exercise(bound_checks.check_research_window, """\
Inside the window, strictly, the value is exact. At or below the window's low end the
search failed low: the true value is at most the value returned, so it lies below the
window's top; search again from -∞ up to that top. At or above the high end it failed
high: search again from the window's bottom up to ∞. A tie with a bound is a failure too,
because the search cuts on equality. Only the side that failed needs opening: the other
still holds.""", '''\
def research_window(window, value):
    low, high = window
    if low < value < high:
        return None  # exact: no second search
    if value <= low:
        return (-math.inf, high)  # failed low: open the bottom
    return (low, math.inf)  # failed high: open the top''', ("research_window",)),
    "overhead": Exercise(ordering_checks.check_overhead, """\
Iteration k of minimax deepening evaluates b^k leaves, so all d iterations evaluate
b + b^2 + ... + b^d = b (b^d - 1) / (b - 1) against b^d for the last one alone: at most
b / (b - 1) times as much, 2 for b = 2 and barely more than 1 for large b.""", '''\
def overhead(b, d):
    return sum(b ** k for k in range(1, d + 1)) / b ** d''', ("overhead",)),
    "tt_bounds": Exercise(bound_checks.check_tt_bounds, """\
A fail-soft value strictly inside the window it was searched with is exact; at or below α
it is an upper bound (the node failed low: its true value is at most this), at or above β
a lower bound (it failed high: at least this). Reached again, an entry answers the node
when it decides the node's fate in the new window: an exact value always; a lower bound
that is at least β (the node fails high whatever its exact value); an upper bound at most
α (it fails low). Otherwise the true value might lie inside the window, and the node must
be searched (the entry's best move is still worth trying first).""", '''\
def flag_of(value, alpha, beta):
    if value <= alpha:
        return "upper"
    if value >= beta:
        return "lower"
    return "exact"


def reuse(flag, value, alpha, beta):
    if flag == "exact":
        return value
    if flag == "lower" and value >= beta:
        return value
    if flag == "upper" and value <= alpha:
        return value
    return None''', ("flag_of", "reuse")),
    "budget": Exercise(ordering_checks.check_budget, """\
The budget is cumulative: it counts the nodes of all iterations together, not of each one.
Add the iterations' node counts (reordered): the deepest iteration whose running total
stays within the budget is the last one completed; the next one is started, interrupted
when the total passes the budget, and dropped.""",
                       "budget_depth = 5  # with depth 6 the total would be 2,137, past 2,000",
                       ("budget_depth",)),
}

EXERCISES.update(EXERCISES_6)

#: What each check takes, in the reader's words (said when an answer cannot be read at all).
EXPECTS = {
    "binary": "the sheet's binary tree as a nested list of numbers, one inner list per MIN node",
    "count": "a function count(game, state) that returns the pair (nodes, leaves)",
    "positions": ("a function positions(game, state) that returns the set of positions "
                  "reachable from state, state itself included"),
    "maxmin": ("two functions, max_min(x) and min_max(x), each returning a node's value: "
               "check('maxmin', max_min, min_max)"),
    "scored_move": "a function best(game, state) that returns the pair (value, move)",
    "bug_recitation": "the fixed function ab_recitation(game, n, alpha, beta)",
    "bug_blog": "the fixed function minimax_ab(game, n, depth, max_depth, alpha, beta)",
    "bug_tutorial": "two numbers: check('bug_tutorial', line=..., beta_start=...)",
    "best_order": "AIMA's tree as three lists of three leaves, e.g. [[3, 12, 8], ...]",
    "worst_order": "AIMA's tree as three lists of three leaves, e.g. [[3, 12, 8], ...]",
    "center_first": "a function center_first(game, state, move) that returns a number",
    "km_4_5": "a number of leaves",
    "overhead": "a function overhead(b, d) that returns a number",
    "budget": "a depth (a whole number)",
    "open_lines": "a function open_lines(board, player) that returns a number",
    "threats": ("a function threats(board, player) that returns a set of cells "
                "(column, row)"),
    "simple_pruning": "a function simple(game, state) that returns the value",
    "hand_trace": ("the dict answer (name -> (α, β, returns), or None) and the set pruned: "
                   "check('hand_trace', answer, pruned)"),
    "research_window": ("a function research_window(window, value) that returns None or a "
                        "window (low, high)"),
    "tt_bounds": ("two functions, flag_of(value, alpha, beta) and reuse(flag, value, alpha, "
                  "beta): check('tt_bounds', flag_of, reuse)"),
}
#: Minutes each exercise takes a student who has read its section: write the answer, run
#: the check, fix one slip (the lecture time model; docs/lecture_time.md).
MINUTES: dict[str, float] = {
    "binary": 3, "count": 8, "positions": 8, "maxmin": 8, "scored_move": 10,
    "simple_pruning": 8, "hand_trace": 12, "bug_recitation": 8, "bug_blog": 6,
           "bug_tutorial": 5, "best_order": 5, "worst_order": 4, "km_4_5": 2,
           "center_first": 5, "research_window": 6, "overhead": 6, "budget": 3,
           "tt_bounds": 8, "open_lines": 6, "threats": 8}
EXERCISES.update({k: replace(ex, expects=EXPECTS[k], minutes=MINUTES[k])
                  for k, ex in EXERCISES.items()})
