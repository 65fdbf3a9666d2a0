"""The matplotlib-free SVG drawing (the grader's pictures): valid XML, one shape per node,
the states, values and marks of draw_tree's vocabulary, and the same errors."""

from __future__ import annotations

import subprocess
import sys
import xml.etree.ElementTree as ET

import pytest

from minimaxkit import GameTree, alphabeta
from minimaxkit.draw.style import EDGE_STYLES, MARKS, NODE_STYLES
from minimaxkit.draw.svg import tree_svg_text
from minimaxkit.examples import tree_002

NS = "{http://www.w3.org/2000/svg}"
T = tree_002()
NAME = {n.name: n.path for n in T.nodes()}


def parse(svg: str) -> ET.Element:
    root = ET.fromstring(svg)
    assert root.tag == f"{NS}svg"
    return root


def with_class(root: ET.Element, first: str) -> list[ET.Element]:
    return [e for e in root.iter() if e.get("class", "").split()[:1] == [first]]


def path_of(e: ET.Element) -> tuple[int, ...]:
    return tuple(int(i) for i in e.get("data-path", "").split())


def names_where(root: ET.Element, status: str) -> list[str]:
    return sorted(T.node(path_of(e)).name for e in with_class(root, "node")
                  if e.get("class", "").split()[2] == status)


def texts(root: ET.Element) -> list[str]:
    return [e.text or "" for e in root.iter(f"{NS}text")]


def test_plain_tree_one_shape_per_node_with_values() -> None:
    root = parse(tree_svg_text(T))
    nodes = with_class(root, "node")
    assert len(nodes) == 40 and len({path_of(e) for e in nodes}) == 40
    kinds = [e.get("class", "").split()[1] for e in nodes]
    assert (kinds.count("max"), kinds.count("min"), kinds.count("leaf")) == (10, 3, 27)
    shape = {e.get("class", "").split()[1]: e.tag for e in nodes}
    assert shape == {"max": f"{NS}polygon", "min": f"{NS}polygon", "leaf": f"{NS}rect"}
    assert {e.get("class", "").split()[2] for e in nodes} == {"plain"}
    assert len(with_class(root, "edge")) == 39
    shown = texts(root)
    assert [str(n.value) for n in T.leaves()] == [t for t in shown if t.isdigit()]
    assert {n.name for n in T.nodes()} <= set(shown)


def test_max_points_up_and_min_points_down() -> None:
    root = parse(tree_svg_text(T))
    for e in with_class(root, "node"):
        kind = e.get("class", "").split()[1]
        if kind == "leaf":
            continue
        ys = [float(xy.split(",")[1]) for xy in e.get("points", "").split()]
        apex_on_top = ys[0] < ys[1] == ys[2]  # SVG's y grows downwards
        assert apex_on_top == (kind == "max")


def test_pruned_at_steps() -> None:
    r = alphabeta(T)
    at10 = parse(tree_svg_text(r, step=10))
    assert names_where(at10, "pruned") == ["R", "S"]
    end = parse(tree_svg_text(r))
    pruned = names_where(end, "pruned")
    assert pruned == sorted(["R", "S", "AB", "AD", "AE", "L", "M",
                             "AI", "AJ", "AK", "AL", "AM", "AN"])
    assert names_where(end, "visited") == sorted(T.node(p).name for p in r.trace.visited)
    style = NODE_STYLES["pruned"]
    for e in with_class(end, "node"):
        is_pruned = T.node(path_of(e)).name in pruned
        assert (e.get("fill") == style.face) == is_pruned
        assert (e.get("stroke-dasharray") is not None) == is_pruned  # dotted outline
    dashed = [e for e in with_class(end, "edge") if e.get("stroke-dasharray")]
    assert len(dashed) == len(pruned) == 13  # one edge into each pruned node, no other
    assert {e.get("stroke") for e in dashed} == {EDGE_STYLES["pruned"].color}
    assert {e.get("class") for e in dashed} == {"edge pruned"}


def test_backed_up_values_and_best_line_at_the_end() -> None:
    root = parse(tree_svg_text(alphabeta(T)))
    shown = texts(root)
    for value in ["5", "4", "≤3", "8", "≥9", "≥6", "3"]:
        assert value in shown
    pv = [e for e in with_class(root, "edge") if e.get("stroke") == EDGE_STYLES["pv"].color]
    assert len(pv) == 3  # A-C, C-H, H-Y
    assert not with_class(root, "current") and not with_class(root, "window")


def test_call_stack_current_node_and_windows_mid_search() -> None:
    root = parse(tree_svg_text(alphabeta(T), step=25))  # leaf Z under I, stack A, C, I
    assert names_where(root, "active") == ["A", "C", "I"]
    assert len(with_class(root, "current")) == 1
    windows = [[t.text for t in w.iter(f"{NS}text")] for w in with_class(root, "window")]
    assert windows == [["α 4", "β ∞"], ["α 4", "β 5"], ["α 4", "β 5"]]
    assert "≥4" in texts(root) and "≤5" in texts(root)


def test_marks_drawn_at_their_nodes_with_their_style() -> None:
    marks = {NAME["R"]: "extra", NAME["S"]: "extra", NAME["L"]: "missing",
             NAME["F"]: "diverge", NAME["Q"]: "wrong", NAME["N"]: "right"}
    root = parse(tree_svg_text(alphabeta(T), marks=marks, title="002: differences"))
    drawn = {path_of(e): e.get("class", "").split()[1] for e in with_class(root, "mark")}
    assert drawn == marks
    for e in with_class(root, "mark"):
        ms = MARKS[e.get("class", "").split()[1]]
        assert (e.get("fill"), e.get("stroke")) == (ms.face, ms.edge)
        assert (e.get("stroke-dasharray") is not None) == (ms.linestyle != "-")
    shown = texts(root)
    assert {MARKS[k].label for k in marks.values()} <= set(shown)
    assert "002: differences" in shown


def test_bad_marks_and_steps_raise_like_draw_tree() -> None:
    with pytest.raises(ValueError, match="unknown mark 'bogus' at path"):
        tree_svg_text(T, marks={(0,): "bogus"})
    with pytest.raises(ValueError, match=r"no node at path \(7,\)"):
        tree_svg_text(T, marks={(7,): "extra"})
    with pytest.raises(ValueError, match="step must be in 0..42"):
        tree_svg_text(alphabeta(T), step=99)


def test_text_is_escaped_and_big_trees_drop_labels() -> None:
    root = parse(tree_svg_text(GameTree.from_nested([1, 2]), title="a < b & c"))
    assert "a < b & c" in texts(root)
    big = parse(tree_svg_text(GameTree.random(depth=5, branching=3, seed=1)))
    assert len(with_class(big, "node")) == 364
    assert texts(big) == ["MAX", "MIN", "leaf"]  # the legend only: 243 leaves are too many
    assert float(big.get("width", "0")) <= 1440


def test_no_matplotlib_needed() -> None:
    code = ("import sys; from minimaxkit.draw.svg import tree_svg_text; "
            "from minimaxkit.grading.api.pictures import picture_svg; "
            "from minimaxkit.examples import tree_002; tree_svg_text(tree_002()); "
            "assert 'matplotlib' not in sys.modules and 'networkx' not in sys.modules")
    subprocess.run([sys.executable, "-c", code], check=True)


def test_minimax_is_drawn_without_windows_as_in_the_matplotlib_drawing() -> None:
    """Minimax's windows are all (−∞, ∞): the SVG leaves them out, and its legend says
    "call stack" without "(α, β)"; alpha-beta's are drawn."""
    from minimaxkit import alphabeta, minimax
    from minimaxkit.draw import tree_svg_text
    from minimaxkit.examples import tree_002

    mid = 20  # a step with a call stack
    plain = tree_svg_text(minimax(tree_002()), step=mid)
    assert 'class="window"' not in plain and "call stack (α, β)" not in plain
    assert "call stack" in plain
    ab = tree_svg_text(alphabeta(tree_002()), step=mid)
    assert 'class="window"' in ab and "call stack (α, β)" in ab
