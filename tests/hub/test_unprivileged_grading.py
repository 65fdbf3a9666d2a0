"""Autograde as an ordinary instructor, as on a JupyterHub: the hostile submissions give the
verdicts they give under root, with bubblewrap active for that user.

``tests/grading/test_hostile_submissions.py`` runs the hostile samples of
``tests/grading/hostile/a2_alphabeta/`` through real ``nbgrader autograde`` as root and
checks each against its ``# expect:`` and ``# message:`` lines. Here the same samples, in
the same batch with honest ones, are graded by a Unix user made for the test (not root, no
sudo), whose ``RLIMIT_NPROC`` binds and whose bubblewrap must make its namespaces
unprivileged; the same lines must hold. One more submission looks for what a hub gives the
instructor's server: the hub's API token in the environment, a token file in the
instructor's home, the nbgrader exchange; it must find none of them.

Runs only as root (it makes the user; CI is root). bubblewrap must work for the user: where
the host forbids unprivileged user namespaces the test fails under CI and is skipped
elsewhere, with what the host must allow (``python -m minimaxkit.grading.hostcheck``).
"""

from __future__ import annotations

import json
import os
import secrets
import shutil
import tempfile
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import nbformat
import pytest

from minimaxkit.classroom.trial import parse_sample, solution_cells

from .unix import REPO, SharedEnv, User, Users, run_as, shared_env

pytestmark = [pytest.mark.slow, pytest.mark.timeout(900)]  # a module's course, under load

ASSIGNMENT = "a2_alphabeta"
HOSTILE = REPO / "tests" / "grading" / "hostile" / ASSIGNMENT
HONEST = REPO / "tests" / "grading" / "submissions" / ASSIGNMENT
TOKEN = "hub-api-token-" + secrets.token_hex(12)

#: a submission that searches correctly and prints what of the hub it can reach
SNOOP = '''
import glob, os
print("environ:", sorted(os.environ))
print("token:", os.environ.get("JUPYTERHUB_API_TOKEN"))
for where in ("{home}/.hub-token", "/srv/nbgrader/exchange", "{exchange}", "{home}"):
    try:
        print(where, os.listdir(where) if os.path.isdir(where) else open(where).read())
    except OSError as err:
        print(where, "blocked:", err)
for pid in glob.glob("/proc/[0-9]*/environ"):
    try:
        print(pid, open(pid, "rb").read().split(b"\\0")[:40])
    except OSError as err:
        print(pid, "blocked:", err)
'''


def _need_root() -> None:
    if os.geteuid() != 0:
        message = "makes Unix users: run as root (CI does)"
        if os.environ.get("CI"):
            pytest.fail(message)
        pytest.skip(message)


@pytest.fixture(scope="module")
def place() -> Iterator[Path]:
    """A world-searchable temp folder (pytest's own is private to root)."""
    _need_root()
    folder = Path(tempfile.mkdtemp(prefix="minimaxkit-unpriv-"))
    folder.chmod(0o755)
    try:
        yield folder
    finally:
        shutil.rmtree(folder, ignore_errors=True)


@pytest.fixture(scope="module")
def instructor(place: Path) -> Iterator[tuple[User, SharedEnv]]:
    users = Users(place / "home")
    (place / "home").mkdir(mode=0o755)
    try:
        user = users.add(f"mmkgrader{secrets.token_hex(2)}")
        yield user, shared_env(place)
    finally:
        users.remove_all()


def _check_sandbox(user: User, env: SharedEnv, place: Path) -> None:
    done = run_as(user, [str(env.python), "-m", "minimaxkit.grading.hostcheck"],
                  env={"PATH": env.path_env()}, cwd=place)
    if done.returncode != 0:
        message = f"bubblewrap does not work for an ordinary user here:\n{done.stdout}"
        if os.environ.get("CI"):
            pytest.fail(message)
        pytest.skip(message)


@pytest.fixture(scope="module")
def run(instructor: tuple[User, SharedEnv], place: Path) -> dict[str, Any]:
    user, env = instructor
    _check_sandbox(user, env, place)
    course = place / "course"
    course.mkdir()
    shutil.copy(REPO / "nbgrader_config.py", course)
    shutil.copytree(REPO / "solutions", course / "solutions")
    exchange = place / "exchange"
    exchange.mkdir(mode=0o777)
    (user.home / ".hub-token").write_text(TOKEN)
    solution = solution_cells(REPO / "solutions" / ASSIGNMENT / f"{ASSIGNMENT}.ipynb")
    snoop = dict(solution, alphabeta=SNOOP.format(home=user.home, exchange=exchange)
                 + solution["alphabeta"])
    honest = {"solution": solution,
              "beta_max": parse_sample((HONEST / "beta_max.py").read_text()).cells}
    hostile = {p.stem: parse_sample(p.read_text()).cells for p in sorted(HOSTILE.glob("*.py"))}
    order = [*honest.items(), *hostile.items(), ("snoop", snoop)]
    spec = {"root": str(course), "feedback": False,
            "submissions": [[ASSIGNMENT, name, cells] for name, cells in order]}
    (place / "spec.json").write_text(json.dumps(spec))
    for path in [course, *course.rglob("*"), place / "spec.json", user.home / ".hub-token"]:
        os.chown(path, user.uid, user.gid)
    (user.home / ".hub-token").chmod(0o600)
    done = run_as(user, [str(env.python), "-m", "minimaxkit.classroom.trial",
                         str(place / "spec.json"), str(course / "out.json")],
                  env={"PATH": env.path_env(), "JUPYTERHUB_API_TOKEN": TOKEN,
                       "JUPYTERHUB_USER": user.name}, cwd=course, timeout=900)
    assert done.returncode == 0, done.stdout[-3000:] + done.stderr[-3000:]
    out: dict[str, Any] = json.loads((course / "out.json").read_text())
    out.update(course=course, hostile=sorted(hostile), log=done.stderr, user=user)
    return out


def _text(course: Path, student: str) -> str:
    nb = nbformat.read(str(course / "autograded" / student / ASSIGNMENT / f"{ASSIGNMENT}.ipynb"),
                       4)
    return "\n".join(o.get("text", "") for c in nb.cells if c.cell_type == "code"
                     for o in c.outputs)


def test_graded_by_an_ordinary_user_in_the_sandbox(run: dict[str, Any]) -> None:
    assert run["errors"] == [], run["errors"][0][-3000:]
    assert "bubblewrap (bwrap) is not available" not in run["log"]
    owners = {p.stat().st_uid for p in (run["course"] / "autograded").rglob("*")}
    assert owners == {run["user"].uid}


def test_hostile_submissions_get_the_verdicts_they_get_under_root(run: dict[str, Any]) -> None:
    wrong = []
    for name in run["hostile"]:
        sample = parse_sample((HOSTILE / f"{name}.py").read_text())
        got = run["scores"][ASSIGNMENT][name]["test_alphabeta"]
        if abs(got - sample.expect["test_alphabeta"]) > 0.011:
            wrong.append(f"{name}: {got}, expected {sample.expect['test_alphabeta']}")
        text = " ".join(_text(run["course"], name).split())
        wrong += [f"{name}: no {m!r} in its output" for m in sample.messages if m not in text]
    assert wrong == []
    scores = {s: run["scores"][ASSIGNMENT][s]["test_alphabeta"]
              for s in ("solution", "beta_max", "snoop")}
    beta_max = parse_sample((HONEST / "beta_max.py").read_text()).expect["test_alphabeta"]
    assert scores == {"solution": 8.0, "beta_max": beta_max, "snoop": 8.0}


def test_the_hub_token_home_and_exchange_are_out_of_reach(run: dict[str, Any]) -> None:
    text = _text(run["course"], "snoop")
    assert "token: None" in text
    home = str(run["user"].home)
    assert f"{home}/.hub-token blocked: [Errno 2] No such file or directory" in text
    assert f"{home} blocked: [Errno 2]" in text
    assert "exchange blocked: [Errno 2]" in text
    # and nowhere: not in the kernel's output or any file nbgrader wrote
    for path in (run["course"] / "autograded").rglob("*"):
        if path.is_file():
            assert TOKEN.encode() not in path.read_bytes(), path
    assert "JUPYTERHUB" not in text.split("environ:")[1].split("\n")[0]
