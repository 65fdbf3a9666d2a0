"""The package's docstring examples run with the suite (``--doctest-modules``, pyproject.toml),
and the modules that show their use by examples keep them.

Each test file used to run its modules' examples from a list kept by hand (and ~125 examples
of the package were in no list); pytest now collects every module's examples itself."""

from __future__ import annotations

import doctest
import importlib
import tomllib
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[1]

#: modules whose docstrings show their use by examples (those the hand-kept lists required
#: examples of): each must keep at least one
SHOW_THEIR_USE = [
    "minimaxkit.arena.ratings", "minimaxkit.arena.swiss", "minimaxkit.deepening",
    "minimaxkit.draw", "minimaxkit.draw.alt", "minimaxkit.draw.board", "minimaxkit.draw.model",
    "minimaxkit.draw.render", "minimaxkit.draw.style", "minimaxkit.draw.svg",
    "minimaxkit.draw.tree", "minimaxkit.grading.autograde.sizes", "minimaxkit.isolation.enter",
    "minimaxkit.isolation.hostcheck", "minimaxkit.isolation.keeper",
    "minimaxkit.isolation.rules", "minimaxkit.isolation.sandboxed_kernel",
    "minimaxkit.isolation.seccomp", "minimaxkit.isolation.usage", "minimaxkit.isolation.watch",
    "minimaxkit.lecture", "minimaxkit.lecture.checks45", "minimaxkit.replay.frames",
    "minimaxkit.replay.narration", "minimaxkit.replay.views", "minimaxkit.search",
    "minimaxkit.search.core", "minimaxkit.search.transposition", "minimaxkit.trace",
    "minimaxkit.trace.stream", "minimaxkit.widgets._panel", "minimaxkit.widgets.disconnected",
    "minimaxkit.widgets.frames", "minimaxkit.widgets.play", "minimaxkit.widgets.quiz",
    "minimaxkit.widgets.savehook", "minimaxkit.widgets.step",
    # never in a list before: the game tree and the games
    "minimaxkit.tree", "minimaxkit.games.tictactoe", "minimaxkit.games.connect4",
    "minimaxkit.games.nim", "minimaxkit.game", "minimaxkit.search.knuth_moore",
]


def test_the_suite_runs_the_packages_examples() -> None:
    pytest_ini = tomllib.loads((REPO / "pyproject.toml").read_text())["tool"]["pytest"][
        "ini_options"]
    assert "--doctest-modules" in pytest_ini["addopts"].split()
    assert "minimaxkit" in pytest_ini["testpaths"]


@pytest.mark.parametrize("module", SHOW_THEIR_USE)
def test_the_module_shows_its_use(module: str) -> None:
    tests = doctest.DocTestFinder().find(importlib.import_module(module))
    assert sum(len(t.examples) for t in tests) > 0, f"{module} has no docstring example"
