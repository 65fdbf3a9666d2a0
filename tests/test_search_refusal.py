"""Refusing the kit's own searches (``minimaxkit.student.refuse_kit_searches``): every public
search refuses under its own name and searches again after the undo; the refusal reaches every
module that holds a search, the sandbox masks the same modules, and the sandbox's stub has the
names the refusal replaces."""

from __future__ import annotations

import ast
import math
import types
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from minimaxkit import (
    GameTree,
    alphabeta,
    deepen,
    iter_deepen,
    minimax,
    negamax,
    perfect_order_leaves,
    simple_pruning,
)
from minimaxkit.examples import sheet_tree
from minimaxkit.isolation.rules import KIT_SEARCHES, SEARCH_STUB
from minimaxkit.student import SEARCH_HOOKS, SEARCH_MODULES, refuse_kit_searches

KIT = Path(__file__).resolve().parents[1] / "minimaxkit"


class Refused(Exception):
    pass


STATIC = sheet_tree().with_static()
#: each search, and the name it is refused under: the search a call reaches first
CALLS: list[tuple[Callable[[], Any], str]] = [
    (lambda: minimax(sheet_tree()), "minimax"),
    (lambda: minimax(sheet_tree(), tt=True), "minimax"),
    (lambda: simple_pruning(sheet_tree()), "simple_pruning"),
    (lambda: alphabeta(sheet_tree(), fail="one-sided"), "alphabeta"),
    (lambda: negamax(sheet_tree()), "negamax"),
    (lambda: deepen(STATIC), "iter_deepen"),
    (lambda: iter_deepen(STATIC), "iter_deepen"),
    (lambda: perfect_order_leaves(sheet_tree()), "alphabeta"),
    (lambda: sheet_tree().with_static(), "minimax"),  # its values are minimax's
    # the grader's samples: "reversed_list" is a right alpha-beta where nothing is ordered,
    # "parity" a right minimax on a tree whose root is MAX (a student found the first gave
    # full marks on assignment 2)
    (lambda: _sample_alphabeta("reversed_list"), "grading_sample"),
    (lambda: _sample_minimax("parity", "minimax"), "grading_sample"),
]


def _sample_alphabeta(bug: str) -> float:
    from minimaxkit.grading import buggy_alphabeta
    from minimaxkit.student import Recorder

    return buggy_alphabeta(bug)(Recorder(sheet_tree()).root(), -math.inf, math.inf)


def _sample_minimax(bug: str, check: str) -> float:
    from minimaxkit.grading.samples.minimax import buggy_minimax
    from minimaxkit.student import Recorder

    return buggy_minimax(bug, check)(Recorder(sheet_tree()).root())


@pytest.mark.parametrize(("call", "name"), CALLS)
def test_every_search_refuses_under_its_name_until_undone(call: Callable[[], Any],
                                                          name: str) -> None:
    undo = refuse_kit_searches(lambda searched: Refused(searched))
    try:
        with pytest.raises(Refused) as refused:
            call()
    finally:
        undo()
    assert str(refused.value) == name
    call()  # searches again


def test_the_sandbox_masks_the_modules_the_refusal_reaches() -> None:
    assert set(KIT_SEARCHES) == set(SEARCH_MODULES)


def _holds_a_search(path: Path) -> bool:
    """The module imports a name every search calls first (so it calls it), or defines
    ``run_search``."""
    tree = ast.parse(path.read_text())
    for node in ast.walk(tree):
        if isinstance(node, ast.FunctionDef) and node.name == "run_search":
            return True
        if isinstance(node, ast.ImportFrom) and any(a.name in SEARCH_HOOKS for a in node.names):
            return True
    return False


def test_every_module_that_holds_a_search_is_refused() -> None:
    files = [*(KIT / "search").glob("*.py"), KIT / "deepening.py"]
    holders = {".".join(p.relative_to(KIT.parent).with_suffix("").parts)
               for p in files if _holds_a_search(p)}
    assert holders, "the searches call prepare and run_search"
    assert holders <= set(SEARCH_MODULES)


def test_the_sandbox_stub_has_the_names_the_refusal_replaces() -> None:
    """In the sandbox each search module is the stub: the refusal replaces its hooks, and any
    name read from it is a function that calls them under that name."""
    stub = types.ModuleType("stub")
    exec(compile(SEARCH_STUB, "stub.py", "exec"), stub.__dict__)
    assert all(hook in vars(stub) for hook in SEARCH_HOOKS)
    with pytest.raises(RuntimeError, match="not available while your work is graded"):
        stub.alphabeta(GameTree.from_nested([1, 2]))
    seen: list[str] = []

    def refuse(*args: Any, **kwargs: Any) -> None:
        import sys
        seen.append(sys._getframe(1).f_code.co_name)
    stub.run_search = refuse
    stub.alphabeta(GameTree.from_nested([1, 2]))
    stub.deepen()
    assert seen == ["alphabeta", "deepen"]
