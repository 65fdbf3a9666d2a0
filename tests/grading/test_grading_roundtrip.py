"""The real nbgrader round trip, on the session's graded class (graded_class.py): every
assignment generated (and the committed assignments/ checked current), the released notebooks,
the solutions and the sample submissions (one also through zip_collect from an LMS download)
submitted, autograded by the class command, feedback generated, grades exported. Here, as a
student, ``nbgrader validate`` of the solution, the released notebook and the bug samples.
"""

from __future__ import annotations

import base64
import filecmp
import html
import re
import subprocess
import sys
import xml.etree.ElementTree as ET
from pathlib import Path
from typing import Any

import nbformat
import pytest
from graded_class import LMS_ID, GradedClass

from minimaxkit.classroom.trial import make_submission, parse_sample, solution_cells

#: the graded class may be built in this module's first test, under load
pytestmark = [pytest.mark.slow, pytest.mark.timeout(3600)]

REPO = Path(__file__).resolve().parents[2]
SAMPLES = REPO / "tests" / "grading" / "submissions"
ASSIGNMENTS = ["a1_minimax", "a2_alphabeta", "a3_move_ordering", "a4_deepening"]
LMS_STUDENT = ("a1_minimax", LMS_ID)


def population(assignment: str) -> list[str]:
    """The students of the round trip: the released notebook, the solution, the samples (and
    for a1 the LMS download's student)."""
    return ["released", "solution", *(p.stem for p in sorted((SAMPLES / assignment).glob(
        "*.py")))] + ([LMS_ID] if assignment == LMS_STUDENT[0] else [])


@pytest.fixture(scope="module")
def trial(request: pytest.FixtureRequest,
          tmp_path_factory: pytest.TempPathFactory) -> dict[str, Any]:
    base = tmp_path_factory.mktemp("nbgrader")
    # a student validating in their own folder: the solution passes, the released one fails
    lab = base / "lab"
    make_submission(REPO / "assignments" / "a2_alphabeta" / "a2_alphabeta.ipynb",
                    solution_cells(REPO / "solutions" / "a2_alphabeta" / "a2_alphabeta.ipynb"),
                    lab / "done" / "a2_alphabeta.ipynb")
    make_submission(REPO / "assignments" / "a2_alphabeta" / "a2_alphabeta.ipynb", {},
                    lab / "as_released" / "a2_alphabeta.ipynb")
    validate = subprocess.Popen(
        [sys.executable, "-m", "nbgrader", "validate", "done/a2_alphabeta.ipynb",
         "as_released/a2_alphabeta.ipynb"], cwd=lab, stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT, text=True)
    # the bug samples as a student validates them before submitting: visible trees only
    notebooks = []
    for assignment in ASSIGNMENTS:
        for path in bug_samples(assignment):
            notebooks.append(f"{assignment}/{path.stem}/{assignment}.ipynb")
            make_submission(REPO / "assignments" / assignment / f"{assignment}.ipynb",
                            parse_sample(path.read_text()).cells, lab / notebooks[-1])
    validate_bugs = subprocess.Popen(
        [sys.executable, "-m", "nbgrader", "validate", *notebooks],
        cwd=lab, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
    merged_validate = validate.communicate(timeout=300)[0]
    merged_bugs = validate_bugs.communicate(timeout=600)[0]
    graded: GradedClass = request.getfixturevalue("graded")  # built meanwhile, if it was not
    merged: dict[str, Any] = {"scores": {}, "feedback": {}, "csv": [graded.csv()],
                              "errors": graded.errors, "roots": [graded.root()],
                              "graded": graded}
    for assignment in ASSIGNMENTS:
        for student in population(assignment):
            found = graded.student(assignment, student)
            merged["scores"].setdefault(assignment, {})[student] = found.scores
            if found.feedback.is_file():
                merged["feedback"].setdefault(assignment, {})[student] = str(found.feedback)
    merged["validate"], merged["validate_bugs"] = merged_validate, merged_bugs
    return merged


def bug_samples(assignment: str) -> list[Path]:
    """The sample submissions that carry one catalogued bug (a ``# bug:`` header line)."""
    return [p for p in sorted((SAMPLES / assignment).glob("*.py"))
            if re.search(r"^# bug: \w+$", p.read_text(), re.M)]


def bug_of(path: Path) -> str:
    found = re.search(r"^# bug: (\w+)$", path.read_text(), re.M)
    assert found is not None
    return found.group(1)


def autograded_text(trial: dict[str, Any], assignment: str, student: str) -> str:
    return str(trial["graded"].student(assignment, student).text())


def cell_outputs(trial: dict[str, Any], assignment: str, student: str) -> dict[str, list[Any]]:
    """grade_id -> the outputs of that test cell in the autograded notebook."""
    nb = trial["graded"].student(assignment, student).notebook()
    return {c.metadata["nbgrader"]["grade_id"]: c.outputs for c in nb.cells
            if c.metadata.get("nbgrader", {}).get("grade") and c.cell_type == "code"}


def max_points(assignment: str) -> dict[str, float]:
    nb = nbformat.read(str(REPO / "solutions" / assignment / f"{assignment}.ipynb"), 4)
    return {c.metadata["nbgrader"]["grade_id"]: float(c.metadata["nbgrader"]["points"])
            for c in nb.cells if c.metadata.get("nbgrader", {}).get("grade")}


def test_nothing_failed(trial: dict[str, Any]) -> None:
    assert trial["errors"] == []


def test_committed_assignments_are_what_nbgrader_generates_now(trial: dict[str, Any]) -> None:
    for name in ASSIGNMENTS:
        generated = trial["roots"][0] / "assignments" / name
        cmp = filecmp.dircmp(generated, REPO / "assignments" / name)
        assert not (cmp.left_only or cmp.right_only), f"{name}: files differ"
        for f in cmp.common_files:
            assert (generated / f).read_bytes() == (REPO / "assignments" / name / f).read_bytes(), (
                f"assignments/{name}/{f} is out of date: regenerate it with "
                f"nbgrader generate_assignment {name} --force (see docs/grading.md)")


@pytest.mark.parametrize("name", ASSIGNMENTS)
def test_released_notebooks_fail_and_solutions_pass(trial: dict[str, Any], name: str) -> None:
    full = max_points(name)
    assert trial["scores"][name]["released"] == {k: 0.0 for k in full}
    assert trial["scores"][name]["solution"] == full


def test_sample_submissions_score_as_expected_with_the_right_message(
        trial: dict[str, Any]) -> None:
    wrong = []
    for path in sorted(SAMPLES.glob("a[1-4]_*/*.py")):
        assignment, student = path.parent.name, path.stem
        sample = parse_sample(path.read_text())
        got = trial["scores"][assignment][student]
        for cell, points in sample.expect.items():
            if abs(got[cell] - points) > 0.011:
                wrong.append(f"{assignment}/{student}: {cell} = {got[cell]}, expected {points}")
        text = " ".join(autograded_text(trial, assignment, student).split())  # unwrapped
        wrong += [f"{assignment}/{student}: no {m!r} in its output" for m in sample.messages
                  if " ".join(m.split()) not in text]
    assert wrong == []


def test_validating_in_the_lab_runs_the_visible_trees(trial: dict[str, Any]) -> None:
    done, released = trial["validate"].split("Validating")[1:]
    assert "Success! Your notebook passes all the tests." in done
    # the Validate dialog shows the cell's stderr: the verdict's short form, not nbgrader's
    # "Partial credit; passed some but not all of the tests"
    assert "VALIDATION FAILED" in released and "Partial credit" not in released
    flat = " ".join(released.split())
    assert "alphabeta: 0 of 6 points on the visible trees" in flat
    assert "✘ sheet: raised NotImplementedError" in flat


def test_lms_download_is_collected_and_graded(trial: dict[str, Any]) -> None:
    assignment = LMS_STUDENT[0]
    assert trial["scores"][assignment]["lovelaceada"] == max_points(assignment)


def test_feedback_shows_verdicts_and_pictures_but_no_hidden_code(trial: dict[str, Any]) -> None:
    pages = {(a, s): Path(p).read_text() for a, per in trial["feedback"].items()
             for s, p in per.items()}
    assert len(pages) == sum(len(v) for v in trial["scores"].values())
    for (_, student), page in pages.items():
        text = html.unescape(re.sub(r"<[^>]+>", "", page))
        assert "BEGIN HIDDEN TESTS" not in text and "hidden_trees" not in text, student
        assert "its hidden trees are added" in text  # the test cell, as released
        assert re.search(r"of \d+ points", text), student
    beta_max = pages[("a2_alphabeta", "beta_max")]
    text = html.unescape(re.sub(r"<[^>]+>", "", beta_max))
    assert "likely bug" in text and "the recitation's erratum" in text
    assert "they part at node F (MAX, path (0, 1))" in text
    assert "✔ yours (a random tree made for you)" in html.unescape(
        pages[("a2_alphabeta", "solution")])
    # two pictures, SVG images: the test cell's (the first failing tree's, with the marks)
    # right after that tree's verdict and before the next tree's, and the "Look at it"
    # cell's finished search (no widget in a feedback page)
    pictures = re.findall(r'src="data:image/svg\+xml;base64,([A-Za-z0-9+/=]+)"', beta_max)
    assert len(pictures) == 2
    at = beta_max.index(pictures[0])
    assert beta_max.rindex("✘ sheet (", 0, at) < beta_max.rindex("evaluated but should have been",
                                                                0, at)
    assert "sheet-binary" not in html.unescape(beta_max[beta_max.rindex("✘ sheet (", 0, at):at])
    assert "sheet-binary" in html.unescape(beta_max[at:])
    look = ET.fromstring(base64.b64decode(pictures[1]))
    look_classes = [e.get("class", "") for e in look.iter()]
    assert sum(c.startswith("node ") for c in look_classes) == 40
    assert "edge pruned" in look_classes and not any(c.startswith("mark") for c in look_classes
                                                     if c != "marks")
    svg = ET.fromstring(base64.b64decode(pictures[0]))
    classes = [e.get("class", "") for e in svg.iter()]
    assert sum(c.startswith("node ") for c in classes) == 40  # 002's tree
    assert "mark extra" in classes and "mark diverge" in classes
    assert "data:image/png" not in beta_max
    # every picture in every page has a text alternative of its own (not nbconvert's filler)
    for (_, student), page in pages.items():
        alts = re.findall(r"<img\b[^>]*\balt=\"([^\"]*)\"", page)
        assert len(alts) == page.count("<img"), student
        assert not any("No description" in a or len(a) < 20 for a in alts), (student, alts)
    tag = re.findall(r'<img\b[^>]*\bclass="mmk-picture"[^>]*>', beta_max)[0]
    alt = html.unescape(re.search(r'\balt="([^"]*)"', tag).group(1))  # type: ignore[union-attr]
    assert "your differences marked" in alt and "evaluated, should have been cut: R, S" in alt
    assert svg.get("role") == "img" and svg.get("aria-label") == alt


def test_grades_export_to_csv(trial: dict[str, Any]) -> None:
    rows = [line.split(",") for csv in trial["csv"] for line in csv.strip().splitlines()]
    header = rows[0]
    assert header[:4] == ["assignment", "duedate", "timestamp", "student_id"]
    score = {(r[0], r[3]): float(r[header.index("score")]) for r in rows if r != header}
    assert score[("a2_alphabeta", "solution")] == 8.0
    assert score[("a2_alphabeta", "no_pruning")] == 3.5
    assert score[("a2_alphabeta", "released")] == 0.0


CORRECT = ["solution", "fail_hard", "fail_soft", "maxmin_minmax", "negamax", "strict",
           "strict_hard"]


def test_correct_styles_get_full_marks_under_the_convention_they_are_written_in(
        trial: dict[str, Any]) -> None:
    scores = trial["scores"]["a2_alphabeta"]
    assert {s: scores[s]["test_alphabeta"] for s in CORRECT} == {s: 8.0 for s in CORRECT}
    strict = autograded_text(trial, "a2_alphabeta", "strict_hard").splitlines()[0]
    assert strict == ("alphabeta: 8 of 8 points, graded as strict cuts (v > β, v < α), "
                      "fail-hard")


@pytest.mark.parametrize("assignment", ["a1_minimax", "a2_alphabeta", "a3_move_ordering",
                                        "a4_deepening"])
def test_each_catalogued_bug_is_graded_under_one_convention_and_named(
        trial: dict[str, Any], assignment: str) -> None:
    from minimaxkit.grading.verdicts.bugs import BUGS

    samples = bug_samples(assignment)
    assert samples, assignment
    best_wrong = {}
    for path in samples:
        bug = bug_of(path)
        assert bug in BUGS, path
        text = autograded_text(trial, assignment, path.stem)
        flat = " ".join(text.split())
        # the named bug, in the verdict (all trees, after grading)
        assert " ".join(BUGS[bug].advice.split(':')[0].split()) in flat, (path.stem, text[:3000])
        # one convention for the whole submission: said once per test cell, and every
        # reference the trees are compared with is in it
        for head in re.findall(r"^\w+: [\d./]+ of [\d./]+ points, graded as (.*)$", text,
                               re.M):
            used = re.findall(r"the reference \((.*?)\) evaluates", flat)
            assert all(u == head for u in used), (path.stem, head, set(used))
        scores = trial["scores"][assignment][path.stem]
        best_wrong[path.stem] = sum(scores.values())
    # a score below what every correct program gets on the same trees (full marks)
    full = sum(max_points(assignment).values())
    assert all(total < full for total in best_wrong.values()), best_wrong
    if assignment == "a2_alphabeta":
        # the 6 more wrong programs of issue 16 are among them
        assert {bug_of(p) for p in samples} >= {
            "alpha_not_updated", "beta_not_updated", "root_forgets_alpha", "over_pruning",
            "wrong_window", "cut_before_update", "not_passed_max", "not_passed_min",
            "wrong_comparison", "beta_max", "alpha_min", "swapped", "no_pruning"}


def test_a_student_validating_sees_the_score_the_convention_and_the_bug(
        trial: dict[str, Any]) -> None:
    """Before submitting, on the visible trees only: nbgrader validate (the Validate button)
    shows each failing cell's verdict, with the bug that accounts for the visible trees."""
    from minimaxkit.grading.verdicts.bugs import BUGS

    sections = {}
    for part in trial["validate_bugs"].split("Validating '")[1:]:
        notebook = Path(part.split("'")[0])
        sections[(notebook.parent.parent.name, notebook.parent.name)] = " ".join(part.split())
    for assignment in ASSIGNMENTS:
        for path in bug_samples(assignment):
            shown = sections[(assignment, path.stem)]
            assert "VALIDATION FAILED" in shown, path.stem
            assert "Partial credit; passed some but not all" not in shown  # our verdict
            assert " ".join(BUGS[bug_of(path)].advice.split(':')[0].split()) in shown, (path.stem,
                                                                          shown[:3000])
            if assignment == "a2_alphabeta":
                # the convention it is graded under, or (a search that never cuts) the
                # lectures' one it is compared with
                assert re.search(r"alphabeta: [\d.]+ of 6 points on the visible trees, (graded "
                                 r"as|compared with the lectures' convention,) (cut on equality|"
                                 r"strict cuts)", shown), (path.stem, shown[:1500])


@pytest.mark.parametrize("assignment", ASSIGNMENTS)
def test_scores_are_half_points_and_cell_gradebook_and_csv_agree(
        trial: dict[str, Any], assignment: str) -> None:
    rows = [line.split(",") for csv in trial["csv"] for line in csv.strip().splitlines()]
    header = rows[0]
    exported = {r[3]: float(r[header.index("score")]) for r in rows
                if r != header and r[0] == assignment}
    for student, cells in trial["scores"][assignment].items():
        outputs = cell_outputs(trial, assignment, student)
        for cell, points in cells.items():
            assert (2 * points).is_integer(), (assignment, student, cell, points)
            out = outputs[cell]
            value = [o for o in out if o.get("output_type") == "execute_result"]
            shown = "".join(o.get("text", "") for o in out if o.get("output_type") == "stream")
            head = re.match(r"^\w+: ([\d.]+) of ([\d.]+) points", shown)
            if head is None:  # a cell the grader could not grade at all: 0, and said so
                assert points == 0 and not value, (assignment, student, cell, shown[:300])
                continue
            assert float(head.group(1)) == points, (assignment, student, cell, shown[:200])
            assert value and float(value[0]["data"]["text/plain"]) == points
        assert exported[student] == sum(cells.values()), (assignment, student)


def test_every_catalogued_bug_has_a_sample_submission() -> None:
    """Each bug the grader knows has a sample submission here or a program in the kit's
    catalogue (``tests/grading/catalogue/``, graded in ``test_catalogue.py``)."""
    from minimaxkit.grading.verdicts.bugs import BUGS

    covered = {bug_of(p) for a in ASSIGNMENTS for p in bug_samples(a)}
    covered |= {m.group(1) for p in (SAMPLES.parent / "catalogue").glob("a[1-4]_*/*.py")
                if (m := re.search(r"^# bug: (\w+)$", p.read_text(), re.M))}
    assert covered == set(BUGS)
