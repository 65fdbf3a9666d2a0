"""The maintainer's tool for choosing a test tree (tests/grading/try_tree.py), run as
docs/grading.md, *Adding a test tree*, says: from the repository's root, in the kit's Python.

Expected values by hand, a1's ``minimax`` (players alternate from the root):

- ``[[-3, -5], [-2, -8]]``, MAX root: the MIN nodes are worth -5 and -8, the root -5. A
  running max started at 0 (``max_from_zero``, and ``min_from_zero``, which starts both at 0)
  returns 0; a search that decides MAX by the depth's parity is right here, as the root is
  MAX at depth 0.
- the same leaves under a MIN root: the MAX nodes are worth -3 and -2, the root -3; deciding
  by the parity searches it as a MAX root and returns -5.
- ``[[3, 5], [2, 8]]``: the root is 3, which a max started at 0 also finds (every leaf ≥ 0).
"""

from __future__ import annotations

import json
import re
import subprocess
import sys
from pathlib import Path

REPO = Path(__file__).resolve().parents[2]


def _run(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "tests/grading/try_tree.py", *args], cwd=REPO,
                          capture_output=True, text=True, timeout=300)


def _scores(out: str) -> dict[str, float]:
    """program -> its score on the tree, from the command's lines."""
    return {m[1]: float(m[0]) for m in re.findall(r"^ *([\d.]+)  (\w+): ", out, re.M)}


def _tree(nested: list[object], **spec: object) -> str:
    return json.dumps({"name": "candidate", "tree": {"nested": nested, **spec}})


def test_values_below_zero_catch_a_max_started_at_zero() -> None:
    done = _run("a1_minimax", "minimax", _tree([[-3, -5], [-2, -8]]))
    assert done.returncode == 0, done.stdout + done.stderr
    scores = _scores(done.stdout)
    assert scores["max_from_zero"] == scores["min_from_zero"] == 0.5  # the value, not the leaves
    assert "max_from_zero: wrong (start_at_zero): value 0 ✘ (expected -5)" in done.stdout
    assert scores["parity"] == 1
    correct = [name for name in scores if name.startswith("ok_")]
    assert len(correct) >= 5 and all(scores[name] == 1 for name in correct)
    assert "every correct program scores 1" in done.stdout
    assert re.search(r"catches \d+ of \d+ wrong programs; lets through: .*parity", done.stdout)


def test_a_min_root_catches_the_parity_and_non_negative_leaves_let_zero_through() -> None:
    done = _run("a1_minimax", "minimax", _tree([[-3, -5], [-2, -8]], root="min"))
    assert done.returncode == 0, done.stdout + done.stderr
    assert _scores(done.stdout)["parity"] < 1
    assert "value -5 ✘ (expected -3)" in done.stdout
    done = _run("a1_minimax", "minimax", _tree([[3, 5], [2, 8]]))
    assert _scores(done.stdout)["max_from_zero"] == 1
    assert re.search(r"lets through: .*max_from_zero", done.stdout)


def test_wrong_arguments_are_named() -> None:
    done = _run("a9_nothing", "minimax", _tree([[1, 2]]))
    assert done.returncode == 2 and "no assignment 'a9_nothing'" in done.stderr
    assert "a1_minimax" in done.stderr  # the ones there are
    done = _run("a1_minimax", "minimaks", _tree([[1, 2]]))
    assert done.returncode == 2 and "a1_minimax has no question 'minimaks'" in done.stderr
    assert "minimax_limited" in done.stderr
    done = _run("a1_minimax", "minimax", "[[1, 2]]")
    assert done.returncode == 2 and 'must be an object with a "tree"' in done.stderr
    done = _run("a1_minimax", "minimax", '{"tree": {"nestd": [1]}}')
    assert done.returncode == 2 and "nestd" in done.stderr, done.stderr
    # a depth-limited question's tree without its depth: every program would be graded with
    # none (an outside maintainer read "catches 7 of 7" over 16 internal errors)
    done = _run("a1_minimax", "minimax_limited", _tree([[1, 2], 3]))
    assert done.returncode == 2 and "the entry has no option depth" in done.stderr, done.stderr


def test_the_tree_is_shown_with_its_static_values() -> None:
    """What a hand check needs: each node, its player and its value, a line a depth (the
    static values are the spec's noise, seed 1, as the tool computes them)."""
    entry = {"name": "t", "tree": {"nested": [[-3, -5], 4], "root": "min",
                                   "static": {"noise": 1, "seed": 1}}, "options": {"depth": 1}}
    done = _run("a1_minimax", "minimax_limited", json.dumps(entry))
    assert done.returncode == 0, done.stdout + done.stderr
    lines = done.stdout.splitlines()
    assert lines[0] == "the tree (static values at interior nodes):"
    assert lines[1].startswith("  depth 0: A▼ ") and lines[2].startswith("  depth 1: B▲ ")
    assert ", C▲ 4 leaf" in lines[2] and lines[3] == "  depth 2: D▼ -3 leaf, E▼ -5 leaf"
