"""What the drawings show: nodes, shapes, pruned subtrees, values, windows, marks, labels;
the replay's explanations against 002's hand trace; files and display hooks."""

from __future__ import annotations

import doctest
import importlib
import io
import re
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import matplotlib

matplotlib.use("Agg")

import matplotlib.colors as mcolors  # noqa: E402
import matplotlib.pyplot as plt  # noqa: E402
import numpy as np  # noqa: E402
import pytest  # noqa: E402

from minimaxkit import GameTree, alphabeta, minimax  # noqa: E402
from minimaxkit.draw import (  # noqa: E402
    MARKS,
    NODE_STYLES,
    FrameRenderer,
    draw_board,
    draw_tree,
    result_png,
    save_tree,
    tree_figure,
    tree_png,
    tree_svg,
)
from minimaxkit.draw.style import EDGE_STYLES  # noqa: E402
from minimaxkit.examples import tree_002  # noqa: E402
from minimaxkit.games import ConnectFour, Nim, TicTacToe  # noqa: E402
from minimaxkit.replay import Replay, first_divergence, node_namer, replay  # noqa: E402

ARTIFACTS = Path(__file__).parent / "artifacts"
PNG = b"\x89PNG\r\n\x1a\n"
T = tree_002()
NAME = {n.name: n.path for n in T.nodes()}


@pytest.fixture(autouse=True)
def _close_figures() -> None:
    yield
    plt.close("all")


def names(paths: object) -> list[str]:
    return sorted(T.node(p).name for p in paths)  # type: ignore[attr-defined]


def n_drawn(coll: object) -> int:
    return len(coll.get_offsets())  # type: ignore[attr-defined]


# ----- the plain tree ------------------------------------------------------------------------
def test_plain_tree_shapes_and_labels() -> None:
    art = draw_tree(T)
    nodes = art["nodes"]
    assert (n_drawn(nodes["max"]), n_drawn(nodes["min"]), n_drawn(nodes["leaf"])) == (10, 3, 27)
    assert nodes["max"].get_paths()[0] is not nodes["min"].get_paths()[0]
    assert len(art["edges"].get_segments()) == 39
    assert {p: t.get_text() for p, t in art["names"].items()} == {
        n.path: n.name for n in T.nodes()}
    assert [art["values"][n.path].get_text() for n in T.leaves()] == [
        str(n.value) for n in T.leaves()]
    assert set(art["status"].values()) == {"plain"}
    assert art["graph"].number_of_nodes() == 40 and art["graph"].number_of_edges() == 39
    assert art["frame"] is None and art["windows"] == []


def test_layout_is_tidy_top_down() -> None:
    pos = draw_tree(T)["graph"].nodes
    leaves = [pos[n.path]["pos"] for n in T.leaves()]
    assert [x for x, _ in leaves] == list(range(27)) and {y for _, y in leaves} == {-3}
    for n in T.nodes():
        if n.children:
            xs = [pos[c.path]["pos"][0] for c in n.children]
            assert pos[n.path]["pos"] == ((xs[0] + xs[-1]) / 2, -len(n.path))


# ----- a search at a step ----------------------------------------------------------------------
def test_pruned_nodes_at_steps() -> None:
    r = alphabeta(T)
    at10 = draw_tree(r, step=10)
    assert names(p for p, s in at10["status"].items() if s == "pruned") == ["R", "S"]
    end = draw_tree(r)
    pruned = [p for p, s in end["status"].items() if s == "pruned"]
    assert names(pruned) == sorted(["R", "S", "AB", "AD", "AE", "L", "M",
                                    "AI", "AJ", "AK", "AL", "AM", "AN"])
    # every pruned subtree's edges are dashed and grey; no other edge is dashed
    view = end["view"]
    dashed = {p for p, ls in zip(view.edge_children, end["edges"].get_linestyle(), strict=True)
              if ls[1] is not None}
    assert dashed == set(pruned)
    assert names(p for p, s in end["status"].items() if s == "visited") == names(
        r.trace.visited)


def test_visited_active_current_and_windows_mid_search() -> None:
    art = draw_tree(alphabeta(T), step=25)  # leaf Z = 3 under I, on the stack A, C, I
    status = art["status"]
    assert names(p for p, s in status.items() if s == "active") == ["A", "C", "I"]
    assert status[NAME["Z"]] == "visited" and status[NAME["AA"]] == "unvisited"
    assert tuple(art["current"].get_offsets()[0]) == art["graph"].nodes[NAME["Z"]]["pos"]
    assert [t.get_text() for t in art["windows"]] == ["α 4\nβ ∞", "α 4\nβ 5", "α 4\nβ 5"]
    values = {T.node(p).name: t.get_text() for p, t in art["values"].items()
              if T.node(p).children}
    assert values["B"] == "4" and values["F"] == "≥9" and values["C"] == "≤5"
    assert values["I"] == "≥3" and values["A"] == "≥4" and values["D"] == ""


def test_backed_up_values_and_principal_variation_at_the_end() -> None:
    r = alphabeta(T)
    art = draw_tree(r)
    values = {T.node(p).name: t.get_text() for p, t in art["values"].items()
              if T.node(p).children}
    assert values == {"A": "5", "B": "4", "C": "5", "D": "≤3", "E": "8", "F": "≥9",
                      "G": "4", "H": "5", "I": "≥9", "J": "≥6", "K": "3", "L": "", "M": ""}
    # K failed low (3 ≤ its α = 5) but searched all its leaves: exactly 3 (the one rule)
    view = art["view"]
    blue = mcolors.to_rgba(EDGE_STYLES["pv"].color)
    pv_edges = [p for p, c in zip(view.edge_children, art["edges"].get_color(), strict=True)
                if tuple(c) == blue]
    assert pv_edges == [(1,), (1, 0), (1, 0, 2)]  # A-C, C-H, H-Y: r.pv
    assert tuple(p[-1] for p in pv_edges) == tuple(
        T.node(p[:-1]).moves.index(m) for p, m in zip(pv_edges, r.pv, strict=True))
    assert len(art["current"].get_offsets()) == 0  # nothing is "current" once done


def test_marks_are_drawn_and_checked() -> None:
    marks = {NAME["R"]: "extra", NAME["L"]: "missing", NAME["C"]: "diverge"}
    art = draw_tree(alphabeta(T), marks=marks)
    assert {k: n_drawn(c) for k, c in art["marks"].items()} == {
        "extra": 1, "missing": 1, "diverge": 1, "wrong": 0, "right": 0, "unselected": 0,
        "overselected": 0}
    labels = [t.get_text() for t in art["legend"].get_texts()]
    assert {MARKS[k].label for k in marks.values()} <= set(labels)
    with pytest.raises(ValueError, match="unknown mark 'bogus' at path"):
        draw_tree(T, marks={(0,): "bogus"})
    with pytest.raises(ValueError, match=r"no node at path \(7,\)"):
        draw_tree(T, marks={(7,): "extra"})


def test_states_read_in_greyscale() -> None:
    """Every two node states differ in lightness, outline width or line style."""
    def grey(c: str) -> float:
        r, g, b, _ = mcolors.to_rgba(c)
        return 0.299 * r + 0.587 * g + 0.114 * b

    states = ["unvisited", "visited", "active", "pruned"]
    for i, a in enumerate(states):
        for b in states[i + 1:]:
            sa, sb = NODE_STYLES[a], NODE_STYLES[b]
            assert (abs(grey(sa.face) - grey(sb.face)) > 0.08 or sa.linestyle != sb.linestyle
                    or abs(sa.linewidth - sb.linewidth) >= 0.8), (a, b)
    kinds = list(MARKS.values())
    assert len({(m.marker, m.linestyle) for m in kinds}) == len(kinds)


# ----- labels and size -------------------------------------------------------------------------
def _overlap(boxes: list[tuple[float, float, float, float]]) -> bool:
    boxes.sort()
    return any(b[0] < a[2] - 0.5 for a, b in zip(boxes, boxes[1:], strict=False))


def test_labels_legible_up_to_100_leaves_and_dropped_beyond() -> None:
    big = GameTree.random(depth=2, branching=10, seed=5)  # 100 leaves
    fig, art = tree_figure(big)
    fig.canvas.draw()
    r = fig.canvas.get_renderer()
    texts = [art["values"][n.path] for n in big.leaves()]
    assert min(t.get_fontsize() for t in texts) >= 4.5
    boxes = [tuple(t.get_window_extent(r).extents) for t in texts]
    assert not _overlap(boxes)  # type: ignore[arg-type]
    assert all(p not in art["names"] for p in (n.path for n in big.leaves()))
    huge = GameTree.random(depth=6, branching=3, seed=1)  # 729 leaves
    fig, art = tree_figure(huge, alphabeta(huge).trace)
    assert art["values"] == {} and art["names"] == {}
    assert n_drawn(art["nodes"]["leaf"]) == 729
    assert tree_png(huge)[:8] == PNG


def test_drawings_refuse_trees_past_the_size_limit_at_once() -> None:
    """A tree of 88,573 nodes (3^10 leaves) is refused by every drawing before anything is
    laid out, with the count and the limit in the message; its display hooks fall back to
    the text repr, which is a one-line summary."""
    from minimaxkit.draw import MAX_DRAWN, TooLargeToDraw, tree_svg_text
    from minimaxkit.draw.render import result_bundle, tree_bundle

    big = GameTree.random(depth=10, branching=3, seed=1)
    assert len(big) == (3 ** 11 - 1) // 2 > MAX_DRAWN
    result = alphabeta(big)
    for draw, source in ((draw_tree, big), (tree_png, big), (tree_svg, big),
                         (tree_svg_text, big), (tree_figure, big), (result_png, result)):
        with pytest.raises(TooLargeToDraw, match=r"88,573 nodes, more than the 20,000"):
            draw(source)
    with pytest.raises(TooLargeToDraw, match=r"this search reached|this tree has"):
        draw_tree(result)
    data, meta = tree_bundle(big)
    assert set(data) == {"text/plain"} and "not drawn: " in data["text/plain"]
    assert data["text/plain"].startswith("<GameTree: 88,573 nodes, 59,049 leaves, 10 levels")
    assert big._repr_png_() is None
    assert set(result_bundle(result)[0]) == {"text/plain"}
    # a game search's reached part is counted from its trace, without laying it out
    ttt = alphabeta(TicTacToe())
    with pytest.raises(TooLargeToDraw, match="this search reached"):
        draw_tree(ttt.trace, game=TicTacToe())


def test_repr_of_a_5000_level_chain_is_a_summary() -> None:
    chain: Any = 1
    for _ in range(5_000):
        chain = [chain]
    tree = GameTree.from_nested(chain)
    assert repr(tree) == ("<GameTree: 5,001 nodes, 1 leaf, 5,000 levels deep, root A (MAX); "
                          "to_dict() or to_json() has it all>")
    small = GameTree.from_nested([[3, 1], [2]])
    assert eval(repr(small), {"GameTree": GameTree}) == small  # small trees round-trip


# ----- the fast renderer is the same picture ------------------------------------------------------
def test_frame_renderer_matches_a_full_redraw() -> None:
    r = alphabeta(T)
    fr = FrameRenderer(r, dpi=80, title="t")
    for step in (0, 10, 31, 42):
        fig, art = tree_figure(r, step=step, dpi=80, title="t")
        fig.canvas.draw()
        full = np.asarray(fig.canvas.buffer_rgba())[..., :3].astype(int)
        fast = fr.rgb(step).astype(int)
        assert fast.shape == full.shape
        # the tree above the legend (the fast renderer's legend lists what any step shows,
        # a full redraw's what this step shows)
        tree_top = full.shape[0] - int(art["ax"].get_window_extent().y0)
        diff = np.abs(fast - full)[:tree_top]
        assert diff.mean() < 1.5, step  # only pruned labels' grey differs


def test_mid_search_png_artifact() -> None:
    """002's tree at step 31 (the β-cut at J), saved for people to look at."""
    ARTIFACTS.mkdir(exist_ok=True)
    r = alphabeta(T)
    text = Replay(r).frame(31).text
    assert text.startswith("β-cut at J: v = 6 ≥ β = 5")
    out = save_tree(ARTIFACTS / "tree_002_step31.png", r, step=31, dpi=110,
                    title="alpha-beta on 002's tree, step 31: " + text.split(",")[0])
    assert out.read_bytes()[:8] == PNG and out.stat().st_size > 10_000


# ----- files and display hooks -------------------------------------------------------------------
def test_png_svg_files_and_hooks(tmp_path: Path) -> None:
    r = alphabeta(T)
    assert tree_png(T)[:8] == PNG and result_png(r)[:8] == PNG
    assert T._repr_png_()[:8] == PNG and r._repr_png_()[:8] == PNG  # type: ignore[index]
    svg = tree_svg(r, step=10)
    assert svg.lstrip().startswith("<?xml") and "<svg" in svg
    for suffix in ("png", "svg", "pdf"):
        path = save_tree(tmp_path / f"t.{suffix}", r, step=10)
        assert path.stat().st_size > 1000
    with pytest.raises(ValueError, match="writes .png, .svg or .pdf"):
        save_tree(tmp_path / "t.jpg", T)


def test_importing_the_kit_does_not_import_matplotlib() -> None:
    code = ("import sys, minimaxkit, minimaxkit.replay; "
            "assert 'matplotlib' not in sys.modules and 'networkx' not in sys.modules")
    subprocess.run([sys.executable, "-c", code], check=True)


# ----- games ----------------------------------------------------------------------------------
def test_game_search_is_drawn_as_the_part_it_reached() -> None:
    g = TicTacToe()
    start = g.state_from_text("XO. .X. ..O")
    r = alphabeta(g, start)
    art = draw_tree(r.trace, game=g, state=start)
    drawn = set(art["status"])
    assert set(r.trace.visited) | set(r.trace.pruned) == drawn
    assert art["names"][(0,)].get_text() == g.move_name(g.moves(start)[0])
    assert {p for p, s in art["status"].items() if s == "pruned"} >= set(r.trace.pruned)
    second = g.moves(g.play(start, 2))[1]
    assert node_namer(g, start)((0, 1)).split() == [g.move_name(2), g.move_name(second)]
    full = alphabeta(g)  # 20,000+ events: drawn two levels deep
    assert result_png(full)[:8] == PNG


def test_boards() -> None:
    g = TicTacToe()
    art = draw_board(g, g.state_from_text("XO. .X. ..O"), move=4)
    assert (len(art["x"]), len(art["o"]), art["kind"]) == (2, 2, "tictactoe")
    assert art["highlight"] is not None
    c = ConnectFour()
    art = draw_board(c, c.state_from_moves("3344"), move=4)
    assert (len(art["x"]), len(art["o"]), art["kind"]) == (2, 2, "connect4")
    assert art["highlight"].center == (4.5, 1.5)  # column 4's top piece: second row up
    art = draw_board(Nim(), Nim().initial_state())
    assert art["kind"] == "text"


def test_connect_four_boards_number_their_columns_from_0() -> None:
    """The lectures name columns ("O threatens 0 and 4"): the board says which is which,
    counting from 0 as the moves and the game's text do, under the board, each number
    centred under its column and inside the picture, at 11 px or more."""
    from matplotlib.backends.backend_agg import FigureCanvasAgg
    from matplotlib.figure import Figure
    from PIL import Image

    from minimaxkit.draw.alt import board_alt
    from minimaxkit.draw.board import board_png
    from minimaxkit.draw.style import MIN_FONT_PX

    c = ConnectFour()
    fig = Figure(figsize=(4, 3.5), dpi=72)
    FigureCanvasAgg(fig)
    art = draw_board(c, c.state_from_moves("3344"), fig.add_subplot())
    numbers = art["numbers"]
    assert [t.get_text() for t in numbers] == ["0", "1", "2", "3", "4", "5", "6"]
    assert [t.get_position()[0] for t in numbers] == [col + 0.5 for col in range(7)]
    assert all(t.get_position()[1] < 0 for t in numbers)  # under the bottom row
    renderer = fig.canvas.get_renderer()
    box = fig.bbox
    for t in numbers:
        extent = t.get_window_extent(renderer)
        assert box.x0 <= extent.x0 and extent.x1 <= box.x1 and box.y0 <= extent.y0
        assert t.get_fontsize() * fig.dpi / 72 >= MIN_FONT_PX
    assert "columns numbered 0 to 6 from the left" in board_alt(c, c.initial_state())
    plain = Image.open(io.BytesIO(board_png(TicTacToe(), 0)))
    numbered = Image.open(io.BytesIO(board_png(c, c.initial_state())))
    assert numbered.height > plain.height  # room for the numbers
    assert "numbers" not in draw_board(TicTacToe(), 0)


# ----- replay texts against 002's hand trace -----------------------------------------------
#: 002's hand trace of its fail-hard alpha-beta (flattened table, /work/shared/seeds/002_*.txt):
#: the leaves that do not change Alpha/Beta, where the loop stops, and the values returned.
HAND_TRACE = ("8 8 7 (not used) 3 (not used) <- 8 -------------- 8 -MAX 8 9 9 (stop) <- 9 "
              "-------------- -MAX 8 2 2 4 4 1 (not used) <- 4 -------------- 4 <- 4 "
              "----------------------------- 4 4 MAX 4 MAX 1 (not used) 3 (not used) 5 <- 5 "
              "-------------- 5 4 5 3 (not used) 9 9 (stop) <- 9 -------------- 4 5 6 6 "
              "(stop) <- 6 -------------- <- 5 ----------------------------- 5 5 MAX 5 MAX 1 "
              "(not used) 2 (not used) 3 (not used) <- 5 -------------- 5 5 (stop)")


def test_hand_trace_excerpt_is_the_documents() -> None:
    # the source documents live beside the repository (../shared/seeds, as in CI)
    seeds = sorted((Path(__file__).resolve().parents[2] / "shared" / "seeds").glob("002_*.txt"))
    if seeds:  # the documents are not shipped with the kit; where they are, the excerpt is theirs
        assert HAND_TRACE in seeds[0].read_text()


def test_explanations_follow_002s_hand_trace() -> None:
    rp = Replay(alphabeta(T, fail="one-sided"))
    texts = [rp.explain(k) for k in range(1, len(rp))]
    leaves = [t for t in texts if t.startswith("Leaf ")]
    value = [int(re.match(r"Leaf \w+ = (\d+)", t).group(1)) for t in leaves]  # type: ignore
    assert value == [8, 7, 3, 9, 2, 4, 1, 1, 3, 5, 3, 9, 6, 1, 2, 3]
    not_used = [v for v, t in zip(value, leaves, strict=True) if "Not used" in t]
    assert not_used == [int(x) for x in re.findall(r"(\d+) \(not used\)", HAND_TRACE)]
    cuts = [t for t in texts if "-cut at" in t]
    assert [re.search(r"v = (\d+)", t).group(1) for t in cuts] == re.findall(  # type: ignore
        r"(\d+) \(stop\)", HAND_TRACE)
    assert [t.split(":")[0] for t in cuts] == ["β-cut at F", "β-cut at I", "β-cut at J",
                                               "α-cut at D"]
    returns = [int(m.group(1)) for t in texts if (m := re.match(r"\w+ returns (\d+)", t))]
    assert returns[:9] == [int(x) for x in re.findall(r"<- (\d+)", HAND_TRACE)]
    assert cuts[3].startswith("α-cut at D: v = 5 ≤ α = 5 (a cut on equality), its last 2 "
                              "children (L, M) are not searched.")
    assert texts[-1] == "Search done: the root A (MAX) returns 5; best move: to C."


def test_explanations_at_known_steps() -> None:
    r = alphabeta(T)
    assert replay(r, 0).text == "Start: nothing is searched yet. The root A is a MAX node."
    assert replay(r, 1).text == "Enter the root A (MAX) with α = −∞, β = ∞."
    assert replay(r, 4).text == "Leaf N = 8. E (MAX) now has 8, so α = 8 at E."
    assert replay(r, 7).text == "E returns 8 to B (MIN). B (MIN) now has 8, so β = 8 at B."
    assert replay(r, 10).text.startswith(
        "β-cut at F: v = 9 ≥ β = 8, its last 2 children (R, S) are not searched. B (MIN) "
        "already has 8 (from E)")
    assert replay(r, 27).text.startswith(
        "β-cut at I: v = 9 ≥ β = 5, its last child (AB) is not searched.")
    strict = alphabeta(T, prune_on_equal=False)
    assert replay(strict, 10).text.startswith("β-cut at F: v = 9 > β = 8")
    # the words follow the code being stepped: fail-soft cuts before updating its bound
    assert replay(r, 9).text == ("Leaf Q = 9. F (MAX) now has 9 (α stays −∞: the cut test "
                                 "comes before α is updated).")
    assert replay(r, 39).text == (
        "K returns 3 (exact: every child was searched, though it lies outside its window) to "
        "D (MIN). D (MIN) now has 3 (β stays ∞: the cut test comes before β is updated).")
    hard = alphabeta(T, fail="one-sided")
    assert replay(hard, 9).text == "Leaf Q = 9. F (MAX) now has 9, so α = 9 at F."
    assert replay(hard, 39).text.endswith("D (MIN) now has 5, so β = 5 at D.")


def test_replay_frames() -> None:
    r = alphabeta(T)
    rp = Replay(r)
    assert len(rp) == len(r.trace) + 1
    f = rp.frame(31)
    assert [lv.name for lv in f.stack] == ["A", "C", "J"]
    # J's leaf 6 cuts: fail-soft tests the cut before raising α (lecture 3's pseudo-code)...
    assert [(lv.alpha, lv.beta) for lv in f.stack] == [(4, float("inf")), (4, 5), (4, 5)]
    # ...the example sheet's fail-hard loop raises α to 6 first, then stops (α ≥ β)
    hard = Replay(alphabeta(T, fail="one-sided")).frame(31)
    assert [(lv.alpha, lv.beta) for lv in hard.stack] == [(4, float("inf")), (4, 5), (6, 5)]
    assert names(f.pruned) == ["AB", "AD", "AE", "R", "S"]
    end = rp.frame(len(r.trace))
    assert end.done and end.stack == ()
    assert tuple(p[-1] for p in end.pv[1:]) == r.pv
    assert end.values[()] == 5 and set(end.visited) == set(r.trace.visited)
    with pytest.raises(IndexError):
        rp.frame(len(r.trace) + 1)


def test_windows_match_the_next_childs_event() -> None:
    """The window shown for a stack node is the one its next child is entered with."""
    for seed in range(30):
        tree = GameTree.random(depth=3, branching=(2, 4), seed=seed)
        for kw in ({}, {"fail": "hard"}, {"prune_on_equal": False}, {"order": "perfect"}):
            rp = Replay(alphabeta(tree, **kw))
            for step, e in enumerate(rp.events):
                if e.path and hasattr(e, "alpha"):
                    assert rp.window(e.path[:-1], step) == (e.alpha, e.beta), (seed, kw, step)
    rp = Replay(minimax(T))
    assert all(lv.alpha == -np.inf for lv in rp.frame(20).stack)


def test_first_divergence() -> None:
    a, b = alphabeta(T).trace, alphabeta(T, order="perfect").trace
    assert first_divergence(a, a) is None
    assert first_divergence(a, b) == (1, (0,))


@pytest.mark.parametrize("module", ["minimaxkit.replay.frames", "minimaxkit.replay.narration",
                                    "minimaxkit.replay.views", "minimaxkit.draw",
                                    "minimaxkit.draw.model", "minimaxkit.draw.tree",
                                    "minimaxkit.draw.render", "minimaxkit.draw.board",
                                    "minimaxkit.draw.style", "minimaxkit.draw.alt"])
def test_doctests(module: str) -> None:
    result = doctest.testmod(importlib.import_module(module))
    assert result.attempted > 0 and result.failed == 0


# ----- the line that won ---------------------------------------------------------------------
def _random_games(game: Any, n: int, seed: int) -> Iterator[Any]:
    """Every position of ``n`` random games of ``game`` (seeded)."""
    import random

    rng = random.Random(seed)
    for _ in range(n):
        state = game.initial_state()
        yield state
        while game.moves(state):
            state = game.play(state, rng.choice(game.moves(state)))
            yield state


@pytest.mark.parametrize("game, length", [(TicTacToe(), 3), (ConnectFour(columns=5, rows=4), 4),
                                          (ConnectFour(), 4)], ids=["tictactoe", "c4-5x4", "c4"])
def test_lines_in_a_row_agree_with_the_games_winner(game: Any, length: int) -> None:
    """Read from the drawn rows alone, a line of ``length`` is there exactly when the game's
    own winner() (bit operations, an independent check) names a winner, and it is the
    winner's; drawing marks it, and the text alternative says so."""
    from minimaxkit.draw.alt import board_alt
    from minimaxkit.draw.board import lines_in_a_row

    won = 0
    for state in _random_games(game, 60, seed=11):
        lines = lines_in_a_row(game.board(state), length)
        winner = game.winner(state)
        assert {piece for piece, _, _ in lines} == ({winner} if winner else set())
        for _, (r0, c0), (r1, c1) in lines:
            assert max(abs(r1 - r0), abs(c1 - c0)) + 1 >= length
        if winner:
            won += 1
            art = draw_board(game, state)
            assert len(art["wins"]) == 2 * len(lines)  # a light edge and a dark line each
            assert f"in a row for {winner} is marked by a line" in board_alt(game, state)
            plt.close("all")
        else:
            assert "marked by a line" not in board_alt(game, state)
    assert won > 20  # random games mostly end in a win
