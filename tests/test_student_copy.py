"""The students' copy of the course (``make student``, tools/make_student.py).

Built the way the README says (``make student``, into a temp folder), it must hold no file of
``solutions/``, no solution cell's code and no hidden test tree (checked against the
sources in ``solutions/`` themselves, not against the tool's own rules), have Binder's layout,
and run: a lecture and a released assignment execute from the copy, importing the copy's
kit, and the assignment, answered with the solution, earns its visible points.
"""

from __future__ import annotations

import json
import os
import re
import stat
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import nbformat
import pytest
from nbclient import NotebookClient

REPO = Path(__file__).resolve().parents[1]
SOURCES = sorted((REPO / "solutions").glob("*/*.ipynb"))


@pytest.fixture(scope="module")
def copy(tmp_path_factory: pytest.TempPathFactory) -> Path:
    out = tmp_path_factory.mktemp("student") / "course-student"
    done = subprocess.run(["make", "-s", "student", f"STUDENT_DIR={out}",
                           f"PYTHON={sys.executable}"],
                          cwd=REPO, capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stdout + done.stderr
    return out


def _files(root: Path) -> Iterator[Path]:
    for path in sorted(root.rglob("*")):
        if path.is_file() and ".git" not in path.relative_to(root).parts:
            yield path


def _squash(text: str) -> str:
    return " ".join(text.split())


def _text_of(path: Path) -> str:
    """A file's text; a notebook's cell sources and outputs as they read, not as JSON."""
    raw = path.read_bytes().decode("utf-8", errors="replace")
    if path.suffix != ".ipynb":
        return raw
    nb = json.loads(raw)
    parts = []
    for cell in nb["cells"]:
        parts.append("".join(cell["source"]))
        for out in cell.get("outputs", []):
            parts.append("".join(out.get("text", "")))
            for value in out.get("data", {}).values():
                parts.append(value if isinstance(value, str) else "".join(value)
                             if isinstance(value, list) else json.dumps(value))
    return "\n".join(parts)


def _solution_regions() -> list[tuple[str, str]]:
    """(where, code) of every solution in solutions/: the body between nbgrader's
    BEGIN/END SOLUTION of each cell marked ``solution`` (the whole cell when unmarked)."""
    out = []
    for path in SOURCES:
        for cell in nbformat.read(str(path), 4).cells:
            meta = cell.metadata.get("nbgrader", {})
            if not meta.get("solution"):
                continue
            regions = re.findall(r"### BEGIN SOLUTION\n(.*?)### END SOLUTION", cell.source, re.S)
            for region in regions or [cell.source]:
                out.append((f"{path.name}:{meta.get('grade_id')}", region))
    return out


def _hidden() -> list[tuple[str, Any]]:
    out = []
    for path in sorted((REPO / "solutions").glob("*/hidden_tests.json")):
        data = json.loads(path.read_text())
        out.append((f"{path.parent.name}: salt", data["salt"]))
        for question, spec in data["questions"].items():
            for kind in ("trees", "seeded"):
                for tree in spec.get(kind, []):
                    where = f"{path.parent.name}/{question}/{tree['name']}"
                    out.append((where, tree["tree"]))
                    if "reference" in tree:  # the expected answer stored with it
                        out.append((f"{where} reference", tree["reference"]))
    return out


def _json_values(value: Any) -> Iterator[Any]:
    yield value
    if isinstance(value, dict):
        for item in value.values():
            yield from _json_values(item)
    elif isinstance(value, list):
        for item in value:
            yield from _json_values(item)


def test_the_copy_holds_no_instructor_file(copy: Path) -> None:
    names = [p.relative_to(copy).as_posix() for p in _files(copy)]
    top = {n.split("/")[0] for n in names}
    assert top == {"README.md", "Makefile", ".gitignore", "environment.yml", "postBuild",
                   "pyproject.toml", "notebooks", "assignments", "minimaxkit", "tools", "docs"}
    assert [n for n in names if n.startswith("tools/")] == ["tools/student_setup.py"]
    assert sorted(n for n in names if n.startswith("docs/")) == ["docs/design.md",
                                                                 "docs/views.md"]
    assert not [n for n in names if Path(n).name.startswith("hidden_")
                or n.endswith("nbgrader_config.py")]
    # the released assignments (nbgrader's release), the lectures and the kit, byte for byte
    # (so every test of them in this repository tests the students' copy too)
    for folder in ("assignments", "notebooks", "minimaxkit"):
        for path in (REPO / folder).rglob("*"):
            if path.is_file() and "__pycache__" not in path.parts and \
                    ".ipynb_checkpoints" not in path.parts and path.suffix != ".pyc":
                assert (copy / path.relative_to(REPO)).read_bytes() == path.read_bytes()
    # and the copy is a git repository with that content committed on main
    status = subprocess.run(["git", "-C", str(copy), "status", "--porcelain", "--branch"],
                            capture_output=True, text=True, check=True).stdout
    assert status.strip() == "## main"


def test_no_solution_and_no_hidden_test_in_the_copy(copy: Path) -> None:
    texts = {p.relative_to(copy).as_posix(): _text_of(p) for p in _files(copy)}
    corpus = {name: _squash(text) for name, text in texts.items()}
    solutions = _solution_regions()
    assert len(solutions) >= 8  # a1: 3, a2: 1, a3: 2, a4: 2
    # the search below finds them where they are: in the sources themselves
    sources = " ".join(_squash(_text_of(p)) for p in SOURCES)
    assert all(_squash(code) in sources for _, code in solutions)
    found = [(where, name) for where, code in solutions
             for name, text in corpus.items() if _squash(code) in text]
    assert found == []
    # nor any line of a solution's own, when no lecture or released file has the line
    # in the course repository itself (a `return node.static()` is everyone's)
    public = " ".join(_squash(_text_of(p)) for d in ("notebooks", "assignments", "minimaxkit")
                      for p in (REPO / d).rglob("*") if p.is_file()
                      and p.suffix in (".py", ".ipynb", ".json"))
    lines = {_squash(ln) for _, code in solutions for ln in code.splitlines()
             if len(ln.strip()) >= 25 and _squash(ln) not in public}
    assert len(lines) >= 10
    leaked = [(ln, name) for ln in lines for name, text in corpus.items() if ln in text]
    assert leaked == []
    # hidden trees: neither the salt nor any hidden tree's spec
    hidden = _hidden()
    assert len(hidden) >= 8
    salts = [value for where, value in hidden if where.endswith(": salt")]
    assert [s for s in salts for text in texts.values() if s in text] == []
    specs = {json.dumps(v, sort_keys=True) for where, v in hidden if not where.endswith("salt")}
    shown = set()
    for path in _files(copy):
        if path.suffix in (".json", ".ipynb"):
            shown |= {json.dumps(v, sort_keys=True)
                      for v in _json_values(json.loads(path.read_text()))
                      if isinstance(v, dict)}
    assert specs & shown == set()


def test_the_copy_has_binders_layout(copy: Path) -> None:
    post = copy / "postBuild"
    assert post.stat().st_mode & stat.S_IXUSR
    first = re.search(r"--first-notebook (\S+)", post.read_text())
    assert first and (copy / first.group(1)).is_file()
    assert "tools/student_setup.py" in post.read_text()
    env = (copy / "environment.yml").read_text()
    assert "- -e ." in env and (copy / "pyproject.toml").is_file()
    readme = (copy / "README.md").read_text()
    links = re.findall(r"mybinder\.org/v2/gh/OWNER/REPO/HEAD\?urlpath=lab/tree/(\S+?)\)",
                       readme)
    lectures = sorted(p.relative_to(copy).as_posix() for p in (copy / "notebooks").glob("*.ipynb"))
    assert sorted(links) == lectures  # every lecture, each with its Binder link
    released = sorted((copy / "assignments").glob("*/*.ipynb"))
    for path in released:  # every assignment named and linked, and the count said
        assert f"({path.relative_to(copy).as_posix()})" in readme, path
    words = ["no", "one", "two", "three", "four", "five", "six", "seven", "eight", "nine"]
    said = rf"\b{words[len(lectures)]} lectures, {words[len(released)]} assignments"
    assert re.search(said, readme, re.IGNORECASE), said
    assert "solutions" not in readme.replace("olutions and hidden tests are not", "")


def _run(path: Path, copy: Path, env: dict[str, str]) -> nbformat.NotebookNode:
    nb = nbformat.read(str(path), 4)
    nb.cells.insert(0, nbformat.v4.new_code_cell("import minimaxkit; print(minimaxkit.__file__)"))
    NotebookClient(nb, timeout=120, kernel_name="python3",
                   resources={"metadata": {"path": str(path.parent)}}).execute(env=env)
    assert nb.cells[0].outputs[0]["text"].strip() == str(copy / "minimaxkit" / "__init__.py")
    return nb


def test_a_lecture_and_a_released_assignment_run_from_the_copy(
        copy: Path, tmp_path: Path) -> None:
    env = dict(os.environ, PYTHONPATH=str(copy), MPLBACKEND="agg",
               JUPYTER_PLATFORM_DIRS="1", IPYTHONDIR=str(tmp_path / "ipython"))
    env.pop("NBGRADER_EXECUTION", None)
    lecture = _run(copy / "notebooks" / "01_game_trees.ipynb", copy, env)
    errors = [o for c in lecture.cells if c.cell_type == "code" for o in c.outputs
              if o.output_type == "error"]
    assert errors == []
    # the released a2, answered with the source's solution cell (its body, markers cut)
    path = copy / "assignments" / "a2_alphabeta" / "a2_alphabeta.ipynb"
    answer = next(c.source for c in nbformat.read(str(REPO / "solutions" / "a2_alphabeta"
                                                          / "a2_alphabeta.ipynb"), 4).cells
                  if c.metadata.get("nbgrader", {}).get("grade_id") == "alphabeta")
    answer = "\n".join(ln for ln in answer.splitlines() if "### " not in ln)
    nb = nbformat.read(str(path), 4)
    for cell in nb.cells:
        if cell.metadata.get("nbgrader", {}).get("grade_id") == "alphabeta":
            assert "NotImplementedError" in cell.source  # the released stub
            cell.source = answer
    answered = tmp_path / "a2_alphabeta"
    answered.mkdir()
    (answered / "tests.json").write_bytes((path.parent / "tests.json").read_bytes())
    nbformat.write(nb, str(answered / "a2_alphabeta.ipynb"))
    done = _run(answered / "a2_alphabeta.ipynb", copy, env)
    test = next(c for c in done.cells
                if c.metadata.get("nbgrader", {}).get("grade_id") == "test_alphabeta")
    text = "".join(o.get("text", "") for o in test.outputs)
    trees = json.loads((path.parent / "tests.json").read_text())["questions"]["alphabeta"]
    n = len(trees["trees"])  # a point per visible tree in the student's own run
    assert f"alphabeta: {n} of {n} points on the visible trees" in text, text
    passed = [ln for ln in text.splitlines() if ln.startswith("✔ ")]
    assert len(passed) == len(trees["trees"]) >= 3 and "✘" not in text


def test_make_student_doctests() -> None:
    import doctest
    import importlib.util

    spec = importlib.util.spec_from_file_location("make_student", REPO / "tools" /
                                                  "make_student.py")
    assert spec and spec.loader
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    assert doctest.testmod(module).failed == 0


def test_a_source_notebook_in_the_copy_is_refused(tmp_path: Path) -> None:
    """A solution notebook where a released one belongs stops the build, naming the cell."""
    import shutil

    course = tmp_path / "course"
    shutil.copytree(REPO, course, ignore=shutil.ignore_patterns(".venv", ".git", "node_modules",
                                                                "tests", "benchmarks", "build"))
    shutil.copy(course / "solutions/a2_alphabeta/a2_alphabeta.ipynb",
                course / "assignments/a2_alphabeta/a2_alphabeta.ipynb")
    done = subprocess.run([sys.executable, str(course / "tools/make_student.py"),
                           str(tmp_path / "out")], capture_output=True, text=True)
    assert done.returncode == 1
    assert "assignments/a2_alphabeta/a2_alphabeta.ipynb, cell 3 (alphabeta)" in done.stderr
    assert not (tmp_path / "out").exists()
