"""The layers of grading (docs/design.md, *Grading in layers*), read from the code's own
imports, those inside functions included: each layer imports only the layers below it, the
core (the lectures' helpers, the widgets, the student interface, the sandbox of
``minimaxkit.isolation``) imports nothing of grading, nothing imports a private name from
another module, no module keeps state in a ``global``, and the modules stay small."""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

KIT = Path(__file__).resolve().parents[1] / "minimaxkit"
G = "minimaxkit.grading"
#: each layer and the layers it may import (the core, everything outside grading, is below all)
LAYERS: dict[str, set[str]] = {
    "testdata": set(),
    "recording": {"testdata"},
    "verdicts": {"testdata"},
    "api": {"testdata", "recording", "verdicts"},
    "play": {"testdata", "recording"},
    "autograde": {"testdata", "recording", "verdicts", "api", "play"},
}
ENTRY = "entry"  # grading's own modules (the package, its commands and aliases): anything


def _modules() -> dict[str, tuple[Path, ast.Module]]:
    out = {}
    for path in sorted(KIT.rglob("*.py")):
        parts = path.relative_to(KIT.parent).with_suffix("").parts
        name = ".".join(parts[:-1] if parts[-1] == "__init__" else parts)
        out[name] = (path, ast.parse(path.read_text(), str(path)))
    return out


MODULES = _modules()


def _imports(name: str, tree: ast.Module) -> list[tuple[str, list[str]]]:
    """(module imported, names taken from it) for every import, at any depth."""
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
    return out


def _layer(name: str) -> str | None:
    if not name.startswith(G):
        return None  # the core
    rest = name[len(G) + 1:].split(".")[0] if name != G else ""
    return rest if rest in LAYERS else ENTRY


GRADING = {n: t for n, (_, t) in MODULES.items() if n.startswith(G)}


def test_every_layer_imports_only_the_layers_below_it() -> None:
    wrong = []
    for name, tree in GRADING.items():
        mine = _layer(name)
        for target, _ in _imports(name, tree):
            theirs = _layer(target) if target.startswith("minimaxkit") else None
            if mine == ENTRY or theirs is None or theirs == mine:
                continue
            if mine is not None and theirs not in LAYERS[mine]:
                wrong.append(f"{name} ({mine}) imports {target} ({theirs})")
    assert wrong == []


def test_nothing_outside_grading_imports_grading() -> None:
    """The core (the lectures' helpers, the widgets, the student interface, the sandbox)
    stands alone."""
    wrong = [f"{name} imports {target}" for name, (_, tree) in MODULES.items()
             if not name.startswith(G) for target, _ in _imports(name, tree)
             if target.startswith(G)]
    assert wrong == []


def test_no_cycle_inside_grading() -> None:
    edges = {name: {t for t, _ in _imports(name, tree) if t in GRADING and t != name}
             for name, tree in GRADING.items()}
    state: dict[str, int] = {}
    cycles = []

    def visit(node: str, path: list[str]) -> None:
        state[node] = 1
        for nxt in sorted(edges[node]):
            if nxt.startswith(node + "."):
                continue  # a package importing its own module (its __init__)
            if state.get(nxt) == 1:
                cycles.append(path[path.index(nxt):] + [nxt] if nxt in path else [node, nxt])
            elif nxt not in state:
                visit(nxt, [*path, nxt])
        state[node] = 2

    for name in sorted(edges):
        if name not in state:
            visit(name, [name])
    assert cycles == []


def test_no_private_name_is_imported_from_another_module() -> None:
    wrong = [f"{name}: {target}.{n}" for name, tree in GRADING.items()
             for target, names in _imports(name, tree) if target.startswith("minimaxkit")
             for n in names if n.startswith("_") and not n.startswith("__")]
    assert wrong == []


def test_no_global_state_in_grading() -> None:
    wrong = [f"{name}:{node.lineno}" for name, tree in GRADING.items()
             for node in ast.walk(tree) if isinstance(node, ast.Global)]
    assert wrong == []


@pytest.mark.parametrize("limit", [500])
def test_grading_modules_stay_small(limit: int) -> None:
    sizes = {name: len(MODULES[name][0].read_text().splitlines()) for name in GRADING}
    assert {n: s for n, s in sizes.items() if s > limit} == {}
    assert sum(sizes.values()) < 5_500, sum(sizes.values())
