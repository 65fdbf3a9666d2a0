"""What the host must allow for the sandbox, and autograde refusing to run without it when
asked to (``MINIMAXKIT_REQUIRE_SANDBOX=1``, as the hub's instructor server sets it)."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from minimaxkit.classroom.trial import prepare_course, solution_cells
from minimaxkit.isolation import bwrap

REPO = Path(__file__).resolve().parents[2]


def _hostcheck(env: dict[str, str]) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "minimaxkit.grading.hostcheck"], env=env,
                          capture_output=True, text=True, timeout=60)


def test_hostcheck_says_what_is_missing() -> None:
    # no bwrap on PATH: exit 1 and the package to install
    done = _hostcheck(dict(os.environ, PATH=str(Path(sys.executable).parent)))
    assert done.returncode == 1
    assert "bwrap: not found on PATH; install it (Debian: apt-get install bubblewrap)" \
        in done.stdout
    if not bwrap.available():
        pytest.skip("bubblewrap does not run here: the working case cannot be checked")
    done = _hostcheck(dict(os.environ))
    assert done.returncode == 0, done.stdout
    assert "sandbox: works" in done.stdout


def test_available_refuses_when_the_sandbox_is_required_and_missing() -> None:
    code = ("from minimaxkit.isolation import bwrap\n"
            "try:\n    bwrap.available()\nexcept bwrap.SandboxUnavailable as err:\n"
            "    print('refused:', err)\nelse:\n    print('ran')\n")
    env = dict(os.environ, MINIMAXKIT_NO_SANDBOX="1", MINIMAXKIT_REQUIRE_SANDBOX="1")
    done = subprocess.run([sys.executable, "-c", code], env=env, capture_output=True,
                          text=True, timeout=60)
    assert done.stdout.startswith("refused: MINIMAXKIT_REQUIRE_SANDBOX=1 and the sandbox "
                                  "cannot run here (MINIMAXKIT_NO_SANDBOX=1)"), done.stdout
    env.pop("MINIMAXKIT_REQUIRE_SANDBOX")
    done = subprocess.run([sys.executable, "-c", code], env=env, capture_output=True,
                          text=True, timeout=60)
    assert done.stdout.strip() == "ran"


@pytest.mark.slow
def test_autograde_refuses_without_the_sandbox_when_required(tmp_path: Path) -> None:
    """A real autograde with the sandbox required but unavailable grades nothing."""
    root = prepare_course(REPO, tmp_path / "course")
    cells = solution_cells(REPO / "solutions" / "a2_alphabeta" / "a2_alphabeta.ipynb")
    spec = {"root": str(root), "feedback": False, "export": False,
            "submissions": [["a2_alphabeta", "alice", cells]]}
    (tmp_path / "spec.json").write_text(json.dumps(spec))
    env = dict(os.environ, MINIMAXKIT_NO_SANDBOX="1", MINIMAXKIT_REQUIRE_SANDBOX="1")
    done = subprocess.run([sys.executable, "-m", "minimaxkit.classroom.trial",
                           str(tmp_path / "spec.json"), str(tmp_path / "out.json")],
                          env=env, cwd=root, capture_output=True, text=True, timeout=300)
    assert done.returncode == 0, done.stderr[-2000:]
    out = json.loads((tmp_path / "out.json").read_text())
    assert out["scores"] == {}
    assert len(out["errors"]) == 1 and "SandboxUnavailable" in out["errors"][0]
    assert "MINIMAXKIT_REQUIRE_SANDBOX=1 and the sandbox cannot run here" in out["errors"][0]
