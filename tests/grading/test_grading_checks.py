"""Each kind of check on one tree, and a question's report: partial credit per tree."""

from __future__ import annotations

import json
import math
from pathlib import Path
from typing import Any

import pytest

from minimaxkit.examples import aima_5_2, tree_002
from minimaxkit.grading import CONVENTIONS, build_tree, grade, grade_report, reference, run_check

INF = math.inf
STATIC_002 = build_tree({"nested": tree_002().to_nested(), "static": {"noise": 2, "seed": 6}})


def minimax(node: Any) -> float:
    if node.is_leaf():
        return node.static()
    values = [minimax(c) for c in node.children()]
    return max(values) if node.is_max() else min(values)


def limited(node: Any, depth: int) -> float:
    if depth == 0 or node.is_leaf():
        return node.static()
    values = [limited(c, depth - 1) for c in node.children()]
    return max(values) if node.is_max() else min(values)


def best_move(node: Any, depth: int) -> tuple[float, Any]:
    pairs = [(limited(c, depth - 1), c) for c in node.children()]
    return max(pairs) if node.is_max() else min(pairs)


def alphabeta(node: Any, alpha: float, beta: float, order: Any = None) -> float:
    if node.is_leaf():
        return node.static()
    v = -INF if node.is_max() else INF
    for child in (order or (lambda n: n.children()))(node):
        w = alphabeta(child, alpha, beta, order)
        if node.is_max():
            v = max(v, w)
            if v >= beta:
                return v
            alpha = max(alpha, v)
        else:
            v = min(v, w)
            if v <= alpha:
                return v
            beta = min(beta, v)
    return v


def order_children(node: Any) -> list[Any]:
    return sorted(node.children(), key=lambda c: c.estimate(), reverse=node.is_max())


def check(kind: str, fn: Any, tree: Any, **options: Any) -> Any:
    return run_check(kind, fn, tree, reference(kind, tree, **options), options=options)


def test_minimax_full_marks_and_swapped_players() -> None:
    assert check("minimax", minimax, tree_002()).score == 1

    def flipped(node: Any) -> float:
        if node.is_leaf():
            return node.static()
        values = [flipped(c) for c in node.children()]
        return min(values) if node.is_max() else max(values)
    r = check("minimax", flipped, tree_002())
    assert r.score == 0.5 and "MIN and MAX swapped" in "\n".join(r.lines)


def test_minimax_that_prunes_loses_the_search_half() -> None:
    def first_only(node: Any) -> float:
        return node.static() if node.is_leaf() else first_only(node.children()[0])
    r = check("minimax", first_only, aima_5_2())
    assert r.score == 0.5 and "evaluated 1 leaf ✘" in r.summary
    assert "skipped but should have been evaluated: F=12" in "\n".join(r.lines)
    assert r.picture is not None and r.picture.marks[(0, 1)] == "missing"


def test_depth_limit_off_by_one_is_named() -> None:
    def too_deep(node: Any, depth: int) -> float:
        return limited(node, depth + 1)
    assert check("minimax_limited", limited, STATIC_002, depth=2).score == 1
    r = check("minimax_limited", too_deep, STATIC_002, depth=2)
    assert r.score < 1 and "depth off by one" in "\n".join(r.lines)


def test_best_move_accepts_any_of_equal_moves() -> None:
    ties = build_tree({"nested": [[3, 5], [4, 3], [3, 9]]})
    ref = reference("best_move", ties, depth=2)
    assert ref["moves"] == [0, 1, 2]

    def last_best(node: Any, depth: int) -> tuple[float, Any]:
        return 3, node.children()[2]
    # the value and the move are right; the search part is not (it read nothing): two of
    # three parts right is half the tree's point
    assert run_check("best_move", last_best, ties, ref, options={"depth": 2}).score == 0.5
    assert check("best_move", best_move, ties, depth=2).score == 1


def test_best_move_must_return_the_child_itself() -> None:
    def index(node: Any, depth: int) -> tuple[float, int]:
        return limited(node, depth), 0
    r = check("best_move", index, aima_5_2(), depth=2)
    assert "move: the number 0, not a child node" in r.summary


def test_alphabeta_and_its_convention() -> None:
    r = check("alphabeta", alphabeta, tree_002())
    assert r.score == 1 and r.summary == "value 5 ✔, 16 leaves ✔"


def test_order_scores_the_share_of_nodes_ordered_right() -> None:
    assert check("order", order_children, STATIC_002).score == 1
    # the tree's order is right at 5 of 13 interior nodes: less than half, no point
    r = check("order", lambda node: node.children(), STATIC_002)
    assert r.score == 0 and "5 of 13" in r.summary and "expected" in r.lines[0]

    def first_fixed(node: Any) -> Any:  # right everywhere but at the root: 12 of 13
        kids = order_children(node)
        return kids[::-1] if node.depth == 0 else kids
    r = check("order", first_fixed, STATIC_002)
    assert r.score == 0.5 and "12 of 13" in r.summary


def test_ordered_search_without_ordering_is_named() -> None:
    assert check("ordered_alphabeta", lambda n, a, b: alphabeta(n, a, b, order_children),
                 STATIC_002).score == 1
    r = check("ordered_alphabeta", alphabeta, STATIC_002)
    assert r.score == 0.5 and "no move ordering" in "\n".join(r.lines)


def deepen(node: Any, max_depth: int, reorder: bool = True) -> Any:
    """Lecture 5's deepening: with reorder, every node's children in static order (by
    estimate), the best child of an earlier iteration first; best = the child that raised
    α (lowered β) or cut; one dict for all iterations."""
    best: dict[Any, Any] = {}

    def ordered(n: Any) -> list[Any]:
        if not reorder:
            return list(n.children())
        kids = order_children(n)
        if n in best:
            kids.remove(best[n])
            kids.insert(0, best[n])
        return kids

    def search(n: Any, depth: int, alpha: float, beta: float) -> float:
        if n.depth == depth or n.is_leaf():
            return float(n.static())
        v = -INF if n.is_max() else INF
        for c in ordered(n):
            w = search(c, depth, alpha, beta)
            if n.is_max():
                v = max(v, w)
                if v > alpha:
                    best[n] = c
                    alpha = v
            else:
                v = min(v, w)
                if v < beta:
                    best[n] = c
                    beta = v
            if alpha >= beta:
                break
        return v

    for depth in range(1, max_depth + 1):
        yield search(node, depth, -INF, INF), best[node]


def test_deepening_is_graded_per_iteration() -> None:
    r = check("deepen", deepen, STATIC_002, max_depth=3, reorder=True)
    assert r.score == 1 and "✔✔✔" in r.summary

    def no_reorder(node: Any, max_depth: int, reorder: bool = True) -> Any:
        return deepen(node, max_depth, reorder=False)
    r = check("deepen", no_reorder, STATIC_002, max_depth=3, reorder=True)
    # values and moves right at all 3 depths, leaves at none (depth 1 too searches in static
    # order): 3 of 6 parts, half a point
    assert r.score == 0.5 and "no reordering" in "\n".join(r.lines)
    assert "value and move 3/3, leaves 0/3" in r.summary
    assert check("deepen", no_reorder, STATIC_002, max_depth=3, reorder=False).score == 1


def test_deepening_returning_a_list_is_graded_on_all_leaves_together() -> None:
    def as_list(node: Any, max_depth: int, reorder: bool = True) -> Any:
        return list(deepen(node, max_depth, reorder))
    assert check("deepen", as_list, STATIC_002, max_depth=3, reorder=True).score == 1



def best_everywhere(node: Any, max_depth: int, reorder: bool = True) -> Any:
    """Lecture 5's deepening with its rule broken: a best child at every node, the child
    with the best value, even where none raised α (lowered β) and the value is a bound."""
    best: dict[Any, Any] = {}

    def ordered(n: Any) -> list[Any]:
        kids = order_children(n) if reorder else list(n.children())
        if reorder and n in best:
            kids.remove(best[n])
            kids.insert(0, best[n])
        return kids

    def search(n: Any, depth: int, alpha: float, beta: float) -> float:
        if n.depth == depth or n.is_leaf():
            return float(n.static())
        v, top = (-INF if n.is_max() else INF), None
        for c in ordered(n):
            w = search(c, depth, alpha, beta)
            if (w > v) if n.is_max() else (w < v):
                v, top = w, c
            alpha, beta = (max(alpha, v), beta) if n.is_max() else (alpha, min(beta, v))
            if alpha >= beta:
                break
        best[n] = top
        return v

    for depth in range(1, max_depth + 1):
        yield search(node, depth, -INF, INF), best[node]


def test_a4s_fixed_trees_grade_the_no_best_child_rule() -> None:
    """On trees of depth 4 or less the rule hardly ever changes a leaf; the hidden 5-ply tree
    (review of issue 27) is one where it does, and the right deepening passes it."""
    solutions = Path(__file__).resolve().parents[2] / "solutions" / "a4_deepening"
    fixed = [t for name in ("tests.json", "hidden_tests.json")
             for t in json.loads((solutions / name).read_text())["questions"]["deepen"]["trees"]]
    wrong = {t["name"]: check("deepen", best_everywhere, build_tree(t["tree"]), **t["options"])
             for t in fixed}
    assert min(r.score for r in wrong.values()) < 1, {k: r.summary for k, r in wrong.items()}
    assert all(check("deepen", deepen, build_tree(t["tree"]), **t["options"]).score == 1
               for t in fixed)


# ----- a question's report --------------------------------------------------------------
@pytest.fixture
def course(tmp_path: Path) -> Path:
    """A one-question assignment with a visible and a hidden fixed tree and a seeded one."""
    aima = {"nested": aima_5_2().to_nested()}
    ties = {"nested": [[3, 3], [3, 1]]}
    visible = {"assignment": "demo", "questions": {"ab": {"check": "alphabeta", "trees": [
        {"name": "aima", "tree": aima, "reference": reference("alphabeta", build_tree(aima))}]}}}
    hidden = {"assignment": "demo", "salt": "s", "questions": {"ab": {
        "check": "alphabeta",
        "trees": [{"name": "ties", "tree": ties,
                   "reference": reference("alphabeta", build_tree(ties))}],
        "seeded": [{"name": "yours", "tree": {"random": {"depth": 3, "branching": 2}}}]}}}
    (tmp_path / "tests.json").write_text(json.dumps(visible))
    (tmp_path / "hidden_tests.json").write_text(json.dumps(hidden))
    return tmp_path


def test_each_tree_scores_on_its_own(course: Path) -> None:
    def every_leaf(node: Any, alpha: float, beta: float) -> float:
        return minimax(node)
    report = grade_report(every_leaf, "ab", points=6, hidden=True, here=course)
    assert [t.name for t in report.trees] == ["aima", "ties", "yours"]
    shares = [t.result.score for t in report.trees]
    assert report.earned == round(6 * sum(shares) / 3, 2) and 0 < report.earned < 6
    visible = grade_report(alphabeta, "ab", points=6, here=course)
    assert [t.name for t in visible.trees] == ["aima"] and visible.earned == 6



def test_one_more_point_is_singular(course: Path) -> None:
    # 1.5 points over 3 trees: the visible one is worth 0.5, the hidden two 1 more
    suite = json.loads((course / "tests.json").read_text())
    suite["questions"]["ab"]["hidden_trees"] = 2
    (course / "tests.json").write_text(json.dumps(suite))
    text = grade_report(alphabeta, "ab", points=1.5, here=course).text()
    assert "(the hidden trees are added when your work is graded: 1 more point, 1.5 in all)" \
        in " ".join(text.split()), text
    assert "2 more points, 3 in all" in grade_report(alphabeta, "ab", points=3, here=course).text()

def test_seeded_trees_differ_per_student(course: Path, monkeypatch: Any) -> None:
    def tree_of(who: str) -> Any:
        monkeypatch.setenv("MINIMAXKIT_STUDENT_ID", who)
        report = grade_report(alphabeta, "ab", points=1, hidden=True, here=course)
        return report.trees[-1].result.summary
    assert tree_of("ada") == tree_of("ada")
    assert len({tree_of(w) for w in ("ada", "alan", "grace", "edsger")}) > 1


def test_a_missing_function_costs_the_points_with_a_message(course: Path) -> None:
    report = grade_report("alphabeta", "ab", points=2, here=course, names={})
    assert report.earned == 0 and "no function named 'alphabeta'" in report.text()


def test_missing_test_data_is_reported_not_raised(tmp_path: Path) -> None:
    report = grade_report(alphabeta, "ab", points=2, here=tmp_path)
    assert report.earned == 0 and "not found" in report.problem
    assert report.text().startswith("ab: 0 of 2 points on the visible trees\n")


def test_grade_prints_and_returns_points_without_touching_stderr(course: Path,
                                                                   capsys: Any) -> None:
    assert grade(alphabeta, "ab", points=3, here=course) == 3
    out, err = capsys.readouterr()
    assert "ab: 3 of 3 points" in out and "✔ aima" in out and err == ""


def test_a_question_can_fix_the_convention(tmp_path: Path) -> None:
    spec = {"nested": tree_002().to_nested()}
    data = {"assignment": "demo", "questions": {"ab": {
        "check": "alphabeta", "conventions": ["equal-soft"],
        "trees": [{"name": "002", "tree": spec,
                   "reference": reference("alphabeta", build_tree(spec))}]}}}
    (tmp_path / "tests.json").write_text(json.dumps(data))

    def strict_hard(node: Any, alpha: float, beta: float) -> float:  # 002's loop, strict
        if node.is_leaf():
            return node.static()
        for child in node.children():
            w = strict_hard(child, alpha, beta)
            if node.is_max():
                alpha = max(alpha, w)
            else:
                beta = min(beta, w)
            if alpha > beta:
                break
        return alpha if node.is_max() else beta
    assert grade_report(strict_hard, "ab", points=2, here=tmp_path).earned == 1
    free = grade_report(strict_hard, "ab", points=2, here=tmp_path,
                        conventions=tuple(CONVENTIONS))
    assert free.earned == 2 and "strict cuts (v > β, v < α), fail-hard" in free.text()
