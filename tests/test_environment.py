"""pyproject.toml and environment.yml (Binder) must declare the same runtime environment; the
student setup's files; and the Makefile's .venv leaves out the package that made every
Jupyter process slow."""

from __future__ import annotations

import json
import re
import subprocess
import sys
import tomllib
from pathlib import Path
from typing import Any

import pytest
import yaml  # PyYAML: in the dependency tree via jupyter_server -> jupyter_events
from packaging.requirements import Requirement

ROOT = Path(__file__).resolve().parents[1]

# A conda match spec as written here: a name, then an optional version constraint.
CONDA_SPEC = re.compile(r"^(?P<name>[A-Za-z0-9_.\-]+)\s*(?P<spec>.*)$")


def _pyproject() -> dict[str, Any]:
    return tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))


def _environment() -> dict[str, Any]:
    data = yaml.safe_load((ROOT / "environment.yml").read_text(encoding="utf-8"))
    assert isinstance(data, dict), "environment.yml must hold a mapping"
    return data


def _conda_specs(env: dict[str, Any]) -> dict[str, str]:
    specs = {}
    for dep in env["dependencies"]:
        if isinstance(dep, str):
            match = CONDA_SPEC.match(dep.strip())
            assert match, f"environment.yml: cannot read dependency {dep!r}"
            specs[match["name"].lower()] = match["spec"].replace(" ", "")
    return specs


def _pip_section(env: dict[str, Any]) -> list[str]:
    sections = [dep["pip"] for dep in env["dependencies"] if isinstance(dep, dict) and "pip" in dep]
    assert len(sections) == 1, "environment.yml needs exactly one `pip:` section"
    return [line.strip() for line in sections[0]]


def _runtime_requirements() -> dict[str, str]:
    reqs = [Requirement(line) for line in _pyproject()["project"]["dependencies"]]
    return {req.name.lower(): str(req.specifier) for req in reqs}


def test_runtime_dependencies_match_pyproject() -> None:
    conda = _conda_specs(_environment())
    conda_runtime = {name: spec for name, spec in conda.items() if name not in {"python", "pip"}}
    assert conda_runtime == _runtime_requirements()


def test_environment_pins_python_and_uses_conda_forge() -> None:
    env = _environment()
    conda = _conda_specs(env)
    assert re.fullmatch(r"=3\.\d+", conda.get("python", "")), "pin python=3.X"
    assert env["channels"] == ["conda-forge"]
    assert "pip" in conda


def test_environment_installs_the_kit_itself() -> None:
    assert "-e ." in _pip_section(_environment())


def test_binder_python_satisfies_requires_python() -> None:
    from packaging.specifiers import SpecifierSet

    binder_python = _conda_specs(_environment())["python"].lstrip("=")
    assert binder_python in SpecifierSet(_pyproject()["project"]["requires-python"])


def test_conda_spec_reader() -> None:
    env = {"dependencies": ["numpy >=1.0", "python=3.12", {"pip": ["-e ."]}]}
    assert _conda_specs(env) == {"numpy": ">=1.0", "python": "=3.12"}


# --- the student JupyterLab configuration (tools/student_setup.py) ----------------------


def _student_setup() -> Any:
    import importlib.util

    spec = importlib.util.spec_from_file_location(
        "student_setup", ROOT / "tools" / "student_setup.py"
    )
    assert spec and spec.loader
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def _server_extensions(config_dir: Path) -> dict[str, bool]:
    from jupyter_server.extension.config import ExtensionConfigManager

    manager = ExtensionConfigManager(read_config_path=[str(config_dir)])
    return dict(manager.get_jpserver_extensions())


def _lab_config(config_dir: Path, section: str) -> dict[str, Any]:
    from jupyter_server.services.config.manager import ConfigManager

    return dict(ConfigManager(read_config_path=[str(config_dir / "labconfig")]).get(section))


def test_student_setup_wins_over_nbgrader_in_the_same_prefix(tmp_path: Path) -> None:
    config_dir = tmp_path / "etc" / "jupyter"
    nbgrader_json = config_dir / "jupyter_server_config.d" / "nbgrader.json"
    nbgrader_json.parent.mkdir(parents=True)
    enabled = {
        f"nbgrader.server_extensions.{name}": True
        for name in ("formgrader", "validate_assignment", "assignment_list", "course_list")
    }
    nbgrader_json.write_text(json.dumps({"ServerApp": {"jpserver_extensions": enabled}}))

    _student_setup().main(["--prefix", str(tmp_path)])

    assert _server_extensions(config_dir) == {
        "nbgrader.server_extensions.formgrader": False,
        "nbgrader.server_extensions.course_list": False,
        "nbgrader.server_extensions.assignment_list": False,
        "nbgrader.server_extensions.validate_assignment": True,
    }
    disabled = _lab_config(config_dir, "page_config")["disabledExtensions"]
    assert "@jupyter/nbgrader:formgrader" in disabled
    assert "@jupyterlab/apputils-extension:announcements" in disabled
    assert "@jupyter/nbgrader:validate-assignment" not in disabled
    overrides = _lab_config(config_dir, "default_setting_overrides")
    assert overrides["@jupyterlab/apputils-extension:notification"]["fetchNews"] == "false"


def test_student_setup_disables_real_plugin_ids() -> None:
    """Every id we disable must exist in the installed JupyterLab / nbgrader bundles."""
    import sys

    setup = _student_setup()
    share = Path(sys.prefix) / "share" / "jupyter"
    bundles = "".join(
        path.read_text(errors="replace")
        for pattern in ("labextensions/@jupyter/nbgrader/static/*.js", "lab/static/*.js")
        for path in share.glob(pattern)
    )
    for plugin in setup.DISABLED_LAB_PLUGINS:
        assert f'"{plugin}"' in bundles, plugin
    import importlib.util

    for module in setup.DISABLED_SERVER_EXTENSIONS:
        assert importlib.util.find_spec(module) is not None, module


def test_student_setup_first_notebook_and_undo(tmp_path: Path) -> None:
    setup = _student_setup()
    server_json = tmp_path / "jupyter_server_config.json"
    server_json.write_text(json.dumps({"ServerApp": {"port": 9999}}))

    setup.main(["--config-dir", str(tmp_path), "--first-notebook", "notebooks/01_game_trees.ipynb"])
    assert json.loads(server_json.read_text())["ServerApp"] == {
        "port": 9999,
        "default_url": "/lab/tree/notebooks/01_game_trees.ipynb",
    }

    setup.main(["--config-dir", str(tmp_path), "--undo"])
    assert json.loads(server_json.read_text()) == {"ServerApp": {"port": 9999}}
    assert _server_extensions(tmp_path) == {}
    assert _lab_config(tmp_path, "page_config") == {}


def test_the_makefiles_environment_leaves_out_the_slow_iri_parser() -> None:
    """The Makefile takes rfc3987-syntax out of .venv (its comment says why: its import costs
    every nbgrader command and Jupyter server 1.2-1.8 processor seconds, and the suite and an
    instructor's term start hundreds of them): a later install that brought it back would
    make each of them slower unseen. Asked of a new process, as the commands the tests start
    import nbformat afresh."""
    if Path(sys.prefix).resolve() != (ROOT / ".venv").resolve():
        pytest.skip("not the Makefile's .venv: which packages it holds is its owner's affair")
    probe = ("import importlib.util, jsonschema._format, sys; "
             "print(importlib.util.find_spec('rfc3987_syntax'), "
             "'rfc3987_syntax' in sys.modules)")
    out = subprocess.run([sys.executable, "-c", probe], capture_output=True, text=True,
                         check=True).stdout.split()
    assert out == ["None", "False"], (
        "rfc3987-syntax is installed in .venv: `make venv` takes it out (Makefile, "
        "SLOW_IMPORTS); run `.venv/bin/pip uninstall rfc3987-syntax`")
