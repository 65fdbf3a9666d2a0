"""A whole term on a real JupyterHub, as docs/hub.md sets it up (hub/jupyterhub_config.py).

Three Unix users made for the test: an instructor and two students. The instructor releases
``a2_alphabeta`` from the command line of their account. Student 1, in Chromium, logs in,
follows the README's nbgitpuller link to lecture 3 (the students' copy from ``make
student``, served by ``git daemon``), opens the Assignments tab, fetches the assignment,
answers it, validates and submits. Student 2 fetches and submits a wrong answer (the
recitation's β ← max erratum) from the command line. The instructor, an ordinary user,
collects, autogrades (bubblewrap as that user; ``MINIMAXKIT_REQUIRE_SANDBOX=1``, so it would
refuse without it), generates and releases feedback. Each student fetches their feedback
and sees their own verdicts (and student 2 the picture of where the search went wrong), not
the other's. Asserted: the gradebook, the feedback pages, the exchange's modes and what a
student can and cannot read there, and which nbgrader parts each role gets.

Then grading on submission (docs/hub.md, *Grading on submission*): the hub runs with the
service on for ``a1_minimax`` (``MINIMAXKIT_HUB_AUTOGRADE``: visible trees before the due
date, three graded submissions a day). Student 1 submits and fetches their feedback with no
instructor command (full marks on the visible trees, the hidden ones said to come later),
resubmits a wrong search and fetches the new verdict; student 2 submits a hostile notebook
(it attacks the gradebook and ends its kernel) that gets its 0, and student 1's next
submission is still graded; a fourth submission of the day waits; the
service is killed while it grades, JupyterHub starts it again, and it grades that
submission with nothing lost from its ledger or its history.

The tests of this file are steps of one term and run in order. Screenshots go to
tests/artifacts/hub-*.png.
"""

from __future__ import annotations

import json
import os
import re
import signal
import stat
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from minimaxkit.classroom.trial import parse_sample, solution_cells

from .course_hub import CourseHub, start_course_hub
from .unix import REPO, User, processes_of, run_as

pytestmark = [pytest.mark.slow, pytest.mark.browser]

ASSIGNMENT = "a2_alphabeta"
ONGOING = "a1_minimax"  # graded on submission by the hub's service
ONGOING_SETTINGS = {"MINIMAXKIT_HUB_AUTOGRADE": ONGOING,
                    "MINIMAXKIT_HUB_AUTOGRADE_SHOWS": "visible",
                    "MINIMAXKIT_HUB_AUTOGRADE_DAILY": "3",
                    "MINIMAXKIT_HUB_AUTOGRADE_POLL": "2"}
VISIBLE: dict[str, float] = {}  # the points of all visible trees of a1_minimax (step 8)
A1_RIGHT = solution_cells(REPO / "solutions" / ONGOING / f"{ONGOING}.ipynb")
A1_WRONG = parse_sample((REPO / "tests" / "grading" / "submissions" / ONGOING /
                         "depth_off.py").read_text()).cells
#: Right answers, each after an attack on the gradebook and the end of its own kernel (the
#: grader runs the cells after a dead one in a new kernel: every answer cell ends its own).
_ATTACK = ("import os\n"
           "for _attack in (lambda: open('../../../gradebook.db', 'w').close(),\n"
           "                lambda: os.remove('../../../gradebook.db')):\n"
           "    try:\n        _attack()\n    except OSError:\n        pass\n"
           "os._exit(0)\n")
A1_HOSTILE = {gid: _ATTACK + code for gid, code in A1_RIGHT.items()}
CHROMIUM = Path("/usr/bin/chromium")
ARTIFACTS = REPO / "tests" / "artifacts"
ANSWER = solution_cells(REPO / "solutions" / ASSIGNMENT / f"{ASSIGNMENT}.ipynb")["alphabeta"]
WRONG = parse_sample((REPO / "tests" / "grading" / "submissions" / ASSIGNMENT /
                      "beta_max.py").read_text())
STEPS: dict[str, float] = {}
SCORES: dict[str, float] = {}  # the gradebook's, per student (step 5)

_SET_ANSWER = """async ([gid, src]) => {
    const panel = window.jupyterapp.shell.currentWidget;
    let n = 0;
    for (const cell of panel.content.widgets) {
        const meta = cell.model.getMetadata('nbgrader');
        if (meta && meta.grade_id === gid) { cell.model.sharedModel.setSource(src); n++; }
    }
    await panel.context.save();
    return n;
}"""


def doc_commands() -> tuple[list[list[str]], list[list[str]]]:
    """The instructor's commands of docs/hub.md's "A term", before and after the students
    work: the test runs exactly these."""
    text = (REPO / "docs" / "hub.md").read_text()
    block = re.search(r"## A term.*?```sh\n(.*?)```", text, re.S)
    assert block, "docs/hub.md has no '## A term' with a sh block"
    before, after = block.group(1).split("# ... students work ...")
    def commands(part: str) -> list[list[str]]:
        return [line.split("#")[0].split() for line in part.splitlines()
                if line.startswith("nbgrader ")]
    return commands(before), commands(after)


def student_commands() -> list[list[str]]:
    """The students' command line as docs/hub.md gives it."""
    text = (REPO / "docs" / "hub.md").read_text()
    return [c.split() for c in re.findall(r"`(nbgrader (?:fetch_assignment|submit|"
                                          r"fetch_feedback) a2_alphabeta)`", text)]


def _need(condition: bool, message: str) -> None:
    if not condition:
        if os.environ.get("CI"):
            pytest.fail(message)
        pytest.skip(message)


@pytest.fixture(scope="module")
def hub() -> Iterator[CourseHub]:
    _need(os.geteuid() == 0, "the hub test makes Unix users and starts JupyterHub: run as root")
    _need(CHROMIUM.exists(), f"{CHROMIUM} is missing: apt-get install chromium")
    pytest.importorskip("jupyterhub", reason="pip install -e '.[hub]'")
    started = time.monotonic()
    course_hub = start_course_hub(ONGOING_SETTINGS)
    STEPS["hub up"] = time.monotonic() - started
    try:
        yield course_hub
    finally:
        course_hub.stop()
        (ARTIFACTS / "hub-steps.json").write_text(json.dumps(STEPS, indent=1))


@pytest.fixture(scope="module")
def browser(hub: CourseHub) -> Iterator[Any]:
    from playwright.sync_api import sync_playwright

    with sync_playwright() as playwright:
        chromium = playwright.chromium.launch(
            executable_path=str(CHROMIUM), headless=True,
            args=["--headless", "--no-sandbox", "--disable-gpu", "--no-first-run"])
        try:
            yield chromium
        finally:
            chromium.close()


def _shot(page: Any, name: str) -> None:
    ARTIFACTS.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=str(ARTIFACTS / f"hub-{name}.png"))


def _login(browser: Any, hub: CourseHub, user: User, url: str) -> Any:
    """A fresh browser context (cookies of its own) that opens ``url`` and logs ``user`` in
    on the hub's login page; returns the page once JupyterLab has started."""
    context = browser.new_context(viewport={"width": 1400, "height": 900})
    context.set_default_timeout(120_000)
    page = context.new_page()
    page.goto(url)
    page.fill("#username_input", user.name)
    page.fill("#password_input", user.password)
    page.click("#login_submit")
    page.wait_for_function("() => window.jupyterapp !== undefined", timeout=240_000)
    page.evaluate("async () => { await window.jupyterapp.started; "
                  "await window.jupyterapp.restored; }")
    return page


def _current(page: Any, label: str) -> None:
    page.wait_for_function(
        """(label) => { const w = window.jupyterapp.shell.currentWidget;
                        return !!w && w.title.label === label
                               && (!w.context || w.context.isReady); }""", arg=label)


def _open_assignments(page: Any) -> Any:
    """The Assignments tab, from the Nbgrader menu as a student opens it."""
    page.locator(".lm-MenuBar-itemLabel", has_text="Nbgrader").click()
    page.locator(".lm-Menu-itemLabel", has_text="Assignment List").click()
    panel = page.locator("#nbgrader-assignment-list")
    panel.wait_for()
    return panel


def _cmdline(pid: int) -> list[str]:
    try:
        raw = Path(f"/proc/{pid}/cmdline").read_bytes()
    except OSError:
        return []
    return [part.decode(errors="replace") for part in raw.split(b"\0") if part]


def _mode(path: Path) -> int:
    return stat.S_IMODE(path.stat().st_mode)


def _can(user: User, hub: CourseHub, code: str) -> str:
    done = run_as(user, [str(hub.env.python), "-c", code], env={"PATH": hub.env.path_env()},
                  cwd=user.home)
    return (done.stdout + done.stderr).strip()


# ----- the term ------------------------------------------------------------------------------
def test_1_instructor_releases_the_assignment(hub: CourseHub) -> None:
    started = time.monotonic()
    course = hub.instructor.home / "course"
    release, _ = doc_commands()
    assert [c[1] for c in release] == ["generate_assignment", "release_assignment"]
    for command in release:
        hub.run(hub.instructor, *command, cwd=course)
    STEPS["release"] = time.monotonic() - started
    outbound = hub.exchange / "minimaxkit" / "outbound" / ASSIGNMENT
    assert sorted(p.name for p in outbound.iterdir()) == [f"{ASSIGNMENT}.ipynb", "tests.json"]
    assert not any("hidden" in p.name for p in hub.exchange.rglob("*"))
    # the released notebook is the committed one (no solution in it)
    released = json.loads((outbound / f"{ASSIGNMENT}.ipynb").read_text())
    assert "BEGIN SOLUTION" not in json.dumps(released)


def test_2_student_1_in_the_browser(hub: CourseHub, browser: Any) -> None:
    started = time.monotonic()
    student = hub.students[0]
    page = _login(browser, hub, student,
                  hub.nbgitpuller_link("notebooks/03_alphabeta.ipynb"))
    _current(page, "03_alphabeta.ipynb")  # nbgitpuller cloned the students' copy and opened it
    STEPS["student 1: login, nbgitpuller, lecture 3"] = time.monotonic() - started
    _shot(page, "1-lecture3-via-nbgitpuller")
    assert (student.home / "course-student" / "notebooks" / "03_alphabeta.ipynb").is_file()
    # the student's server: their own process, in the kit's environment
    servers = [cmd for cmd in map(_cmdline, processes_of(student.uid))
               if any(part.endswith("jupyterhub-singleuser") for part in cmd)]
    assert servers and all(cmd[0] == str(hub.env.python) or
                           cmd[1] == str(hub.env.bindir / "jupyterhub-singleuser")
                           for cmd in servers), servers
    assert not (student.home / "course-student" / "solutions").exists()
    # the student's nbgrader: the Assignments tab and Validate, no formgrader
    commands = page.evaluate("""() => ['nbgrader:open-assignment-list',
        'nbgrader:open-formgrader', 'nbgrader:open-course-list',
        'nbgrader:open-create-assignment'].map((c) => window.jupyterapp.commands.hasCommand(c))""")
    assert commands == [True, False, False, False]

    panel = _open_assignments(page)
    panel.locator("#released_assignments_list .list_item", has_text=ASSIGNMENT) \
        .get_by_role("button", name="Fetch").click()
    fetched = panel.locator("#fetched_assignments_list")
    fetched.locator("a.assignment-notebooks-link", has_text=ASSIGNMENT).click()
    _shot(page, "2-assignments-fetched")
    fetched.locator(".nested_list_item a", has_text=ASSIGNMENT).click()
    _current(page, f"{ASSIGNMENT}.ipynb")
    assert page.evaluate(_SET_ANSWER, ["alphabeta", ANSWER]) == 1

    page.locator(".jp-NotebookPanel-toolbar:visible").get_by_text("Validate", exact=True).click()
    page.wait_for_function("""() => { const d = document.querySelector('.jp-Dialog');
                                      return !!d && /Success|fail|error/i.test(d.innerText); }""",
                           timeout=240_000)
    dialog = page.locator(".jp-Dialog").inner_text()
    _shot(page, "3-validated")
    assert "Success! Your notebook passes all the tests." in dialog, dialog
    page.locator(".jp-Dialog").get_by_role("button", name="Ok").click()

    panel = _open_assignments(page)
    panel.locator("#fetched_assignments_list .list_item", has_text=ASSIGNMENT) \
        .get_by_role("button", name="Submit").first.click()
    panel.locator("#submitted_assignments_list .list_item", has_text=ASSIGNMENT).first.wait_for()
    _shot(page, "4-submitted")
    STEPS["student 1: whole visit"] = time.monotonic() - started
    page.context.close()


def test_3_student_2_on_the_command_line(hub: CourseHub) -> None:
    started = time.monotonic()
    student = hub.students[1]
    fetch, submit, _ = student_commands()
    hub.run(student, *fetch)
    notebook = student.home / ASSIGNMENT / f"{ASSIGNMENT}.ipynb"
    edit = ("import nbformat, sys\n"
            "nb = nbformat.read(sys.argv[1], 4)\n"
            "cell = next(c for c in nb.cells\n"
            "            if c.metadata.get('nbgrader', {}).get('grade_id') == 'alphabeta')\n"
            "cell.source = sys.argv[2]\n"
            "nbformat.write(nb, sys.argv[1])\n")
    hub.run(student, str(hub.env.python), "-c", edit, str(notebook), WRONG.cells["alphabeta"])
    hub.run(student, *submit)
    STEPS["student 2: fetch, answer, submit"] = time.monotonic() - started


def test_4_the_exchange_keeps_students_apart(hub: CourseHub) -> None:
    course = hub.exchange / "minimaxkit"
    inbound = course / "inbound"
    assert _mode(hub.exchange) == 0o777  # made by the administrator: ugo+rw (nbgrader's docs)
    assert _mode(course) == _mode(course / "outbound") == 0o755
    assert _mode(inbound) == 0o2733  # students write, nobody but the instructor lists
    assert course.stat().st_uid == inbound.stat().st_uid == hub.instructor.uid
    submissions = sorted(p.name for p in inbound.iterdir())
    assert len(submissions) == 2
    for student, name in zip(hub.students, submissions, strict=True):
        # <student>+<assignment>+<time>+<random>: a name nobody else can guess
        assert re.fullmatch(rf"{student.name}\+{ASSIGNMENT}\+[^+]+\+[A-Za-z0-9_=-]{{12}}", name)
        assert (inbound / name).stat().st_uid == student.uid
    other = hub.students[1]
    seen = _can(other, hub, f"import os\ntry: print(os.listdir({str(inbound)!r}))\n"
                            "except OSError as e: print('refused', e.errno)")
    assert seen == "refused 13"
    for place in (hub.students[0].home, hub.instructor.home / "course" / "solutions"):
        seen = _can(other, hub, f"import os\ntry: print(os.listdir({str(place)!r}))\n"
                                "except OSError as e: print('refused', e.errno)")
        assert seen == "refused 13", place


@pytest.mark.timeout(1800)  # two autogrades and feedback, on a shared machine
def test_5_instructor_collects_grades_and_returns_feedback(hub: CourseHub) -> None:
    started = time.monotonic()
    course = hub.instructor.home / "course"
    _, grading = doc_commands()
    assert [c[1] for c in grading] == ["collect", "autograde", "generate_feedback",
                                       "release_feedback", "export"]
    for command in grading:
        done = hub.run(hub.instructor, *command, cwd=course, timeout=600)
        STEPS[f"instructor: {command[1]}"] = time.monotonic() - started
        assert "bubblewrap (bwrap) is not available" not in done.stderr
    s1, s2 = (s.name for s in hub.students)
    from nbgrader.api import Gradebook

    with Gradebook(f"sqlite:///{course / 'gradebook.db'}") as gradebook:
        scores = {s: gradebook.find_grade("test_alphabeta", ASSIGNMENT, ASSIGNMENT, s).score
                  for s in (s1, s2)}
        assert gradebook.find_submission(ASSIGNMENT, s1).score == 8.0
    assert scores[s1] == 8.0
    # the erratum's sample scores 4.5 as student "beta_max" (test_grading_roundtrip); one of
    # the 8 trees (1 point) is seeded from the student's id, and on this student's tree the
    # erratum may or may not change the leaves
    assert WRONG.expect["test_alphabeta"] <= scores[s2] <= WRONG.expect["test_alphabeta"] + 1
    assert scores[s2] < 8.0
    SCORES.update(scores)
    grades = (course / "grades.csv").read_text().splitlines()
    assert {s1, s2} <= {row.split(",")[3] for row in grades[1:] if row.startswith(ASSIGNMENT)}
    # everything the instructor made is theirs; feedback in the exchange is not listable
    feedback = hub.exchange / "minimaxkit" / "feedback"
    assert _mode(feedback) == 0o711 and feedback.stat().st_uid == hub.instructor.uid
    assert len(list(feedback.glob("*.html"))) == 2
    seen = _can(hub.students[1], hub,
                f"import os\ntry: print(os.listdir({str(feedback)!r}))\n"
                "except OSError as e: print('refused', e.errno)")
    assert seen == "refused 13"
    STEPS["instructor: all"] = time.monotonic() - started


def _feedback_text(html: str) -> str:
    return " ".join(re.sub(r"<[^>]+>", " ", html).split())


def test_6_each_student_sees_their_own_feedback(hub: CourseHub, browser: Any) -> None:
    started = time.monotonic()
    s1, s2 = hub.students
    # student 2, on the command line
    hub.run(s2, *student_commands()[2])
    pages2 = list((s2.home / ASSIGNMENT / "feedback").glob(f"*/{ASSIGNMENT}.html"))
    assert len(pages2) == 1
    text2 = _feedback_text(pages2[0].read_text())
    points = SCORES[s2.name]  # what the gradebook holds is what the student reads
    assert f"alphabeta: {points:g} of 8 points" in text2
    assert all(message in text2 for message in WRONG.messages)
    assert "<img" in pages2[0].read_text()  # the picture of where the search went wrong
    # student 1, in the browser: Fetch Feedback in the Assignments tab, then the page
    page = _login(browser, hub, s1, f"{hub.url}/hub/login")
    panel = _open_assignments(page)
    row = panel.locator("#submitted_assignments_list .list_item", has_text=ASSIGNMENT).first
    row.get_by_role("button", name="Fetch Feedback").click()
    panel.get_by_text("(view feedback)").wait_for()
    _shot(page, "5-feedback-fetched")
    pages1 = list((s1.home / ASSIGNMENT / "feedback").glob(f"*/{ASSIGNMENT}.html"))
    assert len(pages1) == 1
    relative = pages1[0].relative_to(s1.home).as_posix()
    page.goto(f"{hub.url}/user/{s1.name}/files/{relative}")
    verdict = page.locator(".output_area", has_text="alphabeta: 8 of 8 points").first
    verdict.wait_for()
    verdict.scroll_into_view_if_needed()
    _shot(page, "6-feedback-student-1")
    text1 = _feedback_text(page.content())
    assert "alphabeta: 8 of 8 points" in text1 and "✘" not in text1
    # nobody else's: not the other's verdicts, and the seeded tree is each one's own
    assert not any(message in text1 for message in WRONG.messages)
    assert "8 of 8" not in text2
    assert s2.name not in text1 and s1.name not in text2
    # and student 1 cannot open student 2's page (a private home), nor the other's server
    seen = _can(s1, hub, f"try: open({str(pages2[0])!r}).read(); print('read')\n"
                         "except OSError as e: print('refused', e.errno)")
    assert seen == "refused 13"
    page.goto(f"{hub.url}/user/{s2.name}/files/{relative}")
    assert "alphabeta:" not in page.content()
    # a student's server has no formgrader
    response = page.goto(f"{hub.url}/user/{s1.name}/formgrader")
    assert response is not None and response.status == 404
    STEPS["students: feedback"] = time.monotonic() - started
    # student 2's page, to look at (not through the hub: the test reads the file as root)
    page.set_content(pages2[0].read_text())
    page.locator(".output_area img").first.scroll_into_view_if_needed()
    _shot(page, "6-feedback-student-2")
    page.context.close()


def test_7_the_instructor_has_formgrader_and_students_do_not(hub: CourseHub,
                                                             browser: Any) -> None:
    page = _login(browser, hub, hub.instructor, f"{hub.url}/hub/login")
    commands = page.evaluate("""() => ['nbgrader:open-formgrader',
        'nbgrader:open-assignment-list'].map((c) => window.jupyterapp.commands.hasCommand(c))""")
    assert commands == [True, True]
    # formgrader in a page of its own (JupyterHub >= 4.1 refuses it in an iframe)
    page.goto(f"{hub.url}/user/{hub.instructor.name}/formgrader")
    row = page.locator("tr", has_text=ASSIGNMENT).first
    row.wait_for()
    _shot(page, "7-formgrader")
    cells = row.locator("td").all_inner_texts()
    assert "released" in cells and "2" in cells  # status, and the two submissions
    page.context.close()


# ----- grading on submission -----------------------------------------------------------------
_ANSWER = ("import nbformat, json, sys\n"
           "nb = nbformat.read(sys.argv[1], 4)\n"
           "cells = json.loads(sys.argv[2])\n"
           "for cell in nb.cells:\n"
           "    gid = cell.metadata.get('nbgrader', {}).get('grade_id')\n"
           "    if gid in cells:\n"
           "        cell.source = cells[gid]\n"
           "nbformat.write(nb, sys.argv[1])\n")


def _submit(hub: CourseHub, student: User, cells: dict[str, str]) -> None:
    """``student`` answers a1_minimax with ``cells`` and submits it (the command line)."""
    notebook = student.home / ONGOING / f"{ONGOING}.ipynb"
    hub.run(student, str(hub.env.python), "-c", _ANSWER, str(notebook), json.dumps(cells))
    hub.run(student, "nbgrader", "submit", ONGOING)
    time.sleep(1.1)  # nbgrader names a submission by its second


def _pages(student: User) -> list[Path]:
    return sorted((student.home / ONGOING / "feedback").glob(f"*/{ONGOING}.html"))


def _wait_feedback(hub: CourseHub, student: User, count: int, timeout: float = 900) -> Path:
    """Wait until the service has graded ``count`` of ``student``'s submissions, then fetch
    feedback as ``student`` (``nbgrader fetch_feedback``) until they have ``count`` pages;
    the newest.

    The wait reads the service's ledger (a file it replaces whole), which says ``graded``
    only once the feedback is released: a fetch every few seconds while the grading runs
    would start a whole nbgrader process each time, beside the grading it waits for."""
    started = time.monotonic()
    deadline = started + timeout
    while sum(e["status"] == "graded" for e in _of(hub, student)) < count:
        failed = any(e["status"] == "failed" for e in _of(hub, student))
        if failed or time.monotonic() > deadline:
            raise AssertionError(f"{student.name}'s submissions are {_of(hub, student)}: not "
                                 f"{count} graded after {time.monotonic() - started:.0f} s:\n"
                                 f"{hub.log_tail(80)}")
        time.sleep(0.5)
    fetches = 0
    while len(_pages(student)) < count:
        if fetches == 5 or time.monotonic() > deadline:
            raise AssertionError(f"{student.name} has {len(_pages(student))} feedback pages, "
                                 f"not {count}, after {fetches} fetches of feedback the "
                                 f"ledger says is released:\n{hub.log_tail(80)}")
        hub.run(student, "nbgrader", "fetch_feedback", ONGOING)
        fetches += 1
    return _pages(student)[-1]


def _ledger(hub: CourseHub) -> dict[str, dict[str, Any]]:
    path = hub.instructor.home / "course" / "ongoing" / "ledger.json"
    return json.loads(path.read_text()) if path.is_file() else {}


def _of(hub: CourseHub, student: User) -> list[dict[str, Any]]:
    """The ledger's entries of ``student``, oldest submission first."""
    return sorted((e for e in _ledger(hub).values() if e["student"] == student.name),
                  key=lambda e: e["submitted"])


def _service_pids(hub: CourseHub) -> list[int]:
    return [pid for pid in processes_of(hub.instructor.uid)
            if "minimaxkit.classroom.ongoing" in _cmdline(pid)]


def _points(page: Path) -> float:
    """The points a feedback page gives (nbgrader's "Score: x / y" of the whole)."""
    found = re.search(r"Score: ([\d.]+) / ([\d.]+)", _feedback_text(page.read_text()))
    assert found, _feedback_text(page.read_text())[:500]
    return float(found.group(1))


@pytest.mark.timeout(1800)  # gradings on a shared machine
def test_8_a_submission_is_graded_without_the_instructor(hub: CourseHub) -> None:
    started = time.monotonic()
    course = hub.instructor.home / "course"
    for command in (["nbgrader", "generate_assignment", ONGOING, "--force"],
                    ["nbgrader", "db", "assignment", "add", ONGOING,
                     "--duedate=2099-01-01 00:00:00 UTC"],
                    ["nbgrader", "release_assignment", ONGOING]):
        hub.run(hub.instructor, *command, cwd=course)
    assert len(_service_pids(hub)) == 1, "the hub did not start the grading service"
    s1 = hub.students[0]
    hub.run(s1, "nbgrader", "fetch_assignment", ONGOING)
    _submit(hub, s1, A1_RIGHT)
    page = _wait_feedback(hub, s1, 1)
    STEPS["on submission: first feedback"] = time.monotonic() - started
    text = _feedback_text(page.read_text())
    # the visible trees only, before the due date: each question's full share of them, the
    # page saying the hidden trees come later, and no disagreement with the notebook's own
    claims = re.findall(r"(\w+): ([\d.]+) of ([\d.]+) points on the visible trees", text)
    assert [c[0] for c in claims] == ["minimax", "minimax_limited", "best_move"], claims
    assert all(got == of for _, got, of in claims), claims
    VISIBLE["full"] = sum(float(of) for *_, of in claims)
    assert _points(page) == VISIBLE["full"] < 16.0
    assert "the hidden trees are added when your work is graded" in text
    assert "(note:" not in text
    (entry,) = _of(hub, s1)
    assert (entry["status"], entry["trees"], entry["score"]) == \
        ("graded", "visible", VISIBLE["full"])
    from nbgrader.api import Gradebook

    with Gradebook(f"sqlite:///{course / 'gradebook.db'}") as gradebook:
        assert gradebook.find_submission(ONGOING, s1.name).score == VISIBLE["full"]
        # the term's own grades are still there
        assert gradebook.find_submission(ASSIGNMENT, s1.name).score == SCORES[s1.name]


@pytest.mark.timeout(1800)  # gradings on a shared machine
def test_9_a_resubmission_gets_its_own_verdict(hub: CourseHub) -> None:
    s1 = hub.students[0]
    _submit(hub, s1, A1_WRONG)
    page = _wait_feedback(hub, s1, 2)
    assert _points(page) < VISIBLE["full"]
    assert "✘" in _feedback_text(page.read_text())
    first, second = _of(hub, s1)
    assert first["score"] == VISIBLE["full"] and second["score"] == _points(page)
    history = hub.instructor.home / "course" / "ongoing" / "history" / s1.name / ONGOING
    kept = sorted(history.iterdir())
    assert len(kept) == 2 and all((k / "grade.json").is_file() for k in kept)
    assert all(list((k / "feedback").glob("*.html")) for k in kept)


@pytest.mark.timeout(1800)  # gradings on a shared machine
def test_10_a_hostile_submission_gets_0_and_the_next_is_graded(hub: CourseHub) -> None:
    s1, s2 = hub.students
    hub.run(s2, "nbgrader", "fetch_assignment", ONGOING)
    _submit(hub, s2, A1_HOSTILE)
    _submit(hub, s1, A1_RIGHT)  # submitted after the hostile one: graded after it
    page = _wait_feedback(hub, s1, 3)
    assert _points(page) == VISIBLE["full"]
    (hostile,) = _of(hub, s2)
    assert (hostile["status"], hostile["score"]) == ("graded", 0.0)
    assert hostile["graded_at"] < _of(hub, s1)[-1]["graded_at"]
    assert _points(_wait_feedback(hub, s2, 1)) == 0.0
    assert (hub.instructor.home / "course" / "gradebook.db").stat().st_size > 0


@pytest.mark.timeout(1800)  # gradings on a shared machine
def test_11_past_the_daily_cap_a_submission_waits(hub: CourseHub) -> None:
    s1 = hub.students[0]
    _submit(hub, s1, A1_WRONG)
    deadline = time.monotonic() + 120
    while _of(hub, s1)[-1]["status"] != "waiting":
        assert time.monotonic() < deadline, _of(hub, s1)
        time.sleep(1)
    assert "3 graded today already" in _of(hub, s1)[-1]["detail"]
    hub.run(s1, "nbgrader", "fetch_feedback", ONGOING)
    assert len(_pages(s1)) == 3


@pytest.mark.timeout(1800)  # gradings on a shared machine
def test_12_the_service_restarts_and_loses_nothing(hub: CourseHub) -> None:
    started = time.monotonic()
    s2 = hub.students[1]
    before = {name: dict(e) for name, e in _ledger(hub).items()}
    (pid,) = _service_pids(hub)
    _submit(hub, s2, A1_RIGHT)
    deadline = time.monotonic() + 300
    while not any(e["status"] == "grading" for e in _of(hub, s2)):  # caught mid-grading
        assert time.monotonic() < deadline, _of(hub, s2)
        time.sleep(0.2)
    os.killpg(os.getpgid(pid), signal.SIGKILL)  # the service and the grading it started
    page = _wait_feedback(hub, s2, 2)
    STEPS["on submission: restart and grade"] = time.monotonic() - started
    assert _points(page) == VISIBLE["full"]
    new = _service_pids(hub)
    assert len(new) == 1 and new != [pid]
    after = _ledger(hub)
    for name, entry in before.items():  # nothing recorded before the restart is lost
        assert after[name]["status"] == entry["status"] or entry["status"] == "waiting"
        assert after[name]["score"] == entry["score"]
    assert _of(hub, s2)[-1]["status"] == "graded"
    assert "Service minimaxkit-autograde exited" in hub.log.read_text(errors="replace")
