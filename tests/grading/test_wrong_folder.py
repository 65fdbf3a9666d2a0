"""The class commands run outside a course folder say so, and write nothing there
(instructor review 2, finding 3): the class report from a folder without
``nbgrader_config.py`` once said "no graded submission ... autograde it first" and left an
empty ``gradebook.db`` behind; the class autograde said nbgrader's "No notebooks were
matched". In a course whose gradebook does not exist yet, the report says that and does not
create one either.
"""

from __future__ import annotations

import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from minimaxkit.classroom import autograde, report

REPO = Path(__file__).resolve().parents[2]


def _files(folder: Path) -> list[str]:
    return sorted(p.relative_to(folder).as_posix() for p in folder.rglob("*"))


@pytest.mark.parametrize(("main", "command"), [
    (report.main, "python -m minimaxkit.grading.report a2_alphabeta"),
    (autograde.main, "python -m minimaxkit.grading.autograde a2_alphabeta"),
])
def test_not_a_course_folder(main, command: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                             capsys: pytest.CaptureFixture[str]) -> None:
    monkeypatch.chdir(tmp_path)
    assert main(["a2_alphabeta"]) == 1
    err = capsys.readouterr().err
    assert f"{tmp_path} is not a course folder (it has no nbgrader_config.py)" in err, err
    assert f"run `{command}` in the course folder" in err, err
    assert "autograde it first" not in err and "No notebooks were matched" not in err, err
    assert _files(tmp_path) == []  # no gradebook.db, no reports/


def test_a_course_without_a_gradebook(tmp_path: Path) -> None:
    shutil.copy(REPO / "nbgrader_config.py", tmp_path / "nbgrader_config.py")
    done = subprocess.run([sys.executable, "-m", "minimaxkit.grading.report", "a2_alphabeta"],
                          cwd=tmp_path, capture_output=True, text=True, timeout=300)
    assert done.returncode == 1
    assert (f"the course has no gradebook yet ({tmp_path.resolve() / 'gradebook.db'}): run "
            "`nbgrader generate_assignment a2_alphabeta --force` and autograde the class "
            "first") in done.stderr, done.stderr
    assert _files(tmp_path) == ["nbgrader_config.py"]
