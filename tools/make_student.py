"""Build the student copy of the course: what Binder, nbgitpuller and a student's clone open.

The course repository (this one) holds ``solutions/`` (every solution and the hidden test
trees), the instructor's nbgrader configuration, the tests and the benchmarks: instructors
keep it private. Students get a copy made of an allow-list (:data:`INCLUDE`): the lectures,
the released assignments, the kit, the files Binder builds from (``environment.yml``,
``postBuild``, ``pyproject.toml``, ``tools/student_setup.py``), the kit's design notes, and a
README, a Makefile and a ``.gitignore`` written for students (``tools/student/``).

Usage::

    python tools/make_student.py build/student          # a folder
    python tools/make_student.py build/student --git    # a git repository (make student)

With ``--git`` the folder is a git repository on branch ``main``; building again into it
replaces its files and commits the difference on top, so a published student repository
keeps its history (nbgitpuller merges new commits into the students' copies). Push it to
the public repository the Binder links and nbgitpuller links name.

Before writing anything the build checks what it copies and refuses (exit 1, naming the
file) anything that looks like a solution: a ``hidden_*`` file, a notebook cell holding
nbgrader's ``BEGIN SOLUTION`` / ``BEGIN HIDDEN TESTS`` regions (a source notebook copied
instead of its released version). Only the standard library is used.
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
TEMPLATES = Path(__file__).resolve().parent / "student"

#: what of the course repository students get (files and folders, relative to its root)
INCLUDE: tuple[str, ...] = (
    "notebooks",
    "assignments",
    "minimaxkit",
    "environment.yml",
    "postBuild",
    "pyproject.toml",
    "tools/student_setup.py",
    "docs/design.md",
    "docs/views.md",
)
#: files written for students in place of the course's own: name in the copy -> template
TEMPLATED: dict[str, str] = {"README.md": "README.md", "Makefile": "Makefile",
                             ".gitignore": "gitignore"}
#: never copied, wherever they are inside an included folder
SKIP_NAMES = {"__pycache__", ".ipynb_checkpoints", ".pytest_cache", ".mypy_cache"}
SKIP_SUFFIXES = (".pyc", ".pyo")
#: nbgrader's region markers: no notebook cell of the copy may hold one
MARKERS = ("BEGIN SOLUTION", "BEGIN HIDDEN TESTS")


class StudentCopyError(RuntimeError):
    """The copy would hold something a student must not see (or the build cannot go on)."""


def _files(root: Path, rel: str) -> Iterator[Path]:
    path = root / rel
    if not path.exists():
        raise StudentCopyError(f"{rel}: missing from {root} (tools/make_student.py INCLUDE)")
    if path.is_file():
        yield path
        return
    for sub in sorted(path.rglob("*")):
        parts = sub.relative_to(root).parts
        if any(p in SKIP_NAMES for p in parts) or sub.suffix in SKIP_SUFFIXES:
            continue
        if sub.is_file():
            yield sub


def check_file(path: Path, rel: str) -> None:
    """Raise :class:`StudentCopyError` if ``path`` (shown as ``rel``) looks like a solution.

    >>> import tempfile
    >>> d = Path(tempfile.mkdtemp())
    >>> _ = (d / "ok.py").write_text("print('hello')")
    >>> check_file(d / "ok.py", "ok.py")
    >>> _ = (d / "hidden_tests.json").write_text("{}")
    >>> try:
    ...     check_file(d / "hidden_tests.json", "a/hidden_tests.json")
    ... except StudentCopyError as err:
    ...     print(err)
    a/hidden_tests.json: hidden test data never goes to students
    """
    if path.name.startswith("hidden_"):
        raise StudentCopyError(f"{rel}: hidden test data never goes to students")
    try:
        text = path.read_text(encoding="utf-8")
    except (UnicodeDecodeError, OSError):
        return  # binary: no source code in it
    if path.suffix == ".ipynb":
        try:
            nb = json.loads(text)
        except json.JSONDecodeError as err:
            raise StudentCopyError(f"{rel}: not a notebook ({err})") from err
        for i, cell in enumerate(nb.get("cells", [])):
            meta = cell.get("metadata", {}).get("nbgrader", {})
            source = "".join(cell.get("source", []))
            if any(m in source for m in MARKERS):
                raise StudentCopyError(
                    f"{rel}, cell {i} ({meta.get('grade_id', 'no grade_id')}): holds an "
                    "nbgrader solution or hidden-tests region: release it with nbgrader "
                    "generate_assignment first")
        return


def collect(root: Path = ROOT) -> list[tuple[Path, str]]:
    """The files of the student copy: (source path, path in the copy), checked."""
    out: list[tuple[Path, str]] = []
    for rel in INCLUDE:
        for path in _files(root, rel):
            name = path.relative_to(root).as_posix()
            check_file(path, name)
            out.append((path, name))
    for name, template in TEMPLATED.items():
        path = TEMPLATES / template
        if not path.exists():
            raise StudentCopyError(f"{name}: its template {path} is missing")
        out.append((path, name))
    return out


def _git(out: Path, *args: str) -> str:
    env = dict(os.environ)
    env.setdefault("GIT_AUTHOR_NAME", "minimaxkit make_student")
    env.setdefault("GIT_AUTHOR_EMAIL", "make-student@minimaxkit.invalid")
    env.setdefault("GIT_COMMITTER_NAME", env["GIT_AUTHOR_NAME"])
    env.setdefault("GIT_COMMITTER_EMAIL", env["GIT_AUTHOR_EMAIL"])
    done = subprocess.run(["git", "-C", str(out), *args], capture_output=True, text=True,
                          env=env)
    if done.returncode != 0:
        raise StudentCopyError(f"git {' '.join(args)} in {out}: {done.stderr.strip()}")
    return done.stdout


def _source_commit(root: Path) -> str:
    try:
        done = subprocess.run(["git", "-C", str(root), "rev-parse", "--short", "HEAD"],
                              capture_output=True, text=True)
    except OSError:
        return "unknown"
    return done.stdout.strip() or "unknown"


def build(out: Path, *, root: Path = ROOT, git: bool = False) -> list[str]:
    """Write the student copy into ``out`` (emptied first, a ``.git`` in it kept); return
    the copy's files, relative to ``out``. With ``git``, commit them on branch ``main``."""
    files = collect(root)  # checks everything before touching out
    out = out.resolve()
    if root.resolve() == out or root.resolve() in out.parents and \
            out.relative_to(root.resolve()).parts[0] in ("notebooks", "assignments",
                                                         "minimaxkit", "solutions"):
        raise StudentCopyError(f"{out}: choose a folder outside the course's own folders")
    out.mkdir(parents=True, exist_ok=True)
    for entry in out.iterdir():
        if entry.name == ".git":
            continue
        if entry.is_dir() and not entry.is_symlink():
            shutil.rmtree(entry)
        else:
            entry.unlink()
    written = []
    for src, name in files:
        dest = out / name
        dest.parent.mkdir(parents=True, exist_ok=True)
        shutil.copy2(src, dest)
        written.append(name)
    if git:
        if not (out / ".git").exists():
            _git(out, "init", "-q", "-b", "main")
        _git(out, "add", "-A")
        if _git(out, "status", "--porcelain").strip():
            _git(out, "commit", "-q", "-m",
                 f"Student copy of the course, built from {_source_commit(root)} "
                 "by tools/make_student.py")
    return sorted(written)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("out", type=Path, help="folder to write the student copy into")
    parser.add_argument("--git", action="store_true",
                        help="make it a git repository (branch main) and commit the copy")
    args = parser.parse_args(argv)
    try:
        written = build(args.out, git=args.git)
    except StudentCopyError as err:
        print(f"make_student: {err}", file=sys.stderr)
        return 1
    print(f"make_student: wrote {len(written)} files to {args.out}"
          + (" and committed them (branch main)" if args.git else ""))
    return 0


if __name__ == "__main__":
    sys.exit(main())
