"""The trusted grader's parts without nbgrader: the remote protocol (the recorder stays in
this process whatever the child does), the sandbox (the course folder is out of reach), the
reading of a test cell's ``grade(...)`` call, and the course's secret."""

from __future__ import annotations

import json
import os
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from minimaxkit import GameTree
from minimaxkit.grading import Outcome, describe, run_contained
from minimaxkit.grading.recording.remote import SessionRunner, tree_session
from minimaxkit.grading.testdata.cells import grade_call
from minimaxkit.grading.testdata.suites import SuiteError, load_hidden, load_visible, salt_for
from minimaxkit.grading.testdata.trees import build_tree, seed_for
from minimaxkit.grading.verdicts.references import reference
from minimaxkit.isolation import bwrap
from minimaxkit.isolation.session import Session

TREE = GameTree.from_nested([[3, 12, 8], [2, 4, 6], [14, 5, 2]])  # AIMA's Figure 5.2
MINIMAX = """
def minimax(node):
    if node.is_leaf():
        return node.static()
    values = [minimax(c) for c in node.children()]
    return max(values) if node.is_max() else min(values)
"""


def _run(session: Session, name: str, tree: GameTree = TREE,
         timeout: float = 1.0) -> Outcome:
    runner = SessionRunner(session)
    fn = runner.caller()[name]
    return run_contained(lambda rec: describe(fn(rec.root())), tree, timeout=timeout,
                         runner=runner)


def _session(folder: Path, course: Path | None = None, hidden: tuple[Path, ...] = ()) -> Session:
    return tree_session(folder, course_root=course, hidden_files=hidden)


def _cells(session: Session, cells: list[str]) -> None:
    for src in cells:
        session.run_cell(src)


@pytest.fixture
def session(tmp_path: Path) -> Iterator[Session]:
    with _session(tmp_path) as s:
        yield s


def test_the_parent_records_what_the_child_asked(session: Session) -> None:
    _cells(session, [MINIMAX])
    out = _run(session, "minimax")
    assert out.status == "ok" and out.result == {"number": 3}  # minimax value of Fig. 5.2
    # every leaf evaluated once, left to right: paths (i, j) for i, j in 0..2
    assert [p for k, p in out.calls if k == "static"] == [(i, j) for i in range(3)
                                                         for j in range(3)]


def test_replacing_the_grader_in_the_child_changes_nothing_recorded(session: Session) -> None:
    _cells(session, ["""
import sys
# every grader function that describes a returned value, and every recorder of calls, found
# by what they are (not by where they live): replaced
for module in list(sys.modules.values()):
    if getattr(module, "__name__", "").startswith("minimaxkit"):
        for name, value in list(vars(module).items()):
            if name == "describe" and callable(value):
                setattr(module, name, lambda *a, **k: {"number": 3})
            if isinstance(value, type) and hasattr(value, "evaluated"):
                value.log = lambda *a, **k: None
            if isinstance(value, type) and hasattr(value, "violations"):
                value.static = lambda self, path: 3

def cheat(node):
    return 3
"""])
    out = _run(session, "cheat")
    # the child's describe was replaced, so the value reads 3; but no leaf was evaluated,
    # and that is what the parent recorded
    assert out.calls == []


def test_the_attribute_slip_is_named_outside_the_notebook_too(session: Session) -> None:
    """``if node.is_leaf:`` (no parentheses) is the same MissingCall in the trusted child as
    in the notebook; static() of an interior node is the student's TreeError, not a grader
    fault."""
    _cells(session, ["""
def slip(node):
    if node.is_leaf:
        return node.static()
    return max(slip(c) for c in node.children())

def interior(node):
    return node.static()
"""])
    out = _run(session, "slip")
    assert out.status == "raised"
    assert "MissingCall: node.is_leaf is a method: write node.is_leaf() with parentheses" in \
        out.message
    out = _run(session, "interior")
    assert out.status == "raised" and "TreeError" in out.message
    assert "A: static() is only for leaves (a node with no children)" in out.message
    assert out.calls == [("static", ())]
    assert _run(session, "slip").status == "raised"  # the child is still serving


def test_a_timeout_restarts_the_child_with_the_cells_again(session: Session) -> None:
    _cells(session, [MINIMAX, "def loop(node):\n    while True:\n        pass"])
    assert _run(session, "loop", timeout=0.3).status == "timeout"
    assert _run(session, "minimax").result == {"number": 3}


def test_a_tree_is_timed_by_processor_time_and_the_wall_clock_only_stops_a_wait(
        session: Session) -> None:
    # a machine so busy that a search gets a third of the processor looks, to the grader,
    # like a search that waits two thirds of the time: it must not fail for that; a search
    # that uses more than the limit fails however fast the machine, and an endless loop is
    # stopped at about the limit (its processor time is looked at every half second); a wait
    # past WALL (10) times the limit is stopped
    _cells(session, [MINIMAX, """
import time
def waits(node, seconds=1.3):
    time.sleep(seconds)
    return minimax(node)
def busy(node):
    end = time.process_time() + 0.6
    while time.process_time() < end:
        pass
    return minimax(node)
def waits_long(node):
    return waits(node, 5)
"""])
    out = _run(session, "waits", timeout=1.0)  # 1.3 s on the wall, almost no processor time
    assert out.status == "ok" and out.result == {"number": 3}
    assert _run(session, "busy", timeout=0.5).status == "timeout"  # 0.6 s of processor time
    _cells(session, ["def loop(node):\n    while True:\n        pass"])
    out = _run(session, "loop", timeout=0.5)
    # stopped, and not before its 0.5 s of processor time (a loaded machine may give the loop
    # less than a tenth of a core, so that the wall's 5 s come first: no bound on them holds)
    assert out.status == "timeout" and out.seconds >= 0.5, out
    # 5 s of waiting would end "ok" (its processor time is small): only the wall stops it
    assert _run(session, "waits_long", timeout=0.3).status == "timeout"  # at 3 s
    assert _run(session, "minimax").result == {"number": 3}


def test_a_students_own_run_is_timed_the_same_way() -> None:
    # grade(...) in the student's kernel runs the search in a forked copy: the same rule
    import time

    def search(node: Any, wait: float = 0.0, busy: float = 0.0) -> Any:
        time.sleep(wait)
        end = time.process_time() + busy
        while time.process_time() < end:
            pass
        return node.static() if node.is_leaf() else max(search(c) for c in node.children())

    def run(**how: float) -> Outcome:
        return run_contained(lambda rec: describe(search(rec.root(), **how)), TREE, timeout=1.0)

    assert run(wait=1.3).status == "ok"  # waiting is no processor time
    assert run(busy=1.2).status == "timeout"
    assert run_contained(lambda rec: describe(search(rec.root(), wait=5)), TREE,
                         timeout=0.3).status == "timeout"  # the clock stops it at 3 s


def test_os_exit_in_the_function_costs_only_that_tree(session: Session) -> None:
    _cells(session, [MINIMAX, "import os\ndef leave(node):\n    os._exit(0)"])
    out = _run(session, "leave")
    assert out.status == "crashed" and "without a report" in out.message
    assert _run(session, "minimax").ok


@pytest.mark.skipif(not bwrap.available(), reason="bubblewrap is not available")
def test_the_course_folder_is_out_of_reach(tmp_path: Path) -> None:
    course = tmp_path / "course"
    folder = course / "autograded" / "eve" / "a2"
    folder.mkdir(parents=True)
    (course / "nbgrader_config.py").write_text("c = get_config()\n")
    (course / "gradebook.db").write_text("grades")
    with _session(folder, course) as session:
        _cells(session, ["""
import os
def attack(node):
    for path in ("../../../gradebook.db", "../../../nbgrader_config.py"):
        try:
            open(path, "a").write("x")
        except OSError as err:
            raise RuntimeError(f"{path}: {err.strerror}")
    return 0
"""])
        out = _run(session, "attack")
    assert out.status == "raised"
    assert "../../../gradebook.db: Read-only file system" in out.message
    assert (course / "gradebook.db").read_text() == "grades"


def test_grade_call_reads_the_restored_test_cell() -> None:
    cell = ('from minimaxkit.grading import grade\nhidden_trees = False\n'
            '### BEGIN HIDDEN TESTS\nhidden_trees = True\n### END HIDDEN TESTS\n'
            'grade("deepen", "deepen", points=9, hidden=hidden_trees, '
            'conventions=["equal-soft"])')
    call = grade_call(cell)
    assert call is not None
    assert (call.fn, call.question) == ("deepen", "deepen")
    assert call.kwargs == {"points": 9, "hidden": True, "conventions": ["equal-soft"]}
    assert grade_call("assert True") is None
    assert grade_call("grade(") is None  # a syntax error: no call


def test_a_secret_changes_the_seeded_trees(tmp_path: Path,
                                           monkeypatch: pytest.MonkeyPatch) -> None:
    suite = {"salt": "a2-salt-19fd"}
    (tmp_path / "nbgrader_config.py").write_text("")
    public = salt_for(suite, tmp_path)
    assert public == "a2-salt-19fd"  # without a secret: the committed (demo) salt
    (tmp_path / ".minimaxkit-secret").write_text("course secret\n")
    private = salt_for(suite, tmp_path)
    monkeypatch.setenv("MINIMAXKIT_SECRET", "another")
    assert len({public, private, salt_for(suite, tmp_path)}) == 3
    spec = {"random": {"depth": 3, "branching": [2, 3], "values": [0, 9]}}
    trees = [build_tree(spec, seed=seed_for("alice", "a2/alphabeta/yours", s)).to_json()
             for s in (public, private)]
    assert trees[0] != trees[1]


def test_hidden_tests_never_come_from_the_submission_folder(tmp_path: Path) -> None:
    (tmp_path / "nbgrader_config.py").write_text("")
    folder = tmp_path / "autograded" / "eve" / "a2"
    folder.mkdir(parents=True)
    (folder / "hidden_tests.json").write_text(json.dumps({"questions": {}}))
    with pytest.raises(SuiteError, match="not found"):
        load_hidden(folder, "a2")
    source = tmp_path / "solutions" / "a2"
    source.mkdir(parents=True)
    spec = {"nested": [[1, 2]]}
    data = {"questions": {"q": {"check": "minimax", "trees": [
        {"name": "t", "tree": spec, "reference": reference("minimax", build_tree(spec))}]}}}
    (source / "hidden_tests.json").write_text(json.dumps(data))
    assert load_hidden(folder, "a2")["questions"]["q"]["trees"][0]["name"] == "t"
    private = tmp_path / "private" / "a2"
    private.mkdir(parents=True)
    (private / "hidden_tests.json").write_text(json.dumps({"questions": {"p": {}}}))
    assert list(load_hidden(folder, "a2")["questions"]) == ["p"]
    assert os.environ.get("MINIMAXKIT_PRIVATE_TESTS") is None


def test_the_verdict_says_where_the_notebooks_own_grade_differs() -> None:
    from minimaxkit.grading.autograde.trusted import kernel_note
    from minimaxkit.grading.verdicts.feedback import GradeReport, TreeVerdict
    from minimaxkit.grading.verdicts.results import TreeResult

    folder = Path(__file__).resolve().parents[2] / "solutions" / "a2_alphabeta"
    # the suite's 6 visible trees and one hidden tree (ties), a point each: scores 1, 1, 0,
    # 1, 1, 1 and 1 of 7 points: all trees 6; the visible ones 5 (of their 6 points)
    visible_names = [t["name"] for t in load_visible(folder)["questions"]["alphabeta"]["trees"]]
    assert len(visible_names) == 6 and "ties" not in visible_names
    report = GradeReport("alphabeta", 7.0, [
        TreeVerdict(n, "", TreeResult(score, "")) for n, score in
        zip([*visible_names, "ties"], (1.0, 1.0, 0.0, 1.0, 1.0, 1.0, 1.0), strict=True)],
        hidden=True)
    assert report.earned == 6.0

    def said(text: str) -> str:
        return kernel_note(report, text, folder)

    visible = " points on the visible trees, graded as cut on equality (v ≥ β, v ≤ α), fail-soft"
    assert said("alphabeta: 5 of 6" + visible) == ""
    assert "printed 6 of 6 for the visible trees, the trusted grader found 5" in said(
        "alphabeta: 6 of 6" + visible)
    assert said("alphabeta: 6 of 7 points") == ""
    assert "printed 7 of 7 for all trees, the trusted grader found 6" in said(
        "alphabeta: 7 of 7 points")
    assert "printed no verdict" in said("")


@pytest.mark.skipif(not bwrap.available(), reason="bubblewrap is not available")
def test_a_kit_that_lives_under_tmp_still_grades(tmp_path: Path) -> None:
    """The sandbox empties /tmp; a kit installed there (a checkout, a CI clone) comes back."""
    import shutil
    import subprocess
    import sys

    kit = Path(bwrap.__file__).resolve().parents[1]
    copy = tmp_path / "checkout"
    shutil.copytree(kit, copy / "minimaxkit", ignore=shutil.ignore_patterns("__pycache__"))
    script = """
import sys, tempfile, pathlib
from minimaxkit.grading import describe, run_contained
from minimaxkit.isolation.session import Session
from minimaxkit.grading.recording import remote
assert remote.__file__.startswith(sys.argv[1]), remote.__file__
with Session(pathlib.Path(tempfile.mkdtemp()), worker=remote.WORKER) as s:
    s.run_cell("import minimaxkit\\n"
               f"def f(node):\\n    return [node.children()[0].static(), "
               f"minimaxkit.__file__.startswith({sys.argv[1]!r})]")
    runner = remote.SessionRunner(s)
    fn = runner.caller()["f"]
    from minimaxkit import GameTree
    out = run_contained(lambda rec: describe(fn(rec.root())),
                        GameTree.from_nested([4, 2]), timeout=5, runner=runner)
    print(s.sandboxed, s.problems, out.status)
    print(out.result)
"""
    done = subprocess.run([sys.executable, "-c", script, str(copy)], capture_output=True,
                          text=True, timeout=120, cwd=tmp_path,
                          env={**os.environ, "PYTHONPATH": str(copy)})
    assert done.returncode == 0, done.stderr[-2000:]
    head, result = done.stdout.splitlines()
    assert head == "True [] ok"
    # the function read the leaf, and the sandbox imported the kit from the copy under /tmp
    assert result == "{'seq': [{'number': 4}, {'other': 'bool', 'repr': 'True'}]}", result


# ----- what the sandbox hides: each test fails when its protection is taken away -------------
needs_bwrap = pytest.mark.skipif(not bwrap.available(), reason="bubblewrap is not available")
PROBE = """
def probe(node):
    import os, socket
    out = {}
    try:
        socket.create_connection(("127.0.0.1", PORT), timeout=2).close()
        out["net"] = "connected"
    except OSError as err:
        out["net"] = type(err).__name__
    out["env"] = " ".join(f"{k}={v}" for k, v in os.environ.items())
    try:  # unreadable where the sandbox runs as a user of its own (the grader is root)
        out["pid1"] = open("/proc/1/environ", "rb").read().decode(errors="replace")
    except OSError as err:
        out["pid1"] = type(err).__name__
    for name, path in (("home", HOME), ("secret", SECRET)):
        try:
            out[name] = open(path).read()
        except OSError as err:
            out[name] = type(err).__name__
    print(repr(out))
    return 0
"""


def _probe(tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
           secret_outside: bool) -> dict[str, str]:
    import socket
    import threading

    server = socket.socket()
    server.bind(("127.0.0.1", 0))
    server.listen(1)
    threading.Thread(target=lambda: server.accept(), daemon=True).start()
    home = tmp_path / "home"
    home.mkdir()
    (home / "notes").write_text("instructor's notes")
    course = tmp_path / "course"
    folder = course / "autograded" / "eve" / "a2"
    folder.mkdir(parents=True)
    (course / "nbgrader_config.py").write_text("c = get_config()\n")
    secret = (tmp_path / "secret.txt") if secret_outside else course / ".minimaxkit-secret"
    secret.write_text("course-secret-value")
    monkeypatch.setenv("HOME", str(home))
    monkeypatch.setenv("MINIMAXKIT_SECRET", "env-secret-value")
    monkeypatch.setenv("JUPYTERHUB_API_TOKEN", "hub-token-value")
    if secret_outside:
        monkeypatch.setenv("MINIMAXKIT_SECRET_FILE", str(secret))
    code = PROBE.replace("PORT", str(server.getsockname()[1])).replace(
        "HOME", repr(str(home / "notes"))).replace("SECRET", repr(str(secret)))
    try:
        with _session(folder, course, (secret,)) as session:
            _cells(session, [code])
            out = _run(session, "probe", timeout=10)
    finally:
        server.close()
    assert out.status == "ok", out.message
    import ast
    return dict(ast.literal_eval(out.printed.strip()))


@needs_bwrap
@pytest.mark.parametrize("secret_outside", [False, True], ids=["secret-in-course",
                                                                "secret-file-elsewhere"])
def test_the_sandbox_hides_the_network_the_environment_and_the_files(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch, secret_outside: bool) -> None:
    got = _probe(tmp_path, monkeypatch, secret_outside)
    # a server on the machine's loopback is out of reach: the sandbox has its own network
    assert got["net"] == "ConnectionRefusedError", got["net"]
    # neither the instructor's variables nor the secret, in the environment or in bwrap's
    for where in ("env", "pid1"):
        for value in ("env-secret-value", "hub-token-value", str(tmp_path / "home")):
            assert value not in got[where], (where, value)
    assert "MINIMAXKIT_SANDBOXED=1" in got["env"]
    # the instructor's home and the secret file are not there at all
    assert got["home"] == "FileNotFoundError"
    assert got["secret"] in ("FileNotFoundError", "")  # absent, or masked by an empty file
