"""The words "fail-hard" and "fail-soft" in their defined sense only (issue 37), as far as a
test can tell: in the lectures, the glossary, the lecture checks' messages, the assignments'
markdown and the grader's verdict texts.

The definitions (the glossary, and the shared decisions of the course): *fail-soft* returns
the best value found, which may lie outside [α, β]; *fail-hard* is the textbooks' meaning,
the value clamped into [α, β]; *one-sided fail-hard*, "the sheet's form", starts the value
at the node's own bound and returns it unclamped (the example sheet's loop, and the
machine-player tutorial's). A text breaks them when, in one sentence:

* bare "fail-hard" (not "one-sided fail-hard") is said of the example sheet or the
  tutorial, with no word of the sheet's form beside it to set the two apart;
* bare "fail-hard" is defined by the one-sided rule ("never returns less than the α it was
  given", "starts at α") or said to return more than β;
* "fail-soft" is said to clamp, or to return the bound.

And in a notebook a search run with ``fail="hard"`` is introduced by prose that speaks of
clamping, one run with ``fail="one-sided"`` by prose that names the sheet's form.
"""

from __future__ import annotations

import ast
import re
from collections.abc import Iterator
from pathlib import Path

import nbformat
import pytest

REPO = Path(__file__).resolve().parents[1]
NOTEBOOKS = sorted((REPO / "notebooks").glob("*.ipynb"))
ASSIGNMENTS = sorted((REPO / "assignments").glob("*/*.ipynb"))
LECTURE_CODE = sorted((REPO / "minimaxkit" / "lecture").glob("*.py"))
VERDICT_CODE = sorted((REPO / "minimaxkit" / "grading" / "verdicts").glob("*.py"))
DOCS = [REPO / "docs" / "lecture_time.md"]

BARE_HARD = re.compile(r"(?<!one-sided )(?<!one-sided\n)\bfail-hard\b", re.I)
SHEET = re.compile(r"example sheet|the sheet's (loop|own|table|search)|\btutorial", re.I)
SHEETS_FORM = re.compile(r"one-sided|the sheet's form", re.I)
ONE_SIDED_RULE = re.compile(r"never returns? less than the α|starts? (its value )?at α|"
                            r"more than (its )?β|returns? 9 at F", re.I)
SOFT_CLAMPS = re.compile(r"\bfail-soft\b[^.;]*\b(clamp|returns? (the bound|α or β|alpha))",
                         re.I)


def sentences(text: str) -> Iterator[str]:
    """The sentences of a text: split at sentence ends, bullets, table cells and blank
    lines; listings (```) left out."""
    text = re.sub(r"```.*?```", " ", text, flags=re.S)
    for part in re.split(r"(?<=[.!?;])\s+|\n\s*[*-] |\n\s*\n|\|", text):
        part = re.sub(r"\s+", " ", part).strip()
        if part:
            yield part


def misuses(text: str) -> list[str]:
    """The sentences of ``text`` that use fail-hard or fail-soft outside their sense."""
    wrong = []
    for s in sentences(text):
        if BARE_HARD.search(s):
            if SHEET.search(s) and not SHEETS_FORM.search(s):
                wrong.append(f"fail-hard said of the sheet or the tutorial: {s}")
            elif ONE_SIDED_RULE.search(s) and not SHEETS_FORM.search(s):
                wrong.append(f"fail-hard defined one-sidedly: {s}")
        if SOFT_CLAMPS.search(s) and "fail-hard" not in s:
            wrong.append(f"fail-soft said to clamp: {s}")
    return wrong


def test_the_rules_catch_the_old_misuses() -> None:
    """Each rule can fail: the sentences issue 37 found, and right ones."""
    old = [
        "This is called **fail-hard**: a node never returns less than the α it was given.",
        "Fail-hard (the example sheet, the tutorial) and fail-soft return the minimax value.",
        "fail-soft (return v, as the lectures do) or fail-hard (return α or β, as the example "
        "sheet does)",
        "Fail-soft clamps the value into the window.",
    ]
    assert all(misuses(s) for s in old), [s for s in old if not misuses(s)]
    right = [
        "*fail-hard*, in the textbooks' sense: the returned value is clamped into [α, β].",
        "*one-sided fail-hard*, the example sheet's form: v starts at the node's own bound.",
        "The sheet's loop is not textbook fail-hard: it is the sheet's form, one-sided.",
        "Fail-soft returns the best value it found, which may lie outside [α, β].",
    ]
    assert not any(misuses(s) for s in right), [misuses(s) for s in right]


def markdown_of(path: Path) -> str:
    nb = nbformat.read(path, as_version=4)
    return "\n\n".join(c.source for c in nb.cells if c.cell_type == "markdown")


def strings_of(path: Path) -> str:
    """Every string in a module: docstrings, messages, the constant parts of f-strings."""
    tree = ast.parse(path.read_text(encoding="utf-8"))
    parts = [n.value for n in ast.walk(tree)
             if isinstance(n, ast.Constant) and isinstance(n.value, str)]
    return "\n\n".join(parts)


@pytest.mark.parametrize("path", NOTEBOOKS, ids=lambda p: p.name)
def test_lectures(path: Path) -> None:
    assert misuses(markdown_of(path)) == []


@pytest.mark.parametrize("path", LECTURE_CODE + DOCS, ids=lambda p: p.name)
def test_lecture_checks_and_docs(path: Path) -> None:
    text = strings_of(path) if path.suffix == ".py" else path.read_text(encoding="utf-8")
    assert misuses(text) == []


@pytest.mark.parametrize("path", ASSIGNMENTS, ids=lambda p: p.name)
def test_assignments_markdown(path: Path) -> None:
    assert misuses(markdown_of(path)) == []


@pytest.mark.parametrize("path", VERDICT_CODE, ids=lambda p: p.name)
def test_verdict_texts(path: Path) -> None:
    assert misuses(strings_of(path)) == []


def test_the_graders_labels_name_each_convention_by_its_return() -> None:
    """The grader's convention labels use the word of the convention each one grades by:
    a convention that runs the kit's search with ``fail="one-sided"`` is labelled
    one-sided fail-hard, never bare fail-hard."""
    from minimaxkit.grading.verdicts.conventions import CONVENTIONS, convention_label
    from minimaxkit.lecture.conventions import FAIL_WORDS

    for name, (_, fail) in CONVENTIONS.items():
        label = convention_label([name])
        assert FAIL_WORDS[fail] in label, (name, fail, label)
        if fail == "one-sided":
            assert not BARE_HARD.search(label), (name, label)


@pytest.mark.parametrize("path", NOTEBOOKS, ids=lambda p: p.name)
def test_each_search_is_introduced_in_its_own_words(path: Path) -> None:
    """A cell that runs fail="hard" follows prose about clamping; one that runs
    fail="one-sided" follows prose that names the sheet's form."""
    nb = nbformat.read(path, as_version=4)
    prose = ""
    for cell in nb.cells:
        if cell.cell_type == "markdown":
            prose = (prose + "\n" + cell.source)[-3000:]
            continue
        if 'fail="hard"' in cell.source:
            assert "clamp" in prose, cell.source
        if 'fail="one-sided"' in cell.source:
            assert SHEETS_FORM.search(prose), cell.source
