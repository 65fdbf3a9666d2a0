"""The layout of the kit, read from the code's own imports (those inside functions included):
each package imports only the packages below it (docs/design.md, *The layout*), grading's own
layers likewise, there is no cycle, nothing imports a private name from another module of
grading, no module keeps state in a ``global``, and no module is longer than 500 lines.

What the layers are for: a reader knows where a change belongs before opening a file, and a
layer can be read, tested and replaced without the ones above it."""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

KIT = Path(__file__).resolve().parents[1] / "minimaxkit"

#: The packages of the kit from the bottom up: a module may import from its own package and
#: from the packages of lower rows, and import ``minimaxkit`` itself (the namespace, whose
#: ``__init__`` imports its names on first use).
LAYERS: list[set[str]] = [
    {"errors", "support", "game"},
    {"tree", "trace", "games"},
    {"search"},
    {"deepening", "examples"},
    {"student"},
    {"replay"},
    {"draw"},
    {"arena"},
    {"widgets"},
    {"lecture"},
    {"isolation"},
    {"grading"},
    {"classroom", "site"},
]
#: Imports against the layers, each made inside a function and each for a reason: display
#: hooks draw a tree or a result in a notebook; ``GameTree.with_static`` computes the
#: interior values with the kit's minimax, so that where the kit's searches are refused (the
#: lecture checks, the grader's sandbox) so is it (its values would answer the exercises);
#: the package namespaces import their names on first use.
ALLOWED_UPWARDS: set[tuple[str, str]] = {
    ("tree", "draw"), ("search", "draw"), ("tree", "search"), ("widgets", "draw"),
}
#: Inside grading, each layer and the layers it may import.
GRADING_LAYERS: dict[str, set[str]] = {
    "samples": set(),
    "testdata": {"samples"},
    "recording": {"testdata"},
    "verdicts": {"testdata", "samples"},
    "api": {"testdata", "recording", "verdicts", "samples"},
    "evaluation": {"testdata", "recording"},
    "autograde": {"testdata", "recording", "verdicts", "api", "evaluation", "samples"},
}
#: Modules that only give a command or an old path its name (``python -m
#: minimaxkit.grading.report`` and the like): they may import anything.
ENTRY_POINTS = {
    "minimaxkit", "minimaxkit.grading", "minimaxkit.grading.report", "minimaxkit.grading.refresh",
    "minimaxkit.grading.tournament", "minimaxkit.grading.hostcheck", "minimaxkit.grading.kernel",
    "minimaxkit.grading.trusted", "minimaxkit.grading.autograde.__main__",
}


def _modules() -> dict[str, tuple[Path, ast.Module]]:
    out = {}
    for path in sorted(KIT.rglob("*.py")):
        parts = path.relative_to(KIT.parent).with_suffix("").parts
        name = ".".join(parts[:-1] if parts[-1] == "__init__" else parts)
        out[name] = (path, ast.parse(path.read_text(), str(path)))
    return out


MODULES = _modules()


def _imports(name: str, tree: ast.Module) -> list[tuple[str, list[str]]]:
    """(module imported, names taken from it) for every import of the kit, at any depth."""
    package = name if MODULES[name][0].name == "__init__.py" else name.rsplit(".", 1)[0]
    out = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            out += [(a.name, []) for a in node.names]
        elif isinstance(node, ast.ImportFrom):
            if node.level:
                base = package.split(".")
                base = base[:len(base) - node.level + 1]
                target = ".".join(base + ([node.module] if node.module else []))
            else:
                target = node.module or ""
            names = [a.name for a in node.names]
            # "from . import x" imports the module x
            subs = [f"{target}.{n}" for n in names if f"{target}.{n}" in MODULES]
            out += [(s, []) for s in subs] or [(target, names)]
    return [(t, n) for t, n in out if t.split(".")[0] == "minimaxkit"]


def _package(module: str) -> str:
    """The kit's package a module belongs to: ``search`` for ``minimaxkit.search.core``,
    ``tree`` for ``minimaxkit.tree``, ``minimaxkit`` for the package's own ``__init__``."""
    parts = module.split(".")
    return parts[1] if len(parts) > 1 else "minimaxkit"


def _row(package: str) -> int:
    if package == "minimaxkit":
        return -1
    rows = [i for i, layer in enumerate(LAYERS) if package in layer]
    return rows[0] if rows else len(LAYERS)


def test_every_package_is_in_a_layer() -> None:
    packages = {_package(m) for m in MODULES} - {"minimaxkit"}
    assert packages - set().union(*LAYERS) == set()


def test_every_package_imports_only_the_layers_below_it() -> None:
    wrong = []
    for name, (_, tree) in MODULES.items():
        if name in ENTRY_POINTS:
            continue
        mine = _package(name)
        for target, _ in _imports(name, tree):
            theirs = _package(target)
            if theirs == mine or (mine, theirs) in ALLOWED_UPWARDS:
                continue
            if _row(theirs) >= _row(mine):
                wrong.append(f"{name} ({mine}) imports {target} ({theirs})")
    assert wrong == []


def _grading_layer(name: str) -> str | None:
    parts = name.split(".")
    return parts[2] if len(parts) > 2 and parts[1] == "grading" else None


def test_every_layer_of_grading_imports_only_the_layers_below_it() -> None:
    wrong = []
    for name, (_, tree) in MODULES.items():
        mine = _grading_layer(name)
        if mine is None or name in ENTRY_POINTS:
            continue
        for target, _ in _imports(name, tree):
            theirs = _grading_layer(target)
            if theirs is None or theirs == mine:
                continue
            if theirs not in GRADING_LAYERS.get(mine, set()):
                wrong.append(f"{name} ({mine}) imports {target} ({theirs})")
    assert wrong == []


def test_no_cycle_between_modules() -> None:
    """No module reaches itself through the imports of others (a package's ``__init__``
    importing its own modules is not a cycle, nor the allowed upward imports above)."""
    edges = {}
    for name, (_, tree) in MODULES.items():
        targets = set()
        for target, _ in _imports(name, tree):
            if target not in MODULES or target == name or target.startswith(name + "."):
                continue
            if (_package(name), _package(target)) in ALLOWED_UPWARDS:
                continue
            if name in ENTRY_POINTS:
                continue
            targets.add(target)
        edges[name] = targets
    state: dict[str, int] = {}
    cycles = []

    def visit(node: str, path: list[str]) -> None:
        state[node] = 1
        for nxt in sorted(edges[node]):
            if state.get(nxt) == 1:
                cycles.append(path[path.index(nxt):] + [nxt] if nxt in path else [node, nxt])
            elif nxt not in state:
                visit(nxt, [*path, nxt])
        state[node] = 2

    for name in sorted(edges):
        if name not in state:
            visit(name, [name])
    assert sorted(cycles) == KNOWN_CYCLES


#: Cycles being taken apart (issue #34): the list may only shrink.
KNOWN_CYCLES: list[list[str]] = []
#: Modules being split (issue #34): the list may only shrink.
KNOWN_LONG: list[str] = []

GRADING = {n: t for n, (_, t) in MODULES.items() if n.startswith("minimaxkit.grading")}


def test_no_private_name_is_imported_from_another_module_of_grading() -> None:
    wrong = [f"{name}: {target}.{n}" for name, tree in GRADING.items()
             for target, names in _imports(name, tree)
             for n in names if n.startswith("_") and not n.startswith("__")]
    assert wrong == []


#: The packages and root modules of the kit's core: searches, trees, traces, games, the
#: student interface and what they stand on.
CORE = ("search", "trace", "tree", "games", "support", "deepening", "student", "examples",
        "game", "errors")


def test_no_private_name_is_imported_from_another_module_of_the_core() -> None:
    wrong = [f"{name}: {target}.{n}" for name, (_, tree) in MODULES.items()
             if _package(name) in CORE
             for target, names in _imports(name, tree)
             for n in names if n.startswith("_") and not n.startswith("__")]
    assert wrong == []


def test_no_global_state() -> None:
    wrong = [f"{name}:{node.lineno}" for name, (_, tree) in MODULES.items()
             for node in ast.walk(tree) if isinstance(node, ast.Global)]
    assert wrong == []


@pytest.mark.parametrize("limit", [500])
def test_modules_stay_small(limit: int) -> None:
    """A module a reader can hold: no more than 500 lines, docstrings included."""
    sizes = {name: len(path.read_text().splitlines()) for name, (path, _) in MODULES.items()}
    assert sorted(n for n, s in sizes.items() if s > limit) == KNOWN_LONG


def test_the_package_root_holds_the_teaching_api_and_package_folders() -> None:
    """What a newcomer opens first: the protocol, trees, searches, deepening, the documents'
    examples, the student interface and the errors; everything else lives in a package
    (trees and searches are packages of their own, of a module a job)."""
    modules = {p.stem for p in KIT.glob("*.py")}
    assert modules == {"__init__", "game", "deepening", "examples", "student", "errors"}
    folders = {p.name for p in KIT.iterdir() if (p / "__init__.py").is_file()}
    assert {"tree", "search"} <= folders


def test_the_design_page_draws_these_layers() -> None:
    """docs/design.md, *The layout*, shows the layers above in one picture: the same
    packages in the same rows, from the top down."""
    text = (KIT.parent / "docs" / "design.md").read_text()
    block = text.split("## The layout", 1)[1].split("```text", 1)[1].split("```", 1)[0]
    rows: list[set[str]] = []
    for line in block.splitlines()[3:]:
        number, packages = line[:7].strip(), line[8:33].split()
        names = {p.removesuffix("/").removesuffix(".py") for p in packages}
        if number:
            rows.append(names)
        elif names:
            rows[-1] |= names
    assert rows[::-1] == LAYERS
