"""The stored test data: current with the reference searches, consistent with the notebooks,
and never released when hidden."""

from __future__ import annotations

import json
import re
from pathlib import Path

import nbformat
import pytest

from minimaxkit.classroom.refresh import stale
from minimaxkit.classroom.trial import parse_sample

REPO = Path(__file__).resolve().parents[2]
ASSIGNMENTS = ["a1_minimax", "a2_alphabeta", "a3_move_ordering", "a4_deepening"]
GRADE_CALL = re.compile(r'grade\("(\w+)", "(\w+)", points=(\d+)\)')


def test_stored_references_equal_what_the_reference_searches_give_now() -> None:
    assert stale(REPO / "solutions") == [], (
        "run: python -m minimaxkit.grading.refresh solutions/ (then regenerate assignments)")


@pytest.mark.parametrize("name", ASSIGNMENTS)
def test_every_test_cell_has_data_and_consistent_points(name: str) -> None:
    source = REPO / "solutions" / name
    nb = nbformat.read(str(source / f"{name}.ipynb"), as_version=4)
    visible = json.loads((source / "tests.json").read_text())
    hidden = json.loads((source / "hidden_tests.json").read_text())
    assert visible["assignment"] == hidden["assignment"] == name
    asked = set()
    for cell in nb.cells:
        meta = cell.metadata.get("nbgrader", {})
        if not meta.get("grade") or meta.get("solution"):
            continue
        match = GRADE_CALL.search(cell.source)
        assert match, f"test cell {meta['grade_id']} has no grade(...) call"
        fn, question, points = match.groups()
        assert int(points) == meta["points"], f"{meta['grade_id']}: points differ"
        # no hidden region: the trusted grader adds the hidden trees, so the cell is
        # released as it is and nbgrader's checksum of it stays right
        assert "HIDDEN TESTS" not in cell.source and "hidden" not in cell.source.split(
            "grade(", 1)[1]
        assert question in visible["questions"] and question in hidden["questions"]
        trees = (len(visible["questions"][question].get("trees", []))
                 + len(hidden["questions"][question].get("trees", []))
                 + len(hidden["questions"][question].get("seeded", [])))
        assert trees == meta["points"], f"{question}: one point per tree"
        asked.add(question)
    assert asked == set(visible["questions"])


@pytest.mark.parametrize("name", ASSIGNMENTS)
def test_nothing_hidden_is_released(name: str) -> None:
    released = REPO / "assignments" / name
    assert sorted(p.name for p in released.iterdir()) == [f"{name}.ipynb", "tests.json"]
    assert (released / "tests.json").read_text() == \
        (REPO / "solutions" / name / "tests.json").read_text()
    text = (released / f"{name}.ipynb").read_text()
    assert "BEGIN HIDDEN TESTS" not in text and "hidden_trees = True" not in text
    assert "BEGIN SOLUTION" not in text
    hidden = json.loads((REPO / "solutions" / name / "hidden_tests.json").read_text())
    for question in hidden["questions"].values():
        for entry in question.get("trees", []):
            assert json.dumps(entry["tree"]) not in (released / "tests.json").read_text()


def test_the_config_keeps_hidden_data_out_of_releases() -> None:
    config = (REPO / "nbgrader_config.py").read_text()
    assert '"hidden_*"' in config
    assert 'source_directory = "solutions"' in config
    assert 'release_directory = "assignments"' in config


@pytest.mark.parametrize("name", ASSIGNMENTS)
def test_test_cells_are_released_as_they_are(name: str) -> None:
    """Without hidden regions the released test cell equals the source's, so nbgrader's
    stored checksum matches what autograde sees (no 'checksum ... has changed' warning)."""
    def tests(folder: str) -> dict[str, str]:
        nb = nbformat.read(str(REPO / folder / name / f"{name}.ipynb"), as_version=4)
        return {c.metadata["nbgrader"]["grade_id"]: c.source for c in nb.cells
                if c.metadata.get("nbgrader", {}).get("grade")
                and not c.metadata["nbgrader"].get("solution")}
    assert tests("solutions") == tests("assignments") != {}


def test_sample_submissions_say_what_they_should_score() -> None:
    samples = sorted((REPO / "tests" / "grading" / "submissions").glob("*/*.py"))
    assert len(samples) >= 20
    for path in samples:
        sample = parse_sample(path.read_text())
        assert sample.cells and sample.expect, f"{path.name}: no cells or no expect line"


def _grading_modules() -> list[str]:
    import pkgutil

    import minimaxkit.grading as grading
    import minimaxkit.isolation as isolation

    return ["minimaxkit.student", "minimaxkit.support.lazy", grading.__name__,
            isolation.__name__] + \
        sorted(m.name for pkg in (grading, isolation)
               for m in pkgutil.walk_packages(pkg.__path__, pkg.__name__ + ".")
               if not m.name.endswith("__main__"))


def test_the_grading_modules_show_their_use() -> None:
    """Most modules' docstrings hold a runnable example (the aliases and packages need none)."""
    import doctest
    import importlib

    finder = doctest.DocTestFinder()
    found = [m for m in _grading_modules()
             if any(t.examples for t in finder.find(importlib.import_module(m)))]
    assert len(found) >= 20, found


def test_a_kernel_start_imports_none_of_the_searches() -> None:
    """The sandboxed kernel's first step (``python -m minimaxkit.grading.autograde.kernel``)
    and the scratch copy (``enter.py``, run by its path) import neither the searches nor the
    grader: the packages import their modules on first use (``minimaxkit.support.lazy``)."""
    import subprocess
    import sys

    probe = ("import sys, minimaxkit.grading.autograde.kernel\n"
             "print(sorted(m for m in sys.modules if m.startswith('minimaxkit')))")
    done = subprocess.run([sys.executable, "-c", probe], capture_output=True, text=True,
                          check=True)
    assert eval(done.stdout) == ["minimaxkit", "minimaxkit.grading",
                                 "minimaxkit.grading.autograde",
                                 "minimaxkit.grading.autograde.kernel",
                                 "minimaxkit.grading.testdata",
                                 "minimaxkit.grading.testdata.places", "minimaxkit.isolation",
                                 "minimaxkit.isolation.bwrap",
                                 "minimaxkit.isolation.sandboxed_kernel", "minimaxkit.support",
                                 "minimaxkit.support.aliases", "minimaxkit.support.lazy"]


def test_lazy_names_stay_what_the_package_exports() -> None:
    """``minimaxkit.grading.compare`` is the function, also after other modules of grading
    were imported first."""
    import subprocess
    import sys

    probe = ("import minimaxkit.grading.api.grade, minimaxkit.grading.verdicts.compare\n"
             "from minimaxkit.grading import compare, explore, grade\n"
             "from minimaxkit import GameTree, alphabeta\n"
             "print(compare.__module__, explore.__module__, grade.__module__, "
             "GameTree.__name__, alphabeta.__module__)")
    done = subprocess.run([sys.executable, "-c", probe], capture_output=True, text=True,
                          check=True)
    assert done.stdout.split() == ["minimaxkit.grading.verdicts.compare",
                                   "minimaxkit.grading.api.explore",
                                   "minimaxkit.grading.api.grade", "GameTree",
                                   "minimaxkit.search.fronts"]
