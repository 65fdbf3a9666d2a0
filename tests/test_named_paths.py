"""Every path of the kit that the course's files name still works (issue #34: the layout moved
modules; old paths work through aliases, the documented commands through shims).

Read: the lectures, the released assignments and their sources (the cells' text),
``nbgrader_config.py``, the kernel specs, ``hub/``, ``tools/``, ``docs/``, the README, the
Makefile, CI's script, Binder's ``postBuild``. Checked:

- each dotted name ``minimaxkit.a.b.c`` imports (the longest module prefix) and has the
  rest as attributes;
- each ``from minimaxkit... import x, y`` gives ``x`` and ``y``;
- each ``python -m minimaxkit...`` command answers ``--help`` (exit 0, its usage);
- each file path ``minimaxkit/...`` exists.
"""

from __future__ import annotations

import importlib
import json
import re
import subprocess
import sys
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[1]
SOURCES = ("notebooks/*.ipynb", "assignments/*/*.ipynb", "solutions/*/*.ipynb",
           "nbgrader_config.py", "minimaxkit/**/kernel.json", "hub/**/*", "tools/**/*",
           "docs/**/*.md", "README.md", "Makefile", ".ci/run", "postBuild")

DOTTED = re.compile(r"(?<![\w/.@-])minimaxkit(?:\.[A-Za-z_]\w*)+")
FROM_IMPORT = re.compile(r"^\s*from\s+(minimaxkit(?:\.\w+)*)\s+import\s+(\([^)]*\)|[^\n#]+)",
                         re.M)
COMMAND = re.compile(r"-m\s+(minimaxkit(?:\.[A-Za-z_]\w*)+)")
FILE_PATH = re.compile(r"(?<![\w/.-])minimaxkit/[\w/.-]*[\w/]")


def _texts() -> dict[str, str]:
    """File (relative) -> its text; a notebook's cells' sources, one after the other."""
    out = {}
    for pattern in SOURCES:
        for path in sorted(REPO.glob(pattern)):
            if not path.is_file() or "__pycache__" in path.parts or \
                    path.suffix in (".pyc", ".png", ".svg", ".gif"):
                continue
            text = path.read_text(errors="replace")
            if path.suffix == ".ipynb":
                text = "\n".join("".join(c["source"]) for c in json.loads(text)["cells"])
            out[str(path.relative_to(REPO))] = text
    return out


TEXTS = _texts()


def _named(pattern: re.Pattern[str], group: int = 0) -> dict[str, list[str]]:
    """What ``pattern`` finds -> the files that name it."""
    found: dict[str, list[str]] = {}
    for file, text in TEXTS.items():
        for match in pattern.finditer(text):
            found.setdefault(match.group(group), []).append(file)
    return found


def _imported_names() -> dict[str, list[str]]:
    """``module:name`` for each name a ``from minimaxkit... import`` line imports."""
    found: dict[str, list[str]] = {}
    for file, text in TEXTS.items():
        for match in FROM_IMPORT.finditer(text):
            for part in match.group(2).strip("()").split(","):
                name = part.split(" as ")[0].strip()
                if re.fullmatch(r"[A-Za-z_]\w*", name):
                    found.setdefault(f"{match.group(1)}:{name}", []).append(file)
    return found


NAMES, IMPORTS = _named(DOTTED), _imported_names()
COMMANDS, FILES = _named(COMMAND, 1), _named(FILE_PATH)


def resolve(dotted: str) -> object:
    """The object ``dotted`` names: its longest importable module prefix, then attributes.

    >>> resolve("minimaxkit.search.transposition.TranspositionTable").__name__
    'TranspositionTable'
    >>> resolve("minimaxkit.no_such_thing")
    Traceback (most recent call last):
    ...
    LookupError: minimaxkit has no attribute no_such_thing (nor a module minimaxkit.no_such_thing)
    """
    parts = dotted.split(".")
    for cut in range(len(parts), 0, -1):
        try:
            obj: object = importlib.import_module(".".join(parts[:cut]))
        except ModuleNotFoundError as err:
            if err.name is not None and not ".".join(parts[:cut]).startswith(err.name):
                raise  # the module exists and imports something missing
            continue
        for i, attr in enumerate(parts[cut:], start=cut):
            if not hasattr(obj, attr):
                raise LookupError(f"{'.'.join(parts[:i])} has no attribute {attr} (nor a "
                                  f"module {'.'.join(parts[:i + 1])})")
            obj = getattr(obj, attr)
        return obj
    raise LookupError(f"no module {parts[0]}")


def test_the_files_name_enough_to_check() -> None:
    assert len(NAMES) >= 40 and len(COMMANDS) >= 5 and len(IMPORTS) >= 20, (
        len(NAMES), len(COMMANDS), len(IMPORTS))
    assert {f"minimaxkit.grading.{c}" for c in ("autograde", "report", "tournament", "refresh",
                                                "hostcheck")} <= set(COMMANDS)


@pytest.mark.parametrize("dotted", sorted(NAMES))
def test_a_named_module_path_imports(dotted: str) -> None:
    try:
        resolve(dotted)
    except (ImportError, LookupError) as err:
        pytest.fail(f"{dotted}, named in {', '.join(sorted(set(NAMES[dotted])))}: {err}")


@pytest.mark.parametrize("imported", sorted(IMPORTS))
def test_a_named_import_imports(imported: str) -> None:
    module, name = imported.split(":")
    try:
        resolve(f"{module}.{name}")
    except (ImportError, LookupError) as err:
        pytest.fail(f"from {module} import {name}, in "
                    f"{', '.join(sorted(set(IMPORTS[imported])))}: {err}")


@pytest.mark.parametrize("command", sorted(COMMANDS))
def test_a_named_command_runs(command: str) -> None:
    done = subprocess.run([sys.executable, "-m", command, "--help"], capture_output=True,
                          text=True, timeout=120, cwd=REPO)
    said = done.stdout + done.stderr
    # argparse's help exits 0; the sandboxed kernel's own usage line exits 2 (it is started
    # by a kernel spec, not typed)
    assert done.returncode in (0, 2) and "usage" in said.lower() and "Traceback" not in said, (
        f"python -m {command} --help, named in {', '.join(sorted(set(COMMANDS[command])))}: "
        f"exit {done.returncode}\n{done.stdout[-1500:]}{done.stderr[-1500:]}")


@pytest.mark.parametrize("path", sorted(FILES))
def test_a_named_file_exists(path: str) -> None:
    assert (REPO / path).exists(), f"{path}, named in {', '.join(sorted(set(FILES[path])))}"
