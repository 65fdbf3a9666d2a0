"""A class graded in a trial course: the solution, the released notebook and every sample and
hostile submission under fixed ids, the class command, the feedback; recorded per student.
"""

from __future__ import annotations

import base64
import hashlib
import os
import subprocess
import sys
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from snapshot.normalise import Json, Places, image_record, normalise, normalise_json

WORKERS = 2  # the class command's workers: the machine has 2 cores, shared
#: The feedback page's elements that start a line of their own (the rest flows in a line).
BLOCKS = ("address", "article", "aside", "blockquote", "br", "dd", "details", "div", "dl",
          "dt", "figcaption", "figure", "footer", "form", "h1", "h2", "h3", "h4", "h5", "h6",
          "header", "hr", "li", "main", "nav", "ol", "p", "pre", "section", "summary",
          "table", "td", "th", "tr", "ul")


@dataclass(frozen=True)
class Submission:
    """One student's notebook for one assignment: code per solution cell, and where it
    came from (a sample's path in the repository, or ``solution`` / ``released``)."""

    assignment: str
    student: str
    cells: dict[str, str]
    origin: str


def class_of(repo: Path, assignment: str) -> list[Submission]:
    """The solution, the released notebook and every sample and hostile submission of
    ``assignment``. A sample's student id is its file name (seeded trees depend on the id);
    a hostile one whose name is taken is ``hostile_NAME``, as in the class tests."""
    from minimaxkit.grading.course import parse_sample, solution_cells

    source = repo / "solutions" / assignment / f"{assignment}.ipynb"
    subs = [Submission(assignment, "solution", solution_cells(source), "solution"),
            Submission(assignment, "released", {}, "released")]
    samples = repo / "tests" / "grading" / "submissions" / assignment
    hostile = repo / "tests" / "grading" / "hostile" / assignment
    for path in [*sorted(samples.glob("*.py")), *sorted(samples.glob("more/*.py")),
                 *sorted(hostile.glob("*.py"))]:
        taken = {s.student for s in subs}
        student = f"hostile_{path.stem}" if path.stem in taken else path.stem
        subs.append(Submission(assignment, student, parse_sample(path.read_text()).cells,
                               str(path.relative_to(repo))))
    return subs


def build_course(repo: Path, root: Path, subs: list[Submission]) -> None:
    """A trial course at ``root``: the repository's config and sources, each assignment
    generated, every submission in ``submitted/STUDENT/ASSIGNMENT/``."""
    from minimaxkit.grading.course import make_submission, nbgrader_api, prepare_course

    prepare_course(repo, root)
    api = nbgrader_api(root)
    for assignment in dict.fromkeys(s.assignment for s in subs):
        result = api.generate_assignment(assignment)
        if not result["success"]:
            raise RuntimeError(f"generate_assignment {assignment} failed:\n{result['log']}")
    for sub in subs:
        released = root / "assignments" / sub.assignment / f"{sub.assignment}.ipynb"
        make_submission(released, sub.cells, root / "submitted" / sub.student /
                        sub.assignment / released.name)


def course_env() -> dict[str, str]:
    """This environment, with this Python's folder on PATH (nbgrader runs ``alembic``) and
    no course secret (the committed demo salt, so that seeded trees and openings are the
    same on every machine)."""
    env = {k: v for k, v in os.environ.items() if not k.startswith("MINIMAXKIT_SECRET")}
    env["PATH"] = str(Path(sys.executable).parent) + os.pathsep + env.get("PATH", "")
    return env


def run_in_course(root: Path, *args: str) -> subprocess.CompletedProcess[str]:
    """``python -m ARGS`` in the course folder."""
    return subprocess.run([sys.executable, "-m", *args], cwd=root, env=course_env(),
                          capture_output=True, text=True, check=False)


def grade_assignment(root: Path, assignment: str, places: Places) -> dict[str, Json]:
    """The class command and then nbgrader's feedback on ``assignment``: their exit codes and
    the submissions the class command reports as not graded."""
    graded = run_in_course(root, "minimaxkit.grading.autograde", assignment,
                           "--workers", str(WORKERS))
    feedback = run_in_course(root, "nbgrader", "generate_feedback", assignment)
    not_graded = [normalise(line, places) for line in graded.stderr.splitlines()
                  if line.startswith("not graded:")]
    return {"autograde exit": graded.returncode, "not graded": sorted(not_graded),
            "feedback exit": feedback.returncode}


def gradebook_grades(root: Path, assignment: str) -> dict[str, dict[str, Json]]:
    """Per student, per grade cell: the points (autograded, and manual: None unless an
    instructor gave some), and the cell's maximum, as the gradebook holds them."""
    from nbgrader.api import Gradebook

    out: dict[str, dict[str, Json]] = {}
    with Gradebook(f"sqlite:///{root / 'gradebook.db'}") as gb:
        for sub in gb.assignment_submissions(assignment):
            grades: dict[str, Json] = {}
            for notebook in sub.notebooks:
                for grade in notebook.grades:
                    grades[grade.name] = {"score": grade.auto_score, "manual": grade.manual_score,
                                          "max": grade.max_score}
            out[sub.student.id] = grades
    return out


def verdicts(root: Path, assignment: str, student: str, places: Places) -> dict[str, Json]:
    """The trusted grader's verdict per graded test cell of the autograded notebook."""
    import nbformat

    path = root / "autograded" / student / assignment / f"{assignment}.ipynb"
    if not path.is_file():
        return {}
    out: dict[str, Json] = {}
    for cell in nbformat.read(str(path), as_version=4).cells:
        verdict = cell.metadata.get("minimaxkit", {}).get("verdict")
        if verdict is not None:
            grade_id = cell.metadata.get("nbgrader", {}).get("grade_id", "?")
            out[grade_id] = normalise_json(verdict, places)
    return out


def feedback_page(page: Path, places: Places) -> dict[str, Json] | None:
    """A feedback page as a reader sees it: its text, one line per block of text (blank
    lines dropped, runs of spaces made one), and its pictures (each ``<img>``'s text
    alternative and image, each inline ``<svg>``'s title and markup); None when there is
    no page."""
    if not page.is_file():
        return None
    from bs4 import BeautifulSoup

    soup = BeautifulSoup(page.read_text(), "html.parser")
    for hidden in soup(["script", "style", "head"]):
        hidden.decompose()
    pictures = [picture_record(img.get("alt"), img.get("src"), places)
                for img in soup.find_all("img")]
    pictures += [svg_record(svg, places) for svg in soup.find_all("svg")]
    for block in soup.find_all(BLOCKS):
        block.insert_before("\n")
        block.insert_after("\n")
    lines = (" ".join(line.split()) for line in soup.get_text().splitlines())
    text = normalise("\n".join(line for line in lines if line), places)
    return {"text": text, "pictures": pictures}


def picture_record(alt: Any, src: Any, places: Places) -> dict[str, Json]:
    """An ``<img>``: its text alternative, and its image when the page holds it (a base64
    ``data:`` address), else its address."""
    record: dict[str, Json] = {"alt": normalise(str(alt), places) if alt is not None else None}
    src = str(src or "")
    if src.startswith("data:") and ";base64," in src:
        record.update(image_record(base64.b64decode(src.split(";base64,", 1)[1])))
    else:
        record["src"] = normalise(src, places)
    return record


def svg_record(svg: Any, places: Places) -> dict[str, Json]:
    """An inline ``<svg>`` (a board of a lost game, say): its title, and the hash of its
    markup as the HTML parser writes it out again (so quoting and entity spelling in the
    page do not count; the elements, attributes and their order do)."""
    title = svg.find("title")
    markup = normalise(str(svg), places).encode()
    return {"svg": title.get_text() if title is not None else None,
            "sha256": hashlib.sha256(markup).hexdigest(), "bytes": len(markup)}


def assignment_record(root: Path, subs: list[Submission], places: Places) -> dict[str, Json]:
    """One assignment graded: the commands' outcome, and per student its origin, points per
    grade cell, verdicts and feedback text."""
    assignment = subs[0].assignment
    record = grade_assignment(root, assignment, places)
    grades = gradebook_grades(root, assignment)
    students: dict[str, Json] = {}
    for sub in sorted(subs, key=lambda s: s.student):
        page = root / "feedback" / sub.student / assignment / f"{assignment}.html"
        students[sub.student] = {
            "origin": sub.origin, "grades": grades.get(sub.student),
            "verdicts": verdicts(root, assignment, sub.student, places),
            "feedback": feedback_page(page, places)}
    return {**record, "students": students}


def record_grading(repo: Path, scratch: Path, assignments: list[str],
                   seconds: dict[str, float]) -> dict[str, Json]:
    """Each of ``assignments`` graded as a class in one trial course under ``scratch``."""
    classes = {a: class_of(repo, a) for a in assignments}
    root = scratch / "course"
    build_course(repo, root, [s for subs in classes.values() for s in subs])
    places = Places(repo, root, "<course>")
    out: dict[str, Json] = {}
    for assignment, subs in classes.items():
        start = time.perf_counter()
        out[assignment] = assignment_record(root, subs, places)
        seconds[f"grading {assignment} ({len(subs)} submissions)"] = round(
            time.perf_counter() - start, 1)
    return out


