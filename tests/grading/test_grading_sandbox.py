"""Untrusted code: each way a submission can misbehave costs that test, with a reason, and
nothing it does reaches the grader."""

from __future__ import annotations

import math
import sys
from typing import Any

import pytest

import minimaxkit
from minimaxkit import GameTree
from minimaxkit.examples import tree_002
from minimaxkit.grading import describe, run_contained
from minimaxkit.student import Recorder

TREE = GameTree.from_nested([[3, 12, 8], [2, 4, 6]])


def run(fn: Any, tree: GameTree = TREE, **kw: Any) -> Any:
    return run_contained(lambda rec: describe(fn(rec.root())), tree, **kw)


def leftmost(node: Any) -> Any:
    return node.static() if node.is_leaf() else leftmost(node.children()[0])


def test_a_good_function_returns_its_value_and_its_calls() -> None:
    out = run(leftmost)
    assert (out.status, out.result, out.calls) == (
        "ok", {"number": 3}, [("children", ()), ("children", (0,)), ("static", (0, 0))])


def test_an_endless_loop_is_stopped_at_the_time_limit() -> None:
    def loop(node: Any) -> None:
        while True:
            pass
    out = run(loop, timeout=0.3)
    assert out.status == "timeout" and "did not finish within 0.3 s" in out.message
    # the limit is the loop's processor time (a loaded machine gives it less of a second,
    # so no bound on the wall clock holds there): it was not stopped before it used it
    assert out.seconds >= 0.3


def test_an_exception_is_reported_with_the_students_line() -> None:
    def broken(node: Any) -> Any:
        kids = node.children()
        return kids[5]
    out = run(broken)
    assert out.status == "raised"
    assert "IndexError: list index out of range" in out.message
    assert "in broken: return kids[5]" in out.message


@pytest.mark.parametrize("exc", ["SystemExit", "KeyboardInterrupt"])
def test_even_base_exceptions_only_cost_the_test(exc: str) -> None:
    def leave(node: Any) -> None:
        raise getattr(__builtins__, exc, None) or {"SystemExit": SystemExit,
                                                   "KeyboardInterrupt": KeyboardInterrupt}[exc]
    assert run(leave).status == "raised"


def test_too_deep_a_recursion_is_named() -> None:
    def forever(node: Any) -> Any:
        return forever(node)
    out = run(forever)
    assert out.status == "recursion" and "without reaching a leaf" in out.message


def test_a_crash_of_the_child_is_reported() -> None:
    def segfault(node: Any) -> None:
        import ctypes
        ctypes.string_at(0)
    out = run(segfault)
    assert out.status == "crashed" and "segmentation fault" in out.message


def test_a_memory_hog_gets_a_memory_error() -> None:
    def hog(node: Any) -> Any:
        return bytearray(1 << 40)
    assert run(hog).status == "memory"


@pytest.mark.parametrize("value, expected", [
    (None, {"none": True}), ("5", {"other": "str", "repr": "'5'"}), (math.nan, {"other": "nan",
                                                                               "repr": "nan"}),
    (2.5, {"number": 2.5}), (-math.inf, {"number": -math.inf}), (True, {"other": "bool",
                                                                        "repr": "True"}),
])
def test_returned_values_are_described_not_trusted(value: Any, expected: Any) -> None:
    assert run(lambda node: value).result == expected


def test_mutating_a_node_is_refused_even_if_the_error_is_caught() -> None:
    def sneaky(node: Any) -> int:
        try:
            node.value = 1
        except AttributeError:
            pass
        return 1
    out = run(sneaky)
    assert out.status == "mutated" and "cannot set 'value' on node A" in out.message


def test_mutating_the_tree_behind_the_interface_is_detected_and_stays_in_the_child() -> None:
    tree = GameTree.from_nested([[3, 12], [2, 4]])

    def behind(node: Any) -> int:
        leaf = node.children()[0].children()[0]
        tree = next(v.tree for v in (getattr(leaf, a) for a in type(leaf).__slots__)
                    if hasattr(v, "tree"))  # the tree behind the node, by what it is
        object.__setattr__(tree.node(leaf.path), "value", 99)
        return 1
    out = run(behind, tree)
    assert out.status == "mutated" and "changed the tree" in out.message
    assert tree.node((0, 0)).value == 3  # the grader's tree is untouched


def test_printing_is_kept_up_to_a_point_then_stopped() -> None:
    def chatty(node: Any) -> Any:
        print("looking at", node.name)
        return leftmost(node)
    out = run(chatty)
    assert out.ok and out.printed == "looking at A\n"

    def flood(node: Any) -> None:
        while True:
            print("x" * 10_000, file=sys.stderr)
    out = run(flood)
    assert out.status == "output" and "printed more than 200 kB" in out.message
    assert len(out.printed) < 3_000


@pytest.mark.parametrize("call", [
    lambda t: minimaxkit.alphabeta(t), lambda t: minimaxkit.minimax(t),
    lambda t: minimaxkit.negamax(t), lambda t: minimaxkit.deepen(t.with_static()),
    lambda t: minimaxkit.perfect_order_leaves(t),
    # the grader's sample with an ordering bug is a right alpha-beta where nothing is ordered
    lambda t: __import__("minimaxkit.grading", fromlist=["buggy_alphabeta"]).buggy_alphabeta(
        "reversed_list")(Recorder(t).root(), -math.inf, math.inf),
])
def test_the_kits_own_searches_refuse_to_run_even_when_the_refusal_is_swallowed(call: Any) -> None:
    def cheat(node: Any) -> Any:
        try:
            return call(tree_002())
        except BaseException:
            return 5
    out = run(cheat)
    assert out.status == "reference" and "minimaxkit's own search" in out.message
    assert minimaxkit.alphabeta(tree_002()).value == 5  # still fine in the grader


def test_input_is_not_available() -> None:
    out = run(lambda node: input("move? "))
    assert out.status == "raised" and "input() is not available" in out.message


def test_the_recorder_limit_stops_a_loop_that_asks_the_tree() -> None:
    def ask(node: Any) -> None:
        while True:
            node.children()
    out = run_contained(lambda rec: describe(ask(rec.root())), TREE, call_limit=1000)
    assert out.status == "looping" and "more than 1000 calls" in out.message


def test_globals_changed_by_the_function_stay_in_the_child() -> None:
    seen: list[str] = []

    def remember(node: Any) -> int:
        seen.append(node.name)
        return 1
    assert run(remember).ok and seen == []


def test_describe_keeps_nodes_as_paths() -> None:
    rec = Recorder(TREE)
    child = rec.root().children()[1]
    assert describe((4, child)) == {"seq": [{"number": 4}, {"node": [1], "name": "C"}]}


def test_reading_the_stored_test_data_is_refused(tmp_path: Any) -> None:
    (tmp_path / "tests.json").write_text("{}")

    def peek(node: Any) -> int:
        with open(tmp_path / "tests.json") as f:
            return len(f.read())
    out = run(peek)
    assert out.status == "reference" and "read the test data (tests.json)" in out.message


def test_processes_the_function_starts_die_with_it() -> None:
    import subprocess
    import time

    marker = f"sleep-{time.time_ns()}"

    def spawn(node: Any) -> None:
        subprocess.Popen(["sh", "-c", f"exec -a {marker} sleep 30"])
        while True:
            pass
    assert run(spawn, timeout=0.5).status == "timeout"
    time.sleep(0.2)
    left = subprocess.run(["pgrep", "-f", marker], capture_output=True, text=True).stdout
    assert left.strip() == ""


def test_a_tree_changed_beyond_repair_is_still_reported_as_changed() -> None:
    def wreck(node: Any) -> int:
        tree = next(v.tree for v in (getattr(node, a) for a in type(node).__slots__)
                    if hasattr(v, "tree"))  # the tree behind the node, by what it is
        object.__setattr__(tree.node(node.path), "value", object())
        return 1
    out = run(wreck)
    assert out.status == "mutated"


def test_a_kernel_whose_grader_has_ended_does_not_run(tmp_path: Any) -> None:
    """The autograde kernel started by a worker that was stopped meanwhile (jupyter_client
    names the starter in JPY_PARENT_PID): it ends rather than run on, holding the grader's
    output open (an interrupted class autograde once waited on such a kernel on CI)."""
    import os
    import subprocess

    gone = subprocess.Popen(["true"])
    gone.wait()
    done = subprocess.run([sys.executable, "-m", "minimaxkit.grading.autograde.kernel", "-f",
                           str(tmp_path / "kernel.json")], cwd=tmp_path, timeout=60,
                          env=dict(os.environ, JPY_PARENT_PID=str(gone.pid)),
                          capture_output=True)
    assert done.returncode == 1 and not (tmp_path / "kernel.json").exists()
