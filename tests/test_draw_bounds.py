"""A value that is only a bound is drawn as one, cut off or not: a node that fails low
(returns at or below the α it was searched with) is "≤v", one that fails high "≥v"."""

from __future__ import annotations

import matplotlib

matplotlib.use("Agg")

import matplotlib.pyplot as plt  # noqa: E402

from minimaxkit import GameTree, alphabeta, minimax, negamax  # noqa: E402
from minimaxkit.draw import draw_tree, tree_svg_text  # noqa: E402
from minimaxkit.draw.model import value_text  # noqa: E402
from minimaxkit.examples import sheet_tree  # noqa: E402
from minimaxkit.replay import Replay  # noqa: E402

SHEET = sheet_tree()


def shown(result) -> dict[str, str]:
    rp = Replay(result)
    f = rp.frame(len(rp) - 1)
    return {SHEET.node(p).name: value_text(p, f) for p in f.values if SHEET.node(p).children}


def test_k_fails_low_and_is_drawn_as_a_bound_in_both_forms() -> None:
    hard, soft = shown(alphabeta(SHEET, fail="one-sided")), shown(alphabeta(SHEET))
    assert hard["K"] == "≤5" and soft["K"] == "≤3"  # K was not cut off: it failed low
    assert hard["D"] == "≤5" and soft["D"] == "≤3"  # D was cut off (an α-cut)
    assert hard["F"] == soft["F"] == "≥9"
    assert hard["A"] == soft["A"] == "5" and hard["C"] == "5" and hard["E"] == "8"
    assert shown(negamax(SHEET)) == soft


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
