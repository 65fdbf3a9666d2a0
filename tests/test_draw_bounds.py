"""The one rule for drawing a value exact or as a bound (docs/views.md, the legend): a node
whose every child was searched, its best child exact, is exact, whatever window it had
(fail-soft's K returns 3 below its α = 5: exactly 3); a cut leaves a bound, "≥v" at MAX
and "≤v" at MIN, and so does a value no child reached (the example sheet's K returns its
α = 5: at most 5)."""

from __future__ import annotations

import matplotlib

matplotlib.use("Agg")

import matplotlib.pyplot as plt  # noqa: E402

from minimaxkit import GameTree, alphabeta, minimax, negamax  # noqa: E402
from minimaxkit.draw import draw_tree, tree_svg_text  # noqa: E402
from minimaxkit.draw.model import value_text  # noqa: E402
from minimaxkit.examples import aima_5_2, sheet_tree  # noqa: E402
from minimaxkit.replay import Replay, fmt  # noqa: E402
from minimaxkit.widgets import QuizWidget  # noqa: E402

SHEET = sheet_tree()


def shown(result) -> dict[str, str]:
    rp = Replay(result)
    f = rp.frame(len(rp) - 1)
    tree = result.game
    return {tree.node(p).name: value_text(p, f) for p in f.values if tree.node(p).children}


def fail_modes() -> list[str]:
    """The return conventions this kit's alphabeta accepts (``"one-sided"`` is the example
    sheet's form once the core names it so; ``"hard"`` is then clamped to [α, β])."""
    modes = []
    for fail in ("soft", "hard", "one-sided"):
        try:
            alphabeta(GameTree.from_nested([1, 2]), fail=fail)
        except Exception:
            continue
        modes.append(fail)
    return modes


def test_k_searched_whole_is_exact_in_fail_soft() -> None:
    """Lecture 3 says "fail-soft's 3 is K's exact value": K searched all three leaves. The
    sheet's loop returns K's α = 5, which no leaf reached: at most 5 (the lecture: "says
    at most 5")."""
    hard, soft = shown(alphabeta(SHEET, fail="one-sided")), shown(alphabeta(SHEET))
    assert soft["K"] == "3" and hard["K"] == "≤5"
    assert hard["D"] == "≤5" and soft["D"] == "≤3"  # D was cut off (an α-cut)
    assert hard["F"] == soft["F"] == "≥9"
    assert hard["A"] == soft["A"] == "5" and hard["C"] == "5" and hard["E"] == "8"
    assert shown(negamax(SHEET)) == soft


def test_aima_d_evaluated_whole_is_exact() -> None:
    """AIMA's figure 5.2: D's leaves 14, 5, 2 are all evaluated; D returns 2 at or below
    its α = 3 (it fails low) but is exactly 2. C was cut after its first leaf: at most 2.
    Clamped fail-hard returns α = 3 from both (min(2, ...) clamped into [3, ∞]): each is
    drawn "≤3", the most that value says."""
    expected = {"soft": {"A": "3", "B": "3", "C": "≤2", "D": "2"},
                "one-sided": {"A": "3", "B": "3", "C": "≤2", "D": "2"},
                "hard": {"A": "3", "B": "3", "C": "≤3", "D": "≤3"}}
    for fail, drawn in expected.items():
        values = {k: v for k, v in shown(alphabeta(aima_5_2(), fail=fail)).items()}
        assert values == drawn, fail


def test_the_quizs_e_and_f_are_both_exactly_8() -> None:
    """Lecture 3's quiz (seed 3): E (3, 7, 8) and F (8, 7) are searched whole: exactly 8
    each (they were drawn "≥8" and "≤8"); C is cut after F (8 ≤ α = 8): at most 8."""
    quiz = QuizWidget(seed=3)
    rp = Replay(quiz.result)
    f = rp.frame(len(rp) - 1)
    values = {rp.name(p): value_text(p, f) for p in f.values if quiz.tree.node(p).children}
    assert values == {"A": "8", "B": "8", "C": "≤8", "D": "8", "E": "8", "F": "8"}


def test_a_node_searched_whole_is_exact_and_every_label_holds() -> None:
    """On 40 random trees, in every return convention: a node with no cut-off anywhere
    below it is drawn exact, and every label drawn holds of the true minimax value."""
    for seed in range(40):
        tree = GameTree.random(depth=4, branching=3, seed=seed)
        for fail in fail_modes():
            r = alphabeta(tree, fail=fail)
            rp = Replay(r)
            f = rp.frame(len(rp) - 1)
            cut = {c.path for c in r.trace.cutoffs if c.pruned}
            for p in f.values:
                if not tree.node(p).children:
                    continue
                text, true, v = value_text(p, f), minimax(tree, tree.node(p)).value, \
                    f.values[p]
                whole = not any(q[:len(p)] == p for q in cut)
                if whole and fail == "soft":  # (fail-hard, clamped or one-sided, may return
                    # the bound the node started from: a MIN node whose children all
                    # exceed β = 3 returns 3, drawn "≥3")
                    assert text == fmt(v) and v == true, (seed, fail, p, text)
                if text.startswith("≤"):
                    assert true <= v, (seed, fail, p)
                elif text.startswith("≥"):
                    assert true >= v, (seed, fail, p)
                else:
                    assert true == v, (seed, fail, p)


def test_minimax_values_are_exact() -> None:
    assert all(v[0] not in "≤≥" for v in shown(minimax(SHEET)).values())


def test_every_bound_drawn_holds_the_true_value() -> None:
    for seed in range(40):
        tree = GameTree.random(depth=4, branching=3, seed=seed)
        for fail in ("soft", "hard"):
            r = alphabeta(tree, fail=fail)
            rp = Replay(r)
            f = rp.frame(len(rp) - 1)
            for p in f.values:
                if not tree.node(p).children:
                    continue
                text, true = value_text(p, f), minimax(tree, tree.node(p)).value
                v = f.values[p]
                if text.startswith("≤"):
                    assert true <= v, (seed, fail, p)
                elif text.startswith("≥"):
                    assert true >= v, (seed, fail, p)
                else:
                    assert true == v, (seed, fail, p)


def test_the_pictures_show_the_bound() -> None:
    art = draw_tree(alphabeta(SHEET, fail="one-sided"))
    k = next(p for p in art["values"] if SHEET.node(p).name == "K")
    assert art["values"][k].get_text() == "≤5"
    plt.close("all")
    assert ">≤5<" in tree_svg_text(alphabeta(SHEET, fail="one-sided"))
