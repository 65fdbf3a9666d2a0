"""Configure a Jupyter installation for students.

A student's JupyterLab (or Notebook 7) must open quietly on the lectures: no "official Jupyter news"
pop-up, and none of nbgrader's instructor panels (formgrader, course list, create
assignment) nor its exchange-based assignment list, while the notebook toolbar keeps
nbgrader's **Validate** button.

The script writes three small JSON files into one Jupyter config directory
(``{prefix}/etc/jupyter`` by default, i.e. the running Python's environment):

* ``labconfig/page_config.d/zz-minimaxkit-student.json``: ``disabledExtensions`` for the
  JupyterLab plugins listed in ``DISABLED_LAB_PLUGINS``;
* ``labconfig/default_setting_overrides.d/zz-minimaxkit-student.json``: the notification
  settings' defaults (never fetch news, never check for updates) and the widget manager's
  *Save Widget State Automatically* turned on (``saveState``), so saved lectures keep
  their widgets;
* ``jupyter_server_config.d/zz-minimaxkit-student.json``: turns off the nbgrader server
  extensions in ``DISABLED_SERVER_EXTENSIONS``;
* ``jupyter_server_config.json`` (merged into an existing file; the server reads only
  extension switches from the ``.d`` folder): ``FileContentsManager.pre_save_hook`` set to
  ``PRE_SAVE_HOOK``, so that a lecture only opened (the front end fills in the kernel's
  ``language_info``) saves as it was and ``git status`` stays clean.

Files in a ``.d`` folder are merged in name order, so the ``zz-`` prefix makes ours win
over ``nbgrader.json`` beside it.

Jupyter Notebook 7 is built from the same JupyterLab parts and reads the same files, so
the same setup serves students who open the notebooks there (the browser tests check both
front ends: tests/browser/test_lab_student.py).

With ``--first-notebook PATH`` it also sets ``ServerApp.default_url`` in
``jupyter_server_config.json``, so that a server started
without a path (Binder) lands on that notebook. ``--undo`` removes all of it.

Usage::

    python tools/student_setup.py                      # into sys.prefix/etc/jupyter
    python tools/student_setup.py --config-dir DIR     # e.g. a test's JUPYTER_CONFIG_DIR
    python tools/student_setup.py --first-notebook notebooks/01_game_trees.ipynb
    python tools/student_setup.py --undo               # instructors: get nbgrader's UI back
    python tools/student_setup.py --role hub-student --config-dir DIR   # a hub's students
    python tools/student_setup.py --role instructor --config-dir DIR    # a hub's instructors

Only the standard library is used, so the script runs in any Python.
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path
from typing import Any

FILE_NAME = "zz-minimaxkit-student.json"

DISABLED_LAB_PLUGINS: tuple[str, ...] = (
    # The "Would you like to receive official Jupyter news?" toast and update checks.
    "@jupyterlab/apputils-extension:announcements",
    # nbgrader's instructor UI, its exchange-based assignment list and its menu
    # (the menu only offers the panels above).
    "@jupyter/nbgrader:formgrader",
    "@jupyter/nbgrader:course-list",
    "@jupyter/nbgrader:create-assignment",
    "@jupyter/nbgrader:assignment-list",
    "@jupyter/nbgrader:menu",
    # Kept on purpose: "@jupyter/nbgrader:validate-assignment" (the Validate button).
)

DISABLED_SERVER_EXTENSIONS: tuple[str, ...] = (
    "nbgrader.server_extensions.formgrader",
    "nbgrader.server_extensions.course_list",
    "nbgrader.server_extensions.assignment_list",
    # Kept: "nbgrader.server_extensions.validate_assignment" (serves the Validate button).
)

#: Opening a notebook makes the front end write the kernel's language_info into it (and,
#: with widget state saved, an empty widget state): it is marked modified and autosaved.
#: This hook saves such a notebook byte for byte as it was (minimaxkit/widgets/savehook.py).
PRE_SAVE_HOOK = "minimaxkit.widgets.savehook.pre_save_hook"

#: what each role keeps of nbgrader. ``student`` (the default: Binder, ``make lab``, a
#: student's clone) keeps the Validate button only. ``hub-student`` (a student on a
#: JupyterHub with nbgrader's exchange) also keeps the Assignments tab (fetch, submit,
#: feedback) and the Nbgrader menu that opens it. ``instructor`` (on a hub) keeps all of
#: nbgrader, formgrader included; every role loses the news pop-up.
ROLES = ("student", "hub-student", "instructor")
_HUB_STUDENT_KEEPS = ("@jupyter/nbgrader:assignment-list", "@jupyter/nbgrader:menu",
                      "nbgrader.server_extensions.assignment_list")


def disabled(role: str = "student") -> tuple[tuple[str, ...], tuple[str, ...]]:
    """(lab plugins, server extensions) turned off for ``role`` (one of :data:`ROLES`)."""
    if role not in ROLES:
        raise ValueError(f"role must be one of {', '.join(ROLES)}, got {role!r}")
    if role == "instructor":
        return DISABLED_LAB_PLUGINS[:1], ()
    if role == "hub-student":
        return (tuple(p for p in DISABLED_LAB_PLUGINS if p not in _HUB_STUDENT_KEEPS),
                tuple(e for e in DISABLED_SERVER_EXTENSIONS if e not in _HUB_STUDENT_KEEPS))
    return DISABLED_LAB_PLUGINS, DISABLED_SERVER_EXTENSIONS


SETTING_OVERRIDES: dict[str, dict[str, Any]] = {
    "@jupyterlab/apputils-extension:notification": {
        "fetchNews": "false",
        "checkForUpdates": False,
    },
    # Settings > Save Widget State Automatically (ipywidgets' JupyterLab / Notebook 7 widget
    # manager, schema saveState, off by default): a saved lecture keeps its widgets' state,
    # so its step widgets show and step after a kernel restart, and with no kernel at all.
    "@jupyter-widgets/jupyterlab-manager:plugin": {
        "saveState": True,
    },
}


def default_config_dir(prefix: str | Path | None = None) -> Path:
    """The environment-level Jupyter config dir of ``prefix`` (default: ``sys.prefix``)."""
    return Path(prefix if prefix is not None else sys.prefix) / "etc" / "jupyter"


def _managed_files(config_dir: Path, role: str = "student") -> dict[Path, dict[str, Any]]:
    # Every plugin and extension of the lists is written, on or off, so that a role's
    # files win over another role's applied in a folder of lower precedence.
    plugins, extensions = disabled(role)
    return {
        config_dir / "labconfig" / "page_config.d" / FILE_NAME: {
            "disabledExtensions": {p: p in plugins for p in DISABLED_LAB_PLUGINS},
        },
        config_dir / "labconfig" / "default_setting_overrides.d" / FILE_NAME: SETTING_OVERRIDES,
        config_dir / "jupyter_server_config.d" / FILE_NAME: {
            "ServerApp": {
                "jpserver_extensions": {e: e not in extensions
                                        for e in DISABLED_SERVER_EXTENSIONS},
            },
        },
    }


def _write_json(path: Path, data: dict[str, Any]) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(json.dumps(data, indent=2, sort_keys=True) + "\n", encoding="utf-8")


def _read_json(path: Path) -> dict[str, Any]:
    if not path.exists() or not path.read_text(encoding="utf-8").strip():
        return {}
    data = json.loads(path.read_text(encoding="utf-8"))
    if not isinstance(data, dict):
        raise ValueError(f"{path}: expected a JSON object, found {type(data).__name__}")
    return data


def apply(config_dir: Path, *, first_notebook: str | None = None,
          role: str = "student") -> list[Path]:
    """Write the configuration of ``role`` (default: a student's) into ``config_dir``;
    return the files written."""
    written = []
    for path, data in _managed_files(config_dir, role).items():
        _write_json(path, data)
        written.append(path)
    # Only the server extension switches are read from jupyter_server_config.d; other
    # settings go into jupyter_server_config.json, merged into what is there.
    server_config = config_dir / "jupyter_server_config.json"
    data = _read_json(server_config)
    data.setdefault("FileContentsManager", {})["pre_save_hook"] = PRE_SAVE_HOOK
    if first_notebook is not None:
        url = "/lab/tree/" + first_notebook.strip("/")
        data.setdefault("ServerApp", {})["default_url"] = url
    _write_json(server_config, data)
    written.append(server_config)
    return written


def undo(config_dir: Path) -> list[Path]:
    """Remove what :func:`apply` wrote; return the files removed or changed."""
    changed = []
    for path in _managed_files(config_dir):
        if path.exists():
            path.unlink()
            changed.append(path)
    server_config = config_dir / "jupyter_server_config.json"
    data = _read_json(server_config)
    touched = False
    for section, key in (("ServerApp", "default_url"), ("FileContentsManager", "pre_save_hook")):
        if data.get(section, {}).pop(key, None) is not None:
            touched = True
            if not data[section]:
                del data[section]
    if touched:
        _write_json(server_config, data)
        changed.append(server_config)
    return changed


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    where = parser.add_mutually_exclusive_group()
    where.add_argument("--config-dir", type=Path, help="Jupyter config dir to write into")
    where.add_argument(
        "--prefix", type=Path, help="environment prefix (config: PREFIX/etc/jupyter)"
    )
    parser.add_argument(
        "--first-notebook",
        metavar="PATH",
        help="notebook (relative to the server's root dir) to open at /, e.g. on Binder",
    )
    parser.add_argument("--undo", action="store_true", help="remove the student configuration")
    parser.add_argument("--role", choices=ROLES, default="student",
                        help="student (default; Validate only), hub-student (also the "
                        "Assignments tab of nbgrader's exchange) or instructor (all of "
                        "nbgrader): see docs/hub.md")
    args = parser.parse_args(argv)

    config_dir = args.config_dir or default_config_dir(args.prefix)
    if args.undo:
        files = undo(config_dir)
        verb = "removed"
    else:
        files = apply(config_dir, first_notebook=args.first_notebook, role=args.role)
        verb = "wrote"
    for path in files:
        print(f"student_setup: {verb} {path}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
