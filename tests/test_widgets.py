"""The widgets without a browser: their state after ``.value`` changes and clicks, the links
that let the browser step on its own, quiz verdicts, games against search functions."""

from __future__ import annotations

from typing import Any

import matplotlib

matplotlib.use("Agg")

import ipywidgets as w  # noqa: E402
import pytest  # noqa: E402

from minimaxkit import GameTree, alphabeta, minimax  # noqa: E402
from minimaxkit.examples import tree_002  # noqa: E402
from minimaxkit.games import TicTacToe  # noqa: E402
from minimaxkit.widgets import (  # noqa: E402
    CompareWidget,
    PlayWidget,
    QuizWidget,
    StepWidget,
)
from minimaxkit.widgets._panel import PRERENDER_LIMIT  # noqa: E402

PNG = b"\x89PNG\r\n\x1a\n"
T = tree_002()
NAME = {n.name: n.path for n in T.nodes()}


def link_ends(links: list[Any]) -> set[tuple[str, str, str, str]]:
    """(source class, trait, target class, trait) of jslink / jsdlink widgets."""
    return {(type(lk.source[0]).__name__, lk.source[1], type(lk.target[0]).__name__,
             lk.target[1]) for lk in links}


# ----- the step widget ------------------------------------------------------------------------
def test_step_widget_prerenders_every_frame() -> None:
    from minimaxkit.widgets.frames import compose

    sw = StepWidget(alphabeta(T))
    assert sw.ready and sw.steps == 42 and sw.panel.prerender
    strip = sw.panel.strip
    assert strip is sw.panel.picture and len(strip.frames) == len(strip.whole) == 43
    assert all(p[:8] == PNG for p in strip.frames) and strip.whole[0]
    pictures = [compose(strip.frames, strip.whole, strip.corners, k).tobytes()
                for k in range(43)]
    assert len(set(pictures)) == 43  # every step is a different picture
    assert len(sw.panel.info.children) == 43
    assert "step 10 / 42" in sw.panel.info.children[10].value
    assert "β-cut at F" in sw.panel.info.children[10].value
    # ready, and steps without a kernel: no lost-kernel marks on a saved page
    assert {"mmk-step", "mmk-ready", "mmk-standalone"} <= set(sw._dom_classes)


def test_live_widgets_are_not_marked_standalone() -> None:
    """Live mode renders in the kernel: without one it cannot step, and says so."""
    live = StepWidget(alphabeta(T), prerender=False)
    assert "mmk-ready" in live._dom_classes and "mmk-standalone" not in live._dom_classes
    both = CompareWidget(alphabeta(T), alphabeta(T, order="perfect"))
    assert {"mmk-ready", "mmk-standalone"} <= set(both._dom_classes)
    mixed = CompareWidget(alphabeta(T), alphabeta(T, order="perfect"), prerender=False)
    assert "mmk-standalone" not in mixed._dom_classes


def test_step_widget_links_step_in_the_browser() -> None:
    sw = StepWidget(alphabeta(T))
    c = sw.controls
    assert link_ends(sw.links) == {("Controls", "value", "Stack", "selected_index"),
                                   ("Controls", "value", "FrameStrip", "index")}
    assert all(type(lk).__name__ == "DirectionalLink" for lk in sw.links)
    assert {lk.target[0] for lk in sw.links} == {sw.panel.picture, sw.panel.info}
    # every control runs in the browser: the anywidget's front end ships in its state
    state = c.get_state()
    assert state["_model_module"] == "anywidget" and state["steps"] == 42
    for part in ("mmk-first", "mmk-back", "mmk-next", "mmk-last", "mmk-playbtn",
                 'type: "range"', "aria-live", "ArrowRight", "Home", "End"):
        assert part in state["_esm"], part
    assert ":focus-visible" in state["_css"]
    # and each step is announced with the replay's explanation
    assert len(c.texts) == 43 and c.texts[10].startswith("β-cut at F: v = 9 ≥ β = 8")


def test_step_widget_value_controls_and_clamping() -> None:
    sw = StepWidget(alphabeta(T))
    c = sw.controls
    sw.value = 10
    assert c.value == 10
    assert sw.explanation.startswith("β-cut at F: v = 9 ≥ β = 8")
    assert [lv.name for lv in sw.frame.stack] == ["A", "B", "F"]
    c.next()
    assert sw.value == 11 and sw.explanation.startswith("F returns 9")
    c.back()
    c.back()
    assert sw.value == 9
    c.last()
    assert sw.value == 42 and sw.frame.done
    c.next()
    assert sw.value == 42
    c.first()
    c.back()
    assert sw.value == 0
    c.value = 25  # as the browser would: the kernel follows
    assert sw.value == 25 and sw.frame.current == (1, 1, 0)
    sw.value = 500
    assert sw.value == 42


def test_live_mode_renders_the_shown_step() -> None:
    sw = StepWidget(alphabeta(T), prerender=False)
    assert isinstance(sw.panel.picture, w.Image) and isinstance(sw.panel.info, w.HTML)
    first = sw.panel.picture.value
    sw.value = 10
    assert sw.panel.picture.value != first and "β-cut at F" in sw.panel.info.value
    assert sw.links == [] and sw.controls.texts == []
    assert sw.controls.status.startswith("β-cut at F")  # announced in the browser
    assert "step 10 of 42" in sw.panel.picture.tooltip and "β-cut at F" in \
        sw.panel.picture.tooltip


def test_game_trace_shows_boards() -> None:
    g = TicTacToe()
    start = g.state_from_text("XO. .X. ..O")
    r = alphabeta(g, start)
    sw = StepWidget(trace=r.trace, tree=g, state=start)
    assert sw.panel.has_board and sw.panel.draw  # small enough to draw the tree too
    assert len(sw.panel.board.children) == len(r.trace) + 1
    assert all(im.value[:8] == PNG for im in sw.panel.board_images)
    sw.value = 3
    path = sw.frame.current
    assert path is not None and len(path) == 2
    assert sw.explanation.split()[1] == g.move_name(g.moves(start)[path[0]])


def test_long_game_trace_goes_live() -> None:
    g = TicTacToe()
    r = alphabeta(g, g.state_from_text("X.. ... ..."))
    assert len(r.trace) + 1 > PRERENDER_LIMIT
    sw = StepWidget(trace=r.trace, tree=g, state=g.state_from_text("X.. ... ..."))
    assert not sw.panel.prerender and not sw.panel.draw
    before = sw.panel.board.value
    sw.value = 3
    assert sw.panel.board.value != before and sw.explanation


def test_step_widget_needs_a_trace() -> None:
    with pytest.raises(ValueError, match="no trace"):
        StepWidget(alphabeta(T, trace=False))
    with pytest.raises(TypeError):
        StepWidget()


# ----- compare ---------------------------------------------------------------------------------
def test_compare_widget_steps_both_traces_together() -> None:
    a, b = alphabeta(T, fail="one-sided"), alphabeta(T, fail="one-sided", prune_on_equal=False)
    cw = StepWidget.compare(a, b, labels=("equality", "strict"))
    assert isinstance(cw, CompareWidget)
    assert cw.divergence == 39 and cw.steps == max(len(a.trace), len(b.trace))
    pa, pb = cw.panels
    assert len(pa.info.children) == len(pb.info.children) == cw.steps + 1
    assert (len(pa.strip.frames), len(pb.strip.frames)) == (len(a.trace) + 1,
                                                            len(b.trace) + 1)
    cw.value = 39
    assert [f.step for f in cw.frames] == [39, 39]
    cw.value = cw.steps
    fa, fb = cw.frames
    assert fa.done and fb.done and fa.step == len(a.trace)
    assert "part at step 40" in cw.note.value
    d = pa.replay.name((2,))
    assert d == "D" and pa.renderer.marks == {(2,): "diverge"}
    stacks = {lk.target[0] for p in cw.panels for lk in p.link(cw.controls)}
    assert stacks == {pa.picture, pa.info, pb.picture, pb.info}


# ----- quiz -------------------------------------------------------------------------------------
def test_quiz_exact_answer_is_right() -> None:
    q = QuizWidget(seed=3)
    assert q.tree == GameTree.random(depth=3, branching=(2, 3), values=(0, 9), seed=3)
    assert q.answer_never == set(q.leaf_paths) - set(alphabeta(q.tree).trace.leaves)
    q.mark(*q.answer_never)
    result = q.show_check()
    assert result.correct and result.summary.startswith("Correct")
    assert all(v.ok for v in result.verdicts)
    assert q.picture.value[:8] == PNG and "Correct" in q.feedback.value


def test_quiz_too_many_marked_is_wrong() -> None:
    q = QuizWidget(seed=3)
    q.mark(*q.leaf_paths)
    result = q.check_answers()
    assert not result.correct
    assert "too many is wrong" in result.summary
    wrong = {v.path: v for v in result.verdicts if not v.ok}
    evaluated = set(q.leaf_paths) - q.answer_never
    assert set(wrong) == evaluated and {v.kind for v in wrong.values()} == {"missing"}
    v = next(iter(wrong.values()))
    assert "alpha-beta evaluates it" in v.reason and "still open" in v.reason


def test_quiz_too_few_marked_names_the_cut() -> None:
    q = QuizWidget(tree=T)
    q.mark("R")  # S, AB, AD, AE and the subtrees of L and M are missing
    result = q.check_answers()
    verdict = {v.name: v for v in result.verdicts}
    assert verdict["R"].ok and not verdict["S"].ok and verdict["S"].kind == "extra"
    assert "β-cut at F: v = 9 ≥ β = 8" in verdict["S"].reason
    assert "α-cut at D: v = 3 ≤ α = 5" in verdict["AN"].reason
    assert result.marks[q.tree.by_name("S").path] == "extra"


def test_quiz_retry_mode_counts_and_hints_then_solves_on_request() -> None:
    """First Check: how many are wrong and one hint, no verdict list, the picture still the
    bare tree; Show the solution: every verdict, drawn on alpha-beta's search with marks in
    the quiz's words that agree with what the picture shows at each leaf."""
    import matplotlib

    matplotlib.use("Agg")
    from minimaxkit.draw import draw_tree
    from minimaxkit.draw.style import MARKS
    from minimaxkit.widgets.quiz import PICTURE_MARKS

    q = QuizWidget(tree=T)
    bare = q.picture.value
    q.mark("R", "AB")  # right: R and AB are cut; missing: S, AD, AE, L's and M's subtrees
    result = q.show_check()
    wrong = [v for v in result.verdicts if not v.ok]
    assert not result.correct and len(wrong) >= 2
    verb = "is" if len(wrong) == 1 else "are"
    assert f"Not quite: {len(wrong)} of {len(q.leaf_paths)} leaves {verb} wrong." \
        in q.feedback.value
    assert q.feedback.value.count("Hint:") == 1 and "<li" not in q.feedback.value
    assert "Follow the search to F" in q.feedback.value  # S is cut at F (β-cut, step 10)
    assert "S" not in q.hint(result).replace("search", "")  # the hint does not name the leaf
    assert q.picture.value == bare and q.solution.layout.display is None
    q.show_solution()
    assert q.feedback.value.count("<li") == len(wrong) + len(q.answer_never) - sum(
        1 for v in wrong if v.kind == "extra") and q.solution.layout.display == "none"
    assert "never evaluated, not selected" in q.picture.tooltip
    # each mark says what the drawing shows at its leaf (the search is alpha-beta's)
    marks = {p: PICTURE_MARKS[k] for p, k in result.marks.items()}
    status = draw_tree(q.result, marks=marks)["status"]
    for p, kind in marks.items():
        if kind == "unselected":
            assert status[p] == "pruned" and "never evaluated" in MARKS[kind].label
        if kind == "overselected":
            assert status[p] == "visited" and MARKS[kind].label.endswith("but evaluated")
    # a wrong selection gets the other hint, naming the parent whose window is open
    q.mark("N")
    assert "Look at E: when the search reaches its children" in q.hint(q.check_answers())
    # the toggles: one per leaf, named, the selection mirrored
    assert q.toggles is not None and len(q.toggles.items) == len(q.leaf_paths)
    assert q.toggles.items[0] == [f"{T.node(q.leaf_paths[0]).name} "
                                  f"{T.node(q.leaf_paths[0]).value}",
                                  f"leaf {T.node(q.leaf_paths[0]).name}, value "
                                  f"{T.node(q.leaf_paths[0]).value}"]
    assert q.marked == {NAME["N"]} and q.toggles.selected == [q.leaf_paths.index(NAME["N"])]


def test_values_quiz_hint_names_the_node_and_its_rule() -> None:
    q = QuizWidget(tree=T, mode="values")
    truth = minimax(T).trace.values
    q.enter({p: truth[p] for p in q.inner})
    q.enter({"B": 8})
    q.show_check()
    import html

    assert "Look again at B, a MIN node: its value is the smallest of its children's values " \
           "(E, F, G)." in html.unescape(q.feedback.value)
    assert "What is the backed-up value" in q.picture.tooltip


def test_quiz_strict_rule_and_values_mode() -> None:
    strict = QuizWidget(tree=T, prune_on_equal=False)
    assert len(strict.answer_never) == len(QuizWidget(tree=T).answer_never)
    q = QuizWidget(tree=T, mode="values")
    truth = minimax(T).trace.values
    q.enter({p: truth[p] for p in q.inner})
    assert q.check_answers().correct
    q.enter({"B": 8})
    result = q.check_answers()
    bad = [v for v in result.verdicts if not v.ok]
    assert [v.name for v in bad] == ["B"]
    assert bad[0].reason == "you wrote 8; B = min(E, F, G) = min(8, 9, 4) = 4"
    q.show_solution()  # the picture is of the values asked for: minimax's, nothing cut
    assert "minimax (every backed-up value)" in q.picture.tooltip
    assert "Nothing was cut" in q.picture.tooltip and "wrong: B" in q.picture.tooltip


def test_quiz_new_tree() -> None:
    q = QuizWidget(seed=3)
    before = q.tree
    q.new.click()
    assert q.seed == 4 and q.tree != before
    assert q.toggles is not None and len(q.toggles.items) == len(q.leaf_paths)


BIG = GameTree.random(depth=6, branching=3, seed=5)  # 1,093 nodes, 729 leaves


def test_a_large_quiz_takes_typed_answers_and_lists_its_leaves() -> None:
    from minimaxkit.widgets.quiz import MAX_LISTED

    q = QuizWidget(tree=BIG)
    assert q.answers.children == (q.typed,) and not q.toggles  # no 729 buttons
    assert not q.drawn and q.picture.layout.display == "none" and q.picture.value == b""
    assert "1,093 nodes, too many to draw" in q.intro.value
    first = BIG.node(q.leaf_paths[0])
    assert f"{first.name} {first.value}," in q.intro.value  # the leaves, with values
    never = sorted(q.answer_never)
    q.mark(*never)
    assert q.marked == set(never) and q.show_check().correct
    q.typed.value = ", ".join(BIG.node(p).name for p in never[1:]) + " ZZZ"
    result = q.show_check()
    assert not result.correct and "name no leaf of this tree: 'ZZZ'" in result.summary
    q.mark(*q.leaf_paths)  # every leaf: hundreds wrong, the list is cut short
    result = q.show_solution()
    wrong = [v for v in result.verdicts if not v.ok]
    listed = len(wrong) + len(q.answer_never)  # the wrong ones, then the right cuts
    assert len(wrong) > MAX_LISTED
    assert q.feedback.value.count("<li") == MAX_LISTED + 1
    assert f"and {listed - MAX_LISTED:,} more" in q.feedback.value
    assert f"<b>{wrong[MAX_LISTED - 1].name}</b> ✗" in q.feedback.value  # wrong ones first


def test_a_large_values_quiz_reads_name_value_lines() -> None:
    q = QuizWidget(tree=BIG, mode="values")
    assert q.answers.children == (q.typed,) and not q.entries
    truth = minimax(BIG).trace.values
    q.enter({p: truth[p] for p in q.inner})
    assert q.check_answers().correct
    q.enter({"B": truth[BIG.by_name("B").path] + 1})  # one changed, the others kept
    bad = [v for v in q.check_answers().verdicts if not v.ok]
    assert [v.name for v in bad] == ["B"]
    q.typed.value += "\nB 1 2\nnot-a-node 3"
    result = q.check_answers()
    assert not result.correct and "'B 1 2', 'not-a-node 3'" in result.summary


def test_a_search_from_a_midgame_position_replays_from_that_position():
    from minimaxkit.games import TicTacToe
    from minimaxkit.replay import Replay, state_at

    game = TicTacToe()
    start = game.state_from_text("XO.\n.X.\n..O")
    r = alphabeta(game, start)
    assert r.state == start
    replay = Replay(r)  # no state= given: the result carries it
    assert replay.root_state == start
    first_child = r.trace.events[1].path
    assert game.render(state_at(game, replay.root_state, first_child)).count("X") == 3


def test_quiz_answer_boxes_send_their_text_once_they_lose_focus() -> None:
    """Typed answers sync on change (focus lost, as pressing Check does), not per key: per
    key, ipywidgets holds updates back while the kernel is busy and the click on Check
    overtook them (the browser test once saw Check judge "N" of "NOPE, ")."""
    typed = QuizWidget(tree=GameTree.random(depth=6, branching=3, seed=5))
    assert typed.typed in typed.answers.children and typed.typed.continuous_update is False
    values = QuizWidget(tree=tree_002(), mode="values")
    assert values.entries and all(not e.continuous_update for e in values.entries.values())


def test_save_hook_keeps_a_lecture_that_was_only_opened_as_it_was(tmp_path: Any) -> None:
    """The student setup's pre-save hook: the kernel's language_info and an empty widget
    state, written by the front end on open, do not reach the file; a real widget state,
    another language and changed cells do. (The browser test checks git status.)"""
    import json
    import logging
    from types import SimpleNamespace

    from minimaxkit.widgets.savehook import STATE, pre_save_hook

    disk = {"cells": [], "metadata": {"language_info": {"name": "python"}}, "nbformat": 4,
            "nbformat_minor": 5}
    (tmp_path / "lecture.ipynb").write_text(json.dumps(disk))
    manager = SimpleNamespace(root_dir=str(tmp_path), log=logging.getLogger("test"))
    full = {"name": "python", "version": "3.11.7", "pygments_lexer": "ipython3"}

    def saved(metadata: dict[str, Any]) -> dict[str, Any]:
        model = {"type": "notebook", "content": {"cells": [], "metadata": metadata}}
        pre_save_hook(model=model, path="/lecture.ipynb", contents_manager=manager)
        return model["content"]["metadata"]

    empty = {STATE: {"state": {}, "version_major": 2, "version_minor": 0}}
    assert saved({"language_info": full, "widgets": empty}) == disk["metadata"]
    real = {STATE: {"state": {"abc": {"model_name": "VBoxModel"}}, "version_major": 2}}
    shown = {"type": "notebook", "content": {"cells": [{"outputs": [{"data": {
        "application/vnd.jupyter.widget-view+json": {"model_id": "abc"}}}]}],
        "metadata": {"language_info": full, "widgets": real}}}
    pre_save_hook(model=shown, path="/lecture.ipynb", contents_manager=manager)
    assert shown["content"]["metadata"]["widgets"] == real
    # the same state with no output showing it: nothing of it is worth saving
    assert saved({"language_info": full, "widgets": real}) == disk["metadata"]
    assert saved({"language_info": {"name": "julia"}})["language_info"] == {"name": "julia"}
    new = {"type": "notebook", "content": {"metadata": {"language_info": full}}}
    pre_save_hook(model=new, path="/new.ipynb", contents_manager=manager)  # not on disk
    assert new["content"]["metadata"]["language_info"] == full


def test_widgets_that_need_their_kernel_carry_a_hidden_run_this_cell_note() -> None:
    """The quiz and the play widget need the kernel that made them: a note, hidden by CSS
    until the front end marks the widget disconnected, says to run the cell again (the
    browser test restarts the kernel and reloads the page)."""
    for widget, until in ((QuizWidget(seed=3), "Check and New tree do nothing"),
                          (PlayWidget(TicTacToe()), "clicking a column or cell does nothing")):
        note = widget.children[0]
        assert "mmk-needs-kernel" in note._dom_classes
        assert "▶ Run this cell again to use the" in note.value and until in note.value
        assert ".jupyter-widgets.mmk-needs-kernel.jupyter-widgets-disconnected" in note.value


def test_compare_says_what_its_same_words_hide() -> None:
    """Lecture 3 compares the example sheet's loop (fail-hard) with the handout's
    (fail-soft): at F both explanations read "β-cut at F: v = 9 ≥ β = 8", but the sheet's
    loop has raised α to 9 there and fail-soft has not. Each side now says so, in its
    explanation and its announcement; steps where nothing differs keep a blank line (the
    text under it does not jump); a comparison without such steps adds nothing."""
    from minimaxkit.examples import sheet_tree

    t = sheet_tree()
    cw = CompareWidget(alphabeta(t, fail="one-sided"), alphabeta(t),
                       labels=("the example sheet's loop", "the handout's loop"))
    sheet, handout = (p.html(10) for p in cw.panels)
    assert "β-cut at F: v = 9 ≥ β = 8" in sheet and "β-cut at F: v = 9 ≥ β = 8" in handout
    assert "Unlike the handout&#x27;s loop here:</b> α = 9 at F (there α = −∞)." in sheet
    assert "Unlike the example sheet&#x27;s loop here:</b> α = −∞ at F (there α = 9)." \
        in handout
    assert [k for k, n in enumerate(cw.notes[0]) if "Unlike" in n] == [9, 10, 26, 27, 30, 31]
    assert "mmk-differs" in cw.panels[0].html(0) and "Unlike" not in cw.panels[0].html(0)
    assert "Unlike the handout's loop here: α = 9 at F (there α = −∞)." in cw._announcement(10)
    plain = CompareWidget(alphabeta(tree_002()), alphabeta(tree_002(), order="perfect"))
    assert plain.notes == ([], []) and "mmk-differs" not in plain.panels[0].html(5)


def test_save_hook_keeps_the_widgets_the_outputs_show_and_drops_older_runs() -> None:
    """A cell run three times leaves three step widgets in the kernel, and the front end
    saves the state of all three (lecture 3: 3.1 MB after one run, 9.1 MB after three). The
    pre-save hook keeps what the outputs show: the last run's widget, everything it refers
    to (its controls, pictures, texts, layouts) and the links between its parts; a widget
    made but never shown goes too. (tests/browser saves a lecture three times.)"""
    from ipywidgets.embed import dependency_state

    from minimaxkit.widgets.savehook import STATE, VIEW, keep_shown_widgets

    runs = [StepWidget(alphabeta(tree_002())) for _ in range(3)]
    QuizWidget(seed=3)  # made, never shown
    every = w.Widget.get_manager_state()
    content = {"cells": [{"outputs": [
        {"data": {"text/html": "<div>Run this cell</div>"}},
        {"data": {VIEW: {"model_id": runs[-1].model_id, "version_major": 2}}}]}],
        "metadata": {"widgets": {STATE: every}}}
    dropped = keep_shown_widgets(content)
    kept = set(content["metadata"]["widgets"][STATE]["state"])
    reached = set(dependency_state([runs[-1]]))
    assert kept == reached | {link.model_id for link in runs[-1].links}
    assert runs[0].model_id not in kept and dropped >= 2 * len(kept)


def test_a_save_after_a_reload_while_the_kernel_runs_keeps_the_widgets(tmp_path: Any) -> None:
    """A page reloaded while its kernel runs sends the outputs it read from the file with a
    widget state holding none of their models; saved as sent, the page opened again showed
    "Error displaying widget: model not found" beside the "Run this cell" hint. The hook
    puts the file's models for those outputs back, and takes the widget view out of an
    output whose model is nowhere (its text says to run the cell)."""
    import json
    import logging
    from types import SimpleNamespace

    from minimaxkit.widgets.savehook import STATE, VIEW, pre_save_hook

    shown = {"output_type": "display_data", "metadata": {},
             "data": {VIEW: {"model_id": "a", "version_major": 2},
                      "text/plain": "▶ Run this cell to see the widget."}}
    lost = {"output_type": "display_data", "metadata": {},
            "data": {VIEW: {"model_id": "z", "version_major": 2},
                     "text/plain": "▶ Run this cell to see the widget."}}
    models = {"a": {"model_name": "VBoxModel", "state": {"children": ["IPY_MODEL_b"]}},
              "b": {"model_name": "HTMLModel", "state": {}}}
    disk = {"cells": [{"cell_type": "code", "outputs": [shown]}],
            "metadata": {"widgets": {STATE: {"state": models, "version_major": 2,
                                             "version_minor": 0}}},
            "nbformat": 4, "nbformat_minor": 5}
    (tmp_path / "lecture.ipynb").write_text(json.dumps(disk))
    manager = SimpleNamespace(root_dir=str(tmp_path), log=logging.getLogger("test"))
    sent = {"cells": [{"cell_type": "code", "outputs": [json.loads(json.dumps(shown)),
                                                         json.loads(json.dumps(lost))]}],
            "metadata": {"widgets": {STATE: {"state": {}, "version_major": 2,
                                             "version_minor": 0}}}}
    model = {"type": "notebook", "content": sent}
    pre_save_hook(model=model, path="/lecture.ipynb", contents_manager=manager)
    saved = model["content"]
    assert saved["metadata"]["widgets"][STATE]["state"] == models
    outputs = saved["cells"][0]["outputs"]
    assert VIEW in outputs[0]["data"] and VIEW not in outputs[1]["data"]
    assert outputs[1]["data"]["text/plain"].startswith("▶ Run this cell")


def test_the_compare_note_says_the_values_two_searches_return_from_one_node() -> None:
    """Lecture 3's comparison parts at K, where both searches return: the note says what
    each returns (the sheet's one-sided loop 5, a bound; fail-soft 3, hand-checked in the
    lecture), not twice "returns from K" (outside student pass 5)."""
    from minimaxkit import alphabeta
    from minimaxkit.examples import sheet_tree
    from minimaxkit.widgets import CompareWidget

    cw = CompareWidget(alphabeta(sheet_tree(), fail="one-sided"), alphabeta(sheet_tree()),
                       labels=("the sheet's loop", "fail-soft"))

    def notes(widget: Any) -> list[str]:
        found = [widget.value] if isinstance(getattr(widget, "value", None), str) else []
        return found + [n for c in getattr(widget, "children", ()) for n in notes(c)]

    [note] = [n for n in notes(cw) if "part at step" in n]
    assert "the sheet&#x27;s loop returns 5 from K while fail-soft returns 3 from K" in note
