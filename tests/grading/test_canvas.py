"""The Canvas round trip with real nbgrader (docs/grading.md, *Canvas*): the roster comes in
from Canvas's gradebook export in one command, Canvas's *Download Submissions* zip is
collected by ``nbgrader zip_collect`` (the course's ``nbgrader_config.py`` names the kit's
collector) with Canvas's user ids and the submission times, autograded, and exported by
``nbgrader export --exporter`` the kit's Canvas plugin to Canvas's gradebook import file.

The sample files are written from Canvas's own formats: its gradebook exporter's columns
(``Student``, ``ID``, ``SIS User ID``, ``SIS Login ID``, ``Section``, assignments headed
``Title (id)``, read-only totals, a ``Points Possible`` row, a name starting with ``=``
exported as ``="..."``), its submissions zip's file names (``<sortable name squeezed>
[_LATE]_<user id>_<file id>_<file as uploaded>``, ``-1`` for a file uploaded again) and its
Submissions API's JSON (``user_id``, ``submitted_at``, ``attachments``,
``submission_history``). The import file is read back by :func:`canvas_import`, which
follows the rules Canvas's gradebook importer applies (header, points row, students found by
their Canvas id) independently of the kit's reader.
"""

from __future__ import annotations

import csv
import io
import json
import os
import re
import shutil
import subprocess
import sys
import zipfile
from pathlib import Path
from typing import Any

import nbformat
import pytest

from minimaxkit.classroom.trial import make_submission, parse_sample, solution_cells
from minimaxkit.isolation import bwrap

pytestmark = [pytest.mark.slow, pytest.mark.timeout(1800)]  # a module's course, under load

REPO = Path(__file__).resolve().parents[2]
BIN = Path(sys.executable).parent
A = "a2_alphabeta"
SOLUTION = solution_cells(REPO / "solutions" / A / f"{A}.ipynb")
WRONG = parse_sample((REPO / "tests" / "grading" / "submissions" / A / "beta_max.py").read_text())
DUE = "2026-03-01 12:00:00 UTC"

# Canvas's "Export Entire Gradebook": sortable names, ids, SIS ids, sections, the
# assignment (id 4521) and another one, read-only totals; Jane's name holds a comma and
# quotes, one name starts with "=" (Canvas exports it as ="..."), and Canvas's test
# student of Student View is there too.
CANVAS_EXPORT = '''\
Student,ID,SIS User ID,SIS Login ID,Section,A2 Alphabeta (4521),Reading quiz (4400),\
Current Score,Unposted Current Score,Final Score,Unposted Final Score
    Points Possible,,,,,7.00,10.00,(read only),(read only),(read only),(read only)
"Doe, Jane ""JJ""",1001,S001,jdoe,Section A,,8.00,80.00,80.00,80.00,80.00
"Engerin, Ann",1002,S002,aengerin,Section A,,9.00,90.00,90.00,90.00,90.00
"=""=HYPERLINK(""http://evil.example"",""x"")""",1003,S003,mallory,Section B,,7.00,\
70.00,70.00,70.00,70.00
"O'Brien, Seán",1004,S004,sobrien,Section B,3.00,10.00,65.00,65.00,65.00,65.00
"Student, Test",1005,,,Section A,,,,,,
'''
MALLORY = '=HYPERLINK("http://evil.example","x")'

#: Canvas's submissions zip: Jane submitted twice (her second file, uploaded under the same
#: name, became ``-1``; the first is wrong, the second right); Ann was late; Nils (Canvas
#: user 1006) joined after the roster was exported.
ZIP = {
    "doejanejj_1001_9001_a2_alphabeta.ipynb": WRONG.cells,
    "doejanejj_1001_9050_a2_alphabeta-1.ipynb": {"alphabeta": SOLUTION["alphabeta"]},
    "engerinann_LATE_1002_9100_a2_alphabeta.ipynb": {"alphabeta": SOLUTION["alphabeta"]},
    "nilsennils_1006_9300_a2_alphabeta.ipynb": {"alphabeta": SOLUTION["alphabeta"]},
}
#: Canvas's Submissions API answer (include[]=submission_history), saved beside the zip.
SUBMISSIONS = [
    {"id": 501, "user_id": 1001, "attempt": 2, "late": False,
     "submitted_at": "2026-02-27T10:00:00Z",
     "attachments": [{"id": 9050, "display_name": "a2_alphabeta-1.ipynb"}],
     "submission_history": [
         {"attempt": 1, "submitted_at": "2026-02-26T09:00:00Z",
          "attachments": [{"id": 9001, "display_name": "a2_alphabeta.ipynb"}]},
         {"attempt": 2, "submitted_at": "2026-02-27T10:00:00Z",
          "attachments": [{"id": 9050, "display_name": "a2_alphabeta-1.ipynb"}]}]},
    {"id": 502, "user_id": 1002, "attempt": 1, "late": True,
     "submitted_at": "2026-03-02T08:30:00Z",
     "attachments": [{"id": 9100, "display_name": "a2_alphabeta.ipynb"}]},
    {"id": 503, "user_id": 1006, "attempt": 1, "late": False,
     "submitted_at": "2026-02-28T12:00:00Z",
     "attachments": [{"id": 9300, "display_name": "a2_alphabeta.ipynb"}]},
]


def canvas_import(text: str) -> dict[str, Any]:
    """Read an import file as Canvas's gradebook importer does: the header must start with a
    column holding "Student" and one holding "ID"; "SIS User ID" then "SIS Login ID" make
    five student columns, the last of which must hold "Section"; every later column is an
    assignment, ``Title (id)`` naming an existing one; the row whose first field holds
    "Points Possible" gives the points; every other row is a student, found by their Canvas
    id. Returns the assignments (title, id, points) and each student's fields by id."""
    rows = list(csv.reader(io.StringIO(text)))
    header = rows[0]
    assert "Student" in header[0] and "ID" in header[1], header
    assert re.search(r"SIS\s+User\s+ID", header[2]) and re.search(r"SIS\s+Login\s+ID", header[3])
    assert "Section" in header[4], header
    assignments = []
    for h in header[5:]:
        found = re.match(r"^(.*?)\s*\((\d+)\)$", h)
        assignments.append((found.group(1), found.group(2)) if found else (h, None))
    points: list[str] = []
    students: dict[str, dict[str, Any]] = {}
    for row in rows[1:]:
        if "Points Possible" in row[0]:
            points = row[5:]
            continue
        students[row[1] or f"name:{row[0]}"] = {
            "name": row[0], "sis_user": row[2], "login": row[3], "section": row[4],
            "grades": dict(zip([a for a, _ in assignments], row[5:], strict=True))}
    return {"assignments": [(t, i, p) for (t, i), p in zip(assignments, points, strict=True)],
            "students": students}


def _run(cmd: list[str], root: Path, log: list[str]) -> str:
    env = {**os.environ, "PATH": f"{BIN}{os.pathsep}{os.environ['PATH']}"}
    done = subprocess.run(cmd, cwd=root, env=env, capture_output=True, text=True, timeout=900)
    log.append(f"$ {' '.join(cmd)}\n{done.stdout}{done.stderr}")
    assert done.returncode == 0, log[-1][-4000:]
    return done.stdout + done.stderr


@pytest.fixture(scope="module")
def course(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Any]:
    """A course through the whole round trip, as docs/grading.md's *Canvas* says."""
    if not bwrap.available():
        pytest.skip("bubblewrap (bwrap) is not available here")
    root = tmp_path_factory.mktemp("canvas") / "course"
    root.mkdir()
    shutil.copy(REPO / "nbgrader_config.py", root)
    shutil.copytree(REPO / "solutions", root / "solutions")
    with open(root / "nbgrader_config.py", "a") as config:  # the course's late policy
        config.write('\nc.LateSubmissionPlugin.penalty_method = "zero"\n')
    log: list[str] = []
    (root / "canvas_gradebook.csv").write_text(CANVAS_EXPORT, encoding="utf-8")
    _run(["nbgrader", "generate_assignment", A, "--force"], root, log)
    _run(["nbgrader", "db", "assignment", "add", A, f"--duedate={DUE}"], root, log)
    roster = _run([sys.executable, "-m", "minimaxkit.classroom.canvas", "roster",
                   "canvas_gradebook.csv"], root, log)
    # Canvas's download, and its submissions list beside it
    released = root / "assignments" / A / f"{A}.ipynb"
    staged = root.parent / "staged"
    archive = root / "downloaded" / A / "archive"
    archive.mkdir(parents=True)
    with zipfile.ZipFile(archive / "minimaxkit-a2_alphabeta submissions.zip", "w") as zf:
        for name, cells in ZIP.items():
            zf.write(make_submission(released, cells, staged / name), name)
    (root / "downloaded" / A / "canvas_submissions.json").write_text(json.dumps(SUBMISSIONS))
    collect = _run(["nbgrader", "zip_collect", A], root, log)
    _run([sys.executable, "-m", "minimaxkit.grading.autograde", A, "--workers", "2"], root, log)
    _run(["nbgrader", "export", "--exporter",
          "minimaxkit.classroom.canvas.export.CanvasExportPlugin",
          "--CanvasExportPlugin.canvas_gradebook=canvas_gradebook.csv"], root, log)
    return {"root": root, "log": log, "roster": roster, "collect": collect}


def test_the_roster_comes_in_with_canvas_ids(course: dict[str, Any]) -> None:
    from nbgrader.api import Gradebook

    assert "canvas_roster.csv: 4 students" in course["roster"]  # Canvas's test student left out
    with Gradebook(f"sqlite:///{course['root'] / 'gradebook.db'}") as gb:
        students = {s.id: (s.first_name, s.last_name, s.lms_user_id) for s in gb.students}
    assert students["jdoe"] == ('Jane "JJ"', "Doe", "1001")
    assert students["sobrien"] == ("Seán", "O'Brien", "1004")
    assert students["mallory"][2] == "1003"
    # the student who was not in the roster is kept with their Canvas id
    assert students["nilsennils"] == (None, None, "1006")


def test_zip_collect_keeps_the_newest_file_and_the_times(course: dict[str, Any]) -> None:
    submitted = course["root"] / "submitted"
    assert sorted(p.name for p in submitted.iterdir()) == ["aengerin", "jdoe", "nilsennils"]
    # Jane's second upload (a2_alphabeta-1.ipynb) is collected under the released name
    jane = submitted / "jdoe" / A
    assert sorted(p.name for p in jane.iterdir()) == [f"{A}.ipynb", "timestamp.txt"]
    cell = next(c for c in nbformat.read(jane / f"{A}.ipynb", 4).cells
                if c.metadata.get("nbgrader", {}).get("grade_id") == "alphabeta")
    assert cell.source == SOLUTION["alphabeta"]
    assert (jane / "timestamp.txt").read_text().startswith("2026-02-27 10:00:00")
    assert (submitted / "aengerin" / A / "timestamp.txt").read_text().startswith(
        "2026-03-02 08:30:00")
    assert "submitted a2_alphabeta.ipynb again later (file 9050)" in course["collect"]


def test_the_export_is_what_canvas_imports(course: dict[str, Any]) -> None:
    from nbgrader.api import Gradebook

    text = (course["root"] / "canvas_grades.csv").read_text(encoding="utf-8")
    read = canvas_import(text)
    # the export's own assignment column (matched by title to id 4521), with its points
    assert read["assignments"] == [("A2 Alphabeta", "4521", "8")]
    grades = {cid: s["grades"]["A2 Alphabeta"] for cid, s in read["students"].items()}
    # Jane's newest (right) file: 8; Ann's was late (penalty "zero"): 0 though it earned 8;
    # Seán submitted nothing: the 3.00 Canvas holds stays; Nils joined later: added by id
    assert grades == {"1001": "8", "1002": "0", "1003": "", "1004": "3.00", "1005": "",
                      "1006": "8"}
    with Gradebook(f"sqlite:///{course['root'] / 'gradebook.db'}") as gb:
        assert gb.find_submission(A, "aengerin").score == 8.0
        assert gb.find_submission(A, "aengerin").late_submission_penalty == 8.0
    jane = read["students"]["1001"]
    assert (jane["name"], jane["sis_user"], jane["login"], jane["section"]) == \
        ('Doe, Jane "JJ"', "S001", "jdoe", "Section A")
    assert read["students"]["1004"]["name"] == "O'Brien, Seán"
    # a name a spreadsheet would run is written so that it will not
    assert read["students"]["1003"]["name"] == "'" + MALLORY
    # every field quoted; no field starts a formula
    for row in csv.reader(io.StringIO(text)):
        assert not any(field.startswith(("=", "+", "-", "@")) for field in row), row
    assert all(line.startswith('"') and line.endswith('"') for line in text.splitlines())


def test_without_canvas_export_the_rows_come_from_nbgrader(course: dict[str, Any]) -> None:
    log: list[str] = []
    _run(["nbgrader", "export", "--exporter",
          "minimaxkit.classroom.canvas.export.CanvasExportPlugin", "--to", "plain.csv",
          "--CanvasExportPlugin.missing=0"], course["root"], log)
    read = canvas_import((course["root"] / "plain.csv").read_text(encoding="utf-8"))
    assert read["assignments"] == [(A, None, "8")]
    rows = {s["login"]: (cid, s["name"], s["grades"][A]) for cid, s in read["students"].items()}
    assert rows["jdoe"] == ("1001", 'Doe, Jane "JJ"', "8")
    assert rows["sobrien"] == ("1004", "O'Brien, Seán", "0")  # missing=0
    assert rows["mallory"][1].startswith("'=HYPERLINK(")
