"""A whole class autograded at once (``python -m minimaxkit.grading.autograde``), through real
nbgrader: the session's graded class (graded_class.py: every sample, hostile and solution
notebook, graded by the class command with two workers) and a stratified subset of it
(:data:`SERIAL`) graded again by serial ``nbgrader autograde`` in a course of its own give the
same gradebook rows, feedback pages and grades.csv; a worker killed mid-run costs only its
submission; a run interrupted or run again grades only what is left; the class report's counts
agree with the gradebook, it names the samples' bugs, and its page passes axe-core in Chromium.
"""

from __future__ import annotations

import csv
import html
import io
import os
import re
import signal
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

import nbformat
import pytest
from graded_class import ODD_ID, GradedClass, plan, submit

from minimaxkit.classroom.trial import make_submission, nbgrader_api, parse_sample, prepare_course
from minimaxkit.grading.verdicts.bugs import BUGS
from minimaxkit.isolation import bwrap

#: the graded class may be built in this module's first test, under load
pytestmark = [pytest.mark.slow, pytest.mark.timeout(3600)]

REPO = Path(__file__).resolve().parents[2]
SAMPLES = REPO / "tests" / "grading"
ASSIGNMENTS = ["a1_minimax", "a2_alphabeta", "a3_move_ordering", "a4_deepening"]

#: the stratified subset serial ``nbgrader autograde`` grades again: in every assignment the
#: solution, the released notebook and a catalogued bug; in a2 also a correct style, the odd
#: id, the forger, and the hostile samples whose attack is on a run of many (they kill the
#: kernel, fork, hold memory, flood the output, reach for another student's files and the
#: gradebook)
SERIAL = {
    "a1_minimax": ("solution", "released", "depth_off"),
    "a2_alphabeta": ("solution", "released", "strict", "root_forgets_alpha", "no_pruning",
                     ODD_ID, "forger", "exit_in_function", "fork_loop", "memory_3gb",
                     "big_output", "other_student", "gradebook"),
    "a3_move_ordering": ("solution", "released", "no_ordering"),
    "a4_deepening": ("solution", "released", "no_reorder"),
}


def submissions(assignment: str) -> dict[str, dict[str, str]]:
    """Student -> answer cells of the graded class's ``assignment`` (course "class")."""
    return {p.student: p.cells for p in plan()
            if (p.course, p.assignment) == ("class", assignment) and p.kind != "lms"}


def make_class(root: Path, classes: dict[str, dict[str, dict[str, str]]]) -> Path:
    api = nbgrader_api(root)
    for assignment, subs in classes.items():
        assert api.generate_assignment(assignment)["success"]
        released = root / "assignments" / assignment / f"{assignment}.ipynb"
        for student, cells in subs.items():
            make_submission(released, cells, root / "submitted" / student / assignment /
                            released.name)
    return root


def run(root: Path, *args: str, check: bool = True) -> subprocess.CompletedProcess[str]:
    """``python -m ARGS`` in the course ``root`` (a whole assignment's autograde, on a loaded
    machine, within 40 minutes)."""
    done = subprocess.run([sys.executable, "-m", *args], cwd=root, capture_output=True,
                          text=True, timeout=2400)
    assert done.returncode == 0 or not check, done.stdout[-3000:] + done.stderr[-3000:]
    return done


def gradebook_rows(root: Path) -> dict[tuple[str, str], dict[str, Any]]:
    """Per (assignment, student): every grade and comment row, the late penalty, the time."""
    from nbgrader.api import Gradebook

    out = {}
    with Gradebook(f"sqlite:///{root / 'gradebook.db'}") as gb:
        for assignment in gb.assignments:
            for sub in gb.assignment_submissions(assignment.name):
                nbs = sorted(sub.notebooks, key=lambda n: n.name)
                out[(assignment.name, sub.student.id)] = {
                    "timestamp": sub.timestamp,
                    "grades": sorted((g.name, g.auto_score, g.manual_score, g.max_score,
                                      g.needs_manual_grade) for n in nbs for g in n.grades),
                    "comments": sorted((c.name, c.auto_comment, c.manual_comment)
                                       for n in nbs for c in n.comments),
                    "penalty": [n.late_submission_penalty for n in nbs]}
    return out


@pytest.fixture(scope="module")
def courses(request: pytest.FixtureRequest,
            tmp_path_factory: pytest.TempPathFactory) -> dict[str, Path]:
    if not bwrap.available():
        pytest.skip("bubblewrap (bwrap) is not available here")
    root = prepare_course(REPO, tmp_path_factory.mktemp("class") / "serial")
    submit(root, [p for p in plan() if p.course == "class" and
                  p.student in SERIAL.get(p.assignment, ())])
    for assignment in ASSIGNMENTS:
        run(root, "nbgrader", "autograde", assignment)
        run(root, "nbgrader", "generate_feedback", assignment)
    run(root, "nbgrader", "export")
    graded: GradedClass = request.getfixturevalue("graded")  # built meanwhile, if it was not
    return {"serial": root, "par": graded.root()}


def in_subset(rows: dict[tuple[str, str], Any]) -> dict[tuple[str, str], Any]:
    return {(a, s): r for (a, s), r in rows.items() if s in SERIAL.get(a, ())}


def csv_rows(text: str) -> list[list[str]]:
    """grades.csv's header and the rows of the subset's submissions."""
    rows = list(csv.reader(io.StringIO(text)))
    return [rows[0]] + [r for r in rows[1:] if r[3] in SERIAL.get(r[0], ())]


def test_the_same_gradebook_rows_and_grades_csv(courses: dict[str, Path]) -> None:
    serial, par = gradebook_rows(courses["serial"]), in_subset(gradebook_rows(courses["par"]))
    assert len(serial) == sum(len(students) for students in SERIAL.values())
    assert par == serial
    assert csv_rows((courses["par"] / "grades.csv").read_text()) == \
        csv_rows((courses["serial"] / "grades.csv").read_text())
    # and they are the samples' own: the hostile ones' expected points, say
    rows = gradebook_rows(courses["par"])
    for p in sorted((SAMPLES / "hostile" / "a2_alphabeta").glob("*.py")):
        student = graded_as(courses, p)
        got = dict((g[0], g[1]) for g in rows[("a2_alphabeta", student)]["grades"])
        assert got["test_alphabeta"] == parse_sample(p.read_text()).expect["test_alphabeta"]


def graded_as(courses: dict[str, Path], sample: Path) -> str:
    """The student id a sample file was graded as in the graded class."""
    for p in plan():
        if p.sample == sample.resolve() and p.course == "class":
            return p.student
    raise KeyError(sample)


def test_the_same_feedback_pages(courses: dict[str, Path]) -> None:
    pages = {k: sorted(p.relative_to(r) for p in (r / "feedback").rglob("*.html")
                       if p.parts[-2] in ASSIGNMENTS and p.parts[-3] in SERIAL[p.parts[-2]])
             for k, r in courses.items()}
    assert pages["par"] == pages["serial"] and len(pages["par"]) == len(gradebook_rows(
        courses["serial"]))
    assert len(list((courses["par"] / "feedback").rglob("*.html"))) == len(gradebook_rows(
        courses["par"]))
    differ = [str(p) for p in pages["par"] if (courses["par"] / p).read_text() !=
              (courses["serial"] / p).read_text()]
    assert differ == []


def test_the_autograded_notebooks_carry_the_verdicts(courses: dict[str, Path]) -> None:
    nb = nbformat.read(str(courses["par"] / "autograded" / "root_forgets_alpha" /
                           "a2_alphabeta" / "a2_alphabeta.ipynb"), as_version=4)
    verdicts = [c.metadata["minimaxkit"]["verdict"] for c in nb.cells
                if "minimaxkit" in c.metadata]
    assert len(verdicts) == 1 and verdicts[0]["question"] == "alphabeta"
    v = verdicts[0]
    assert "root_forgets_alpha" in v["bugs"] and v["earned"] < v["points"]
    assert [t["kind"] for t in v["trees"]].count("visible") == 6
    assert {t["kind"] for t in v["trees"]} == {"visible", "hidden", "seeded"}
    wrong = [t for t in v["trees"] if t["score"] < 1]
    assert wrong and all(t["parted"] and t["parted"]["node"] for t in wrong)
    assert sum(t["pictured"] for t in v["trees"]) == 1


def _verdicts(root: Path, assignment: str) -> dict[str, dict[str, Any]]:
    """Per student, the verdict its autograded notebook's test cell holds."""
    out = {}
    for path in (root / "autograded").glob(f"*/{assignment}/{assignment}.ipynb"):
        for cell in nbformat.read(str(path), as_version=4).cells:
            if "minimaxkit" in cell.metadata:
                out[path.parent.parent.name] = cell.metadata["minimaxkit"]["verdict"]
    return out


def test_a_submissions_own_kit_metadata_is_dropped(courses: dict[str, Path]) -> None:
    nb = nbformat.read(str(courses["par"] / "autograded" / "forger" / "a2_alphabeta" /
                           "a2_alphabeta.ipynb"), as_version=4)
    kept = [(c.metadata.get("nbgrader", {}).get("grade_id"), c.metadata["minimaxkit"])
            for c in nb.cells if "minimaxkit" in c.metadata]
    assert [gid for gid, _ in kept] == ["test_alphabeta"]
    assert list(kept[0][1]) == ["verdict"] and kept[0][1]["verdict"]["earned"] == 0
    assert kept[0][1]["verdict"]["bugs"] == [] and len(kept[0][1]["verdict"]["trees"]) == 8


def read_report(root: Path, assignment: str) -> tuple[str, list[dict[str, str]]]:
    folder = root / "reports" / assignment
    rows = list(csv.DictReader(open(folder / "report.csv", encoding="utf-8")))
    return (folder / "index.html").read_text(encoding="utf-8"), rows


def test_the_report_agrees_with_the_gradebook(courses: dict[str, Path]) -> None:
    page, rows = read_report(courses["par"], "a2_alphabeta")
    book = {s: dict((g[0], g[1]) for g in r["grades"])
            for (a, s), r in gradebook_rows(courses["par"]).items() if a == "a2_alphabeta"}
    assert {r["student"]: float(r["score"]) for r in rows} == \
        {s: g["test_alphabeta"] for s, g in book.items()}
    # the score chart reads out the gradebook's counts
    label = re.search(r'aria-label="(test_alphabeta: students per score[^"]*)"', page)
    assert label is not None
    said = dict(re.findall(r"([\d.]+) points: (\d+) students", label.group(1)))
    counts: dict[str, int] = {}
    for g in book.values():
        counts[f"{g['test_alphabeta']:g}"] = counts.get(f"{g['test_alphabeta']:g}", 0) + 1
    assert {k: int(v) for k, v in said.items() if int(v)} == counts
    # every bug heading's count and names: the submissions whose verdicts name exactly those
    # bugs as accounting for every tree (one heading for one ambiguity)
    verdicts = _verdicts(courses["par"], "a2_alphabeta")
    headings = re.findall(r"<h3>test_alphabeta: ([^<]*), (\d+) of (\d+) \(\d+%\)</h3>"
                          r"(?:<p>[^<]*</p>)*?<p>Named for: ([^<]*)</p>", page)
    assert headings
    for title, n, of, who in headings:
        bugs = {b for b, bug in BUGS.items() if bug.advice.split(":")[0] in
                html.unescape(title).split(" or ")}
        expect = sorted(s for s, v in verdicts.items() if set(v["bugs"]) == bugs)
        assert (int(n), int(of)) == (len(expect), len(verdicts))
        assert html.unescape(who).split(", ") == expect


def test_the_report_names_the_samples_bugs(courses: dict[str, Path]) -> None:
    page, rows = read_report(courses["par"], "a2_alphabeta")
    named = {r["student"]: set(filter(None, r["bugs"].split(";"))) for r in rows}
    # the page's table of students: student -> the bugs its "bug (every tree)" cell names
    shown = {html.unescape(who): html.unescape(cell).split("; ") for who, cell in re.findall(
        r"<tr><td>([^<]*)</td><td>test_alphabeta</td><td>[^<]*</td><td>[^<]*</td>"
        r"<td>([^<]*)</td>", page)}
    for p in sorted((SAMPLES / "submissions" / "a2_alphabeta").glob("*.py")):
        bug = re.search(r"^# bug: (\w+)$", p.read_text(), re.M)
        if bug:
            assert bug.group(1) in named[p.stem], (p.stem, named[p.stem])
            # in the catalogue's words (its advice up to the colon), in the sample's own row
            assert BUGS[bug.group(1)].advice.split(":")[0] in shown[p.stem], \
                (p.stem, shown.get(p.stem))
    assert "the root's loop forgets its bound" in shown["root_forgets_alpha"]  # the sheet's words
    assert "<script" not in page and "http" not in page.replace("http://www.w3.org", "")
    assert "o&#39;neil&amp;&lt;i&gt;x" in page and ODD_ID not in page  # as jinja2 escapes it
    assert "&lt;p&gt;" not in page and "&lt;table" not in page  # the kit's markup, once


def test_the_report_leaves_ids_out_when_asked(courses: dict[str, Path], tmp_path: Path) -> None:
    run(courses["par"], "minimaxkit.classroom.report", "a2_alphabeta", "--out",
        str(tmp_path / "anon"), "--no-ids")
    page = (tmp_path / "anon" / "index.html").read_text()
    rows = list(csv.DictReader(open(tmp_path / "anon" / "report.csv")))
    students = {r["student"] for r in rows}
    assert students == {f"student {i}" for i in range(1, len(students) + 1)}
    assert "forge_inside" not in page and "neil" not in page and "Named for" not in page


def test_the_report_page_passes_axe_and_its_plots_have_text(courses: dict[str, Path]) -> None:
    axe = REPO / "node_modules" / "axe-core" / "axe.min.js"
    if not Path("/usr/bin/chromium").exists() or not axe.exists():
        pytest.skip("needs /usr/bin/chromium and axe-core (npm ci)")
    from playwright.sync_api import sync_playwright

    with sync_playwright() as p:
        browser = p.chromium.launch(executable_path="/usr/bin/chromium")
        page = browser.new_page()
        page.goto((courses["par"] / "reports" / "a2_alphabeta" / "index.html").as_uri())
        page.add_script_tag(path=str(axe))
        found = page.evaluate("""async () => (await axe.run(document)).violations
            .filter((v) => ['serious', 'critical'].includes(v.impact)).map((v) => v.id)""")
        plots = page.eval_on_selector_all("svg", "s => s.map(x => [x.getAttribute('role'), "
                                          "x.getAttribute('aria-label') || ''])")
        pictures = page.eval_on_selector_all("img", "s => s.map(x => x.alt)")
        browser.close()
    assert found == []
    assert plots and all(role == "img" and "students" in label for role, label in plots)
    assert pictures and all("Search tree" in alt for alt in pictures)


# ----- a worker killed, a run interrupted, and what is left --------------------------------
def _workers(parent: int) -> list[int]:
    """The worker processes of the command ``parent`` (its children)."""
    out = []
    for pid in os.listdir("/proc"):
        try:
            if pid.isdigit() and Path(f"/proc/{pid}/stat").read_text().split(")")[1].split()[1] \
                    == str(parent):
                out.append(int(pid))
        except OSError:
            continue
    return out


#: a worker whose oldest running child (the kernel of the submission it grades) has run this
#: long is in the middle of that submission
GRADING_FOR = 1.0


def _grading(pid: int) -> bool:
    """Worker ``pid`` is in the middle of a submission: it has running children (a child that
    has ended but is not yet reaped, a zombie, is not a sign of work), and the oldest of them
    has run for :data:`GRADING_FOR` seconds. A child just started is not enough: a kill then
    cost nothing, four times in four on a machine with three busy loops beside the test (and
    four in a row in a whole run beside a second one), while a child that had run a second
    made the kill cost its submission."""
    ages = [_age(child) for child in _workers(pid) if _state(child) not in ("Z", "X", "")]
    return bool(ages) and max(ages) >= GRADING_FOR


def _state(pid: int) -> str:
    """The one-letter state of process ``pid`` ("" if it is gone)."""
    try:
        return Path(f"/proc/{pid}/stat").read_text().split(")")[1].split()[0]
    except OSError:
        return ""


def _age(pid: int) -> float:
    """Seconds since process ``pid`` started (0 if it is gone: no sign of work)."""
    try:
        started = int(Path(f"/proc/{pid}/stat").read_text().split(")")[1].split()[19])
        uptime = float(Path("/proc/uptime").read_text().split()[0])
    except (OSError, ValueError, IndexError):
        return 0.0
    return uptime - started / os.sysconf("SC_CLK_TCK")


def _left(root: Path) -> list[str]:
    """Processes still running whose command line names the course (kernels, children)."""
    found = []
    for pid in filter(str.isdigit, os.listdir("/proc")):
        try:
            cmd = Path(f"/proc/{pid}/cmdline").read_bytes().replace(b"\0", b" ").decode()
        except OSError:
            continue
        if str(root) in cmd:
            found.append(f"{pid}: {cmd[:200]}")
    return found


@pytest.fixture(scope="module")
def small(tmp_path_factory: pytest.TempPathFactory) -> Path:
    if not bwrap.available():
        pytest.skip("bubblewrap (bwrap) is not available here")
    subs = submissions("a2_alphabeta")
    keep = ["solution", "released", "fail_hard", "root_forgets_alpha", "no_pruning", "strict"]
    return make_class(prepare_course(REPO, tmp_path_factory.mktemp("small") / "course"),
                      {"a2_alphabeta": {k: subs[k] for k in keep}})


def _start(root: Path, *args: str) -> subprocess.Popen[str]:
    return subprocess.Popen([sys.executable, "-m", "minimaxkit.grading.autograde",
                             "a2_alphabeta", "--workers", "2", *args], cwd=root,
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                            start_new_session=True)  # its workers: the session's processes


def _still_running(root: Path, proc: subprocess.Popen[str]) -> list[str]:
    """What is still running 30 s at most after ``proc`` ended: its session's processes (the
    workers) and those naming the course (kernels, sandboxes, in sessions of their own)."""
    deadline, left = time.monotonic() + 30, ["?"]
    while left and time.monotonic() < deadline:
        time.sleep(1)
        left = [pid for args in (["-f", str(root)], ["-s", str(proc.pid)])
                for pid in subprocess.run(["pgrep", *args], capture_output=True,
                                          text=True).stdout.split()]
    if left:  # not to hold the pipes this test reads
        subprocess.run(["pkill", "-KILL", "-f", str(root)], check=False)
    return left


def _graded(root: Path) -> set[str]:
    return {p.parent.parent.name for p in (root / "autograded").glob("*/a2_alphabeta/*.ipynb")}


def _expected(student: str) -> float:
    if student == "solution":
        return 8.0
    if student == "released":
        return 0.0
    return parse_sample((SAMPLES / "submissions" / "a2_alphabeta" / f"{student}.py")
                        .read_text()).expect["test_alphabeta"]


def _scores(root: Path) -> dict[str, float]:
    return {s: dict((g[0], g[1]) for g in r["grades"])["test_alphabeta"]
            for (_, s), r in gradebook_rows(root).items()}


def _kill_a_busy_worker(proc: subprocess.Popen[str]) -> bool:
    """SIGKILL a worker of ``proc`` seen in the middle of a submission; False if none was
    seen before the run ended. A worker seen so may have ended by the time it is killed: then
    look again."""
    deadline = time.monotonic() + 300
    while time.monotonic() < deadline and proc.poll() is None:
        for worker in [w for w in _workers(proc.pid) if _grading(w)]:
            try:
                os.kill(worker, signal.SIGKILL)
            except ProcessLookupError:
                continue
            return True
        time.sleep(0.1)
    return False


def test_a_killed_worker_costs_only_its_submission_and_a_rerun_grades_it(small: Path) -> None:
    """A worker killed while it grades costs that one submission; the next run grades it.

    A worker is killed when it is seen in the middle of a submission (:func:`_grading`), but it
    may finish between the look and the kill: then nothing is lost, every submission is
    graded, and the run is tried again with ``--force``."""
    for attempt in range(4):
        proc = _start(small, *(["--force"] if attempt else []))
        assert _kill_a_busy_worker(proc), "no worker was seen grading"
        out, err = proc.communicate(timeout=600)
        if proc.returncode == 0:  # the kill came after the worker's result: nothing lost
            assert "graded 6 of 6" in out and "died" not in out, out + err
            continue
        assert proc.returncode == 1, out + err
        failed = re.findall(r"not graded: (\S+): the worker process running it died "
                            r"\(exit code -9\)", out)
        assert len(failed) == 1 and "graded 5 of 6" in out, out + err
        break
    else:
        pytest.fail("four kills in a row came after the worker had sent its result")
    assert _left(small) == []
    assert _graded(small) == set(submissions_kept(small)) - set(failed)
    # again: only the one left is graded, and every score is the sample's
    again = run(small, "minimaxkit.grading.autograde", "a2_alphabeta", "--workers", "2").stdout
    assert "graded 1 of 1" in again and "5 graded before" in again
    assert _scores(small) == {s: _expected(s) for s in submissions_kept(small)}


def submissions_kept(root: Path) -> list[str]:
    return sorted(p.name for p in (root / "submitted").iterdir())


def test_an_interrupted_run_leaves_what_is_left_to_the_next(small: Path) -> None:
    # a half-written submission (its folder without its notebook) counts as left
    half = small / "autograded" / "strict" / "a2_alphabeta"
    (half / "a2_alphabeta.ipynb").unlink()
    assert "graded 1 of 1" in run(small, "minimaxkit.grading.autograde", "a2_alphabeta").stdout
    proc = _start(small, "--force")
    assert proc.stderr is not None
    for line in proc.stderr:  # one line per submission graded (not a terminal)
        if "2/6 done" in line:
            break
    proc.send_signal(signal.SIGINT)
    proc.wait(timeout=300)
    # nothing of the stopped run is left (a kernel left running kept the pipes open: once on
    # CI, whose worker was stopped while the kernel was starting)
    assert _still_running(small, proc) == []
    out, err = proc.communicate(timeout=60)
    assert proc.returncode == 130 and "interrupted" in err, out + err
    done = _graded(small)  # --force removed the folder of each submission it started
    assert 2 <= len(done) < 6
    assert _left(small) == []
    again = run(small, "minimaxkit.grading.autograde", "a2_alphabeta").stdout
    assert f"graded {6 - len(done)} of {6 - len(done)}" in again
    assert f"{len(done)} graded before" in again
    assert _scores(small) == {s: _expected(s) for s in submissions_kept(small)}


def test_clear_errors(small: Path) -> None:
    out = run(small, "minimaxkit.grading.autograde", "a2_alphabeta", "--student", "nobody",
              check=False)
    assert out.returncode == 1 and "no submission of a2_alphabeta by nobody" in out.stderr
    out = run(small, "minimaxkit.grading.autograde", "a2_alphabeta", "--workers", "0",
              check=False)
    assert out.returncode == 2 and "--workers must be at least 1" in out.stderr
    out = run(small, "minimaxkit.classroom.report", "a3_move_ordering", check=False)
    assert out.returncode == 1 and "a3_move_ordering" in out.stderr


@pytest.mark.parametrize("sig", [signal.SIGTERM, signal.SIGKILL])
def test_a_run_ended_by_a_signal_leaves_no_process(small: Path, sig: signal.Signals) -> None:
    """SIGTERM is taken as Ctrl-C is; after SIGKILL the workers end with the command (they
    once stayed for good, waiting on pipes their siblings held), and their kernels with
    them."""
    proc = _start(small, "--force")
    assert proc.stderr is not None
    for line in proc.stderr:
        if "1/6 done" in line:
            break
    proc.send_signal(sig)
    proc.wait(timeout=300)
    assert _still_running(small, proc) == []
    err = proc.communicate(timeout=60)[1]
    assert (proc.returncode, "interrupted" in err) == \
        ((130, True) if sig == signal.SIGTERM else (-9, False)), err
