"""How long a lecture takes a student: the model behind the README's minutes.

A lecture's *core* is every cell before its first heading that starts ``## Optional``;
what follows is optional depth. The model adds up, for the core (or for the optional part):

* **prose**: its words (:func:`prose_words`) at :data:`WORDS_PER_MINUTE`, the pace of
  reading to learn, with the pauses to look back at a formula or a table;
* **listings**: each line of pseudo-code in the prose (a ``` block) at
  :data:`LISTING_SECONDS`, read against the text beside it;
* **code cells**: :data:`CELL_MINUTES` each, to read the cell, run it and read its output
  (the lectures' cells are a few lines; their median is two); an exercise's own cells (its
  answer, its check, its worked answer) count in the exercise's minutes instead;
* **widgets**: a step widget stepped through, :data:`STEP_SECONDS` a step, and
  :data:`WIDGET_START` to take its picture in (a compare widget shows two pictures a step:
  :data:`COMPARE_FACTOR` times as long); its steps are in the cell's metadata
  (``"minimaxkit": {"steps": n}``, checked against the widget by tests/test_notebooks.py),
  else :data:`MAX_STEPS`; a quiz answered once and a game played, :data:`WIDGET_MINUTES`;
* **exercises**: each exercise's own minutes (``EXERCISES[name].minutes``), the time to
  write an answer, run its check and fix one slip, for a student who has read the section.

:data:`CORE_MINUTES` is one class: every lecture's core must fit. The constants are the
model's; ``docs/lecture_time.md`` says where each comes from and how a timed walk-through
calibrates them.

>>> import nbformat
>>> nb = nbformat.v4.new_notebook(cells=[
...     nbformat.v4.new_markdown_cell("# Lecture 9 · Words\\n\\n" + "word " * 196),
...     nbformat.v4.new_code_cell("1 + 1"),
...     nbformat.v4.new_code_cell('check("km_4_5", km)'),
...     nbformat.v4.new_markdown_cell("## Optional: more\\n\\n" + "more " * 98),
...     nbformat.v4.new_code_cell("StepWidget(alphabeta(tree))")])
>>> lecture_time(nb)
LectureTime(prose=2.0, listings=0.0, cells=0.5, widgets=0.0, exercises=2.0)
>>> lecture_time(nb, part="optional")
LectureTime(prose=1.0, listings=0.0, cells=0.5, widgets=4.5, exercises=0.0)
>>> lecture_time(nb).total, lecture_time(nb, part="optional").total
(4.5, 6.0)
"""

from __future__ import annotations

import math
import re
from dataclasses import dataclass, fields
from typing import Any

__all__ = ["LectureTime", "lecture_time", "prose_words", "listing_lines", "exercises_in",
           "widgets_in", "widget_minutes", "core_cells", "steps_of", "WORDS_PER_MINUTE",
           "LISTING_SECONDS", "CELL_MINUTES", "WIDGET_MINUTES", "STEP_SECONDS", "WIDGET_START",
           "COMPARE_FACTOR", "MAX_STEPS", "CORE_MINUTES", "OPTIONAL_HEADING"]

#: Words of prose a minute: reading to learn, with pauses at formulas and tables.
WORDS_PER_MINUTE = 100
#: Seconds for a line of pseudo-code in the prose.
LISTING_SECONDS = 6
#: Minutes for a code cell: read it, run it, read its output.
CELL_MINUTES = 0.5
#: Seconds to read one step of a step widget (its picture and its sentence).
STEP_SECONDS = 5
#: Minutes to take in a step widget's first picture and its legend.
WIDGET_START = 0.5
#: A compare widget's step shows two pictures and what differs: this many times a step.
COMPARE_FACTOR = 1.5
#: The steps assumed for a step widget whose cell does not say.
MAX_STEPS = 48
#: Minutes for a quiz answered once and a game played once.
WIDGET_MINUTES = {"QuizWidget": 5.0, "PlayWidget": 3.0}
STEPPED = {"StepWidget": 1.0, "CompareWidget": COMPARE_FACTOR}
#: One class: the most a lecture's core may take.
CORE_MINUTES = 50
#: A markdown cell that starts with this ends the core: what follows is optional.
OPTIONAL_HEADING = "## Optional"

#: What is not prose in a markdown cell: ``` listings, maths ($$...$$ and $...$), inline
#: code, HTML tags and link targets (the link's text stays).
_NOT_PROSE = [(r"```.*?```", re.S), (r"\$\$.*?\$\$|\$[^$\n]*\$", re.S), (r"`[^`\n]*`", 0),
              (r"</?[A-Za-z][^<>]*>", 0), (r"(?<=\])\([^)\s]*\)", 0)]
_WORD = re.compile(r"[\wα-ωΑ-Ω][\w'’\-]*")
_CHECK = re.compile(r'^check\("(\w+)"', re.M)
_WIDGET = re.compile(r"^(\w+Widget)\(", re.M)


@dataclass(frozen=True)
class LectureTime:
    """Minutes of a lecture's part, by what they are spent on."""

    prose: float
    listings: float
    cells: float
    widgets: float
    exercises: float

    @property
    def total(self) -> float:
        """All the minutes, rounded to a tenth."""
        return round(sum(getattr(self, f.name) for f in fields(self)), 1)

    @property
    def minutes(self) -> int:
        """All the minutes, to the nearest whole minute (a half rounded up), as the README
        gives them.

        >>> LectureTime(46.5, 0, 0, 0, 0).minutes
        47
        """
        return math.floor(self.total + 0.5)


def _markdown(cells: list[Any]) -> list[str]:
    return [c.source for c in cells if c.cell_type == "markdown"]


def _code(cells: list[Any]) -> list[str]:
    return [c.source for c in cells if c.cell_type == "code"]


def prose_words(cells_or_notebook: Any) -> int:
    """Words of prose: the words of markdown cells, without listings, maths, inline code,
    HTML tags and link targets; a word starts with a letter or digit and runs on through
    letters, digits, ' and -.

    >>> import nbformat
    >>> prose_words([nbformat.v4.new_markdown_cell("α and `code` [β](x.ipynb), it's")])
    4
    """
    words = 0
    for text in _markdown(_cells(cells_or_notebook)):
        for pattern, flags in _NOT_PROSE:
            text = re.sub(pattern, " ", text, flags=flags)
        words += len(_WORD.findall(text))
    return words


def listing_lines(cells: Any) -> int:
    """Lines of ``` listings in the markdown cells (their fences not counted)."""
    blocks = [b for text in _markdown(_cells(cells))
              for b in re.findall(r"```[^\n]*\n(.*?)```", text, re.S)]
    return sum(1 for b in blocks for line in b.splitlines() if line.strip())


def exercises_in(cells: Any) -> list[str]:
    """The exercises whose check cells the cells hold, in order."""
    return [m for src in _code(_cells(cells)) for m in _CHECK.findall(src)]


def widgets_in(cells: Any) -> list[str]:
    """The kind of each widget a cell shows as its value (``StepWidget(...)``)."""
    return [m for src in _code(_cells(cells)) for m in _WIDGET.findall(src)]


def steps_of(cell: Any) -> int | None:
    """The steps a step widget's cell says its widget has (its metadata), or None."""
    steps = cell.get("metadata", {}).get("minimaxkit", {}).get("steps")
    return steps if isinstance(steps, int) else None


def widget_minutes(cell: Any) -> float:
    """The model's minutes for the widget a cell shows (0 for a cell with none)."""
    kinds = _WIDGET.findall(cell.source) if cell.cell_type == "code" else []
    total = 0.0
    for kind in kinds:
        if kind in STEPPED:
            steps = steps_of(cell) or MAX_STEPS
            total += WIDGET_START + STEPPED[kind] * steps * STEP_SECONDS / 60
        else:
            total += WIDGET_MINUTES.get(kind, 0.0)
    return total


def _exercise_cell(cell: Any) -> bool:
    """An exercise's answer, check or worked answer: counted in the exercise's minutes."""
    tags = cell.get("metadata", {}).get("tags", [])
    return "exercise" in tags or "answer" in tags or bool(_CHECK.match(cell.source))


def _cells(cells_or_notebook: Any) -> list[Any]:
    return list(getattr(cells_or_notebook, "cells", cells_or_notebook))


def core_cells(notebook: Any) -> tuple[list[Any], list[Any]]:
    """The notebook's cells split where the core ends: (core, optional)."""
    cells = _cells(notebook)
    for i, cell in enumerate(cells):
        if cell.cell_type == "markdown" and cell.source.startswith(OPTIONAL_HEADING):
            return cells[:i], cells[i:]
    return cells, []


def lecture_time(notebook: Any, part: str = "core") -> LectureTime:
    """The model's minutes for the notebook's ``part``: ``"core"``, ``"optional"`` or
    ``"all"``. An exercise the kit does not know counts nothing (its check says so)."""
    from .exercises import EXERCISES

    core, optional = core_cells(notebook)
    cells = {"core": core, "optional": optional, "all": core + optional}[part]
    code = [c for c in cells if c.cell_type == "code" and not _exercise_cell(c)]
    return LectureTime(
        prose=round(prose_words(cells) / WORDS_PER_MINUTE, 1),
        listings=round(listing_lines(cells) * LISTING_SECONDS / 60, 1),
        cells=len(code) * CELL_MINUTES,
        widgets=round(sum(widget_minutes(c) for c in cells), 1),
        exercises=float(sum(EXERCISES[n].minutes for n in exercises_in(cells)
                            if n in EXERCISES)))


def main() -> None:  # pragma: no cover - a report for instructors
    """Print each lecture's modelled minutes, core and optional."""
    from pathlib import Path

    import nbformat

    folder = Path(__file__).resolve().parents[2] / "notebooks"
    for path in sorted(folder.glob("*.ipynb")):
        nb = nbformat.read(path, as_version=4)
        core, extra = lecture_time(nb), lecture_time(nb, "optional")
        print(f"{path.stem:32} core {core.total:5.1f} min  {core}  optional {extra.total:.1f}")


if __name__ == "__main__":  # pragma: no cover
    main()
