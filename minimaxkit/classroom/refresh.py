"""Regenerate the stored reference data of every assignment, or check it is current.

``python -m minimaxkit.grading.refresh solutions/ [--check]``: docs/grading.md, *Stored
reference data*. Seeded trees store none: theirs is computed when grading.

>>> import json, tempfile, pathlib
>>> folder = pathlib.Path(tempfile.mkdtemp())
>>> _ = (folder / "tests.json").write_text(json.dumps({"assignment": "demo", "questions": {
...     "mm": {"check": "minimax", "trees": [{"name": "t", "tree": {"nested": [[1, 2]]}}]}}}))
>>> [p.name for p in stale(folder)]
['tests.json']
>>> [p.name for p in refresh(folder)]
['tests.json']
>>> data = json.loads((folder / "tests.json").read_text())
>>> stale(folder), data["questions"]["mm"]["trees"][0]["reference"]["value"]
([], 1)
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path
from typing import Any

from ..grading.evaluation.reference import stale_references
from ..grading.testdata.places import HIDDEN_TESTS, TESTS
from ..grading.testdata.trees import build_tree
from ..grading.verdicts.references import reference

__all__ = ["refreshed", "refresh", "stale", "dump", "main"]


def refreshed(data: dict[str, Any], hidden: dict[str, Any] | None = None) -> dict[str, Any]:
    """A suite with every fixed tree's reference recomputed and, given its ``hidden`` suite,
    each question's ``hidden_trees`` (how many; a student's run says what its visible
    trees are worth)."""
    out = json.loads(json.dumps(data))
    for name, question in out["questions"].items():
        for entry in question.get("trees", []):
            tree = build_tree(entry["tree"])
            entry["reference"] = _plain(reference(question["check"], tree,
                                                  **entry.get("options", {})))
        if hidden is not None:
            more = hidden.get("questions", {}).get(name, {})
            question["hidden_trees"] = len(more.get("trees", [])) + len(more.get("seeded", []))
    return out


def _refreshed(path: Path) -> tuple[dict[str, Any], dict[str, Any]]:
    data = json.loads(path.read_text())
    beside = path.with_name(HIDDEN_TESTS)
    hidden = json.loads(beside.read_text()) if path.name == TESTS and beside.is_file() else None
    return data, refreshed(data, hidden)


def _plain(data: Any) -> Any:
    return json.loads(json.dumps(data))


def _suites(folder: Path) -> list[Path]:
    return sorted(p for name in (TESTS, HIDDEN_TESTS) for p in folder.rglob(name)
                  if ".ipynb_checkpoints" not in p.parts)


def stale(folder: str | Path) -> list[Path]:
    """The suite files under ``folder`` whose stored references are not current, and
    assignment 5's stored reference games that are not."""
    return [p for p in _suites(Path(folder)) if _refreshed(p)[0] != _refreshed(p)[1]] + \
        stale_references(Path(folder))


def refresh(folder: str | Path) -> list[Path]:
    """Rewrite the stale suite files under ``folder`` (and assignment 5's reference games,
    a few minutes each); the files rewritten."""
    changed = []
    for path in _suites(Path(folder)):
        data, new = _refreshed(path)
        if new != data:
            path.write_text(dump(new))
            changed.append(path)
    return changed + stale_references(Path(folder), rewrite=True)


def dump(data: Any) -> str:
    """JSON to review: small values on one line, events one per line.

    >>> print(dump({"a": [1, 2], "b": [{"event": "leaf", "path": [0, 0]}] * 4}), end="")
    {
     "a": [1, 2],
     "b": [
      {"event": "leaf", "path": [0, 0]},
      {"event": "leaf", "path": [0, 0]},
      {"event": "leaf", "path": [0, 0]},
      {"event": "leaf", "path": [0, 0]}
     ]
    }
    """
    return _dump(data, 0) + "\n"


def _dump(value: Any, level: int) -> str:
    flat = json.dumps(value, separators=(", ", ": "), ensure_ascii=False)
    if not isinstance(value, (dict, list)) or len(flat) <= 110:
        return flat
    if isinstance(value, list) and not any(isinstance(v, dict) for v in value):
        return flat  # paths and leaf lists: one line
    pad = " " * (level + 1)
    if isinstance(value, dict):
        items = [f"{pad}{json.dumps(k)}: {_dump(v, level + 1)}" for k, v in value.items()]
        return "{\n" + ",\n".join(items) + "\n" + " " * level + "}"
    items = [pad + _dump(v, level + 1) for v in value]
    return "[\n" + ",\n".join(items) + "\n" + " " * level + "]"


def main(argv: list[str] | None = None) -> int:
    """``python -m minimaxkit.grading.refresh [FOLDER] [--check]``: rewrite the stale suite files
    (0), or with ``--check`` list them (1 if any); 2 when there is no test data."""
    parser = argparse.ArgumentParser(prog="python -m minimaxkit.grading.refresh",
                                     description=__doc__.split("\n\n")[0])
    parser.add_argument("folder", nargs="?", default="solutions")
    parser.add_argument("--check", action="store_true",
                        help="only report stale files; exit 1 if there are any")
    args = parser.parse_args(argv)
    suites = _suites(Path(args.folder))
    if not suites:
        print(f"no {TESTS} or {HIDDEN_TESTS} under {args.folder}: nothing to refresh",
              file=sys.stderr)
        return 2
    if args.check:
        old = stale(args.folder)
        for path in old:
            print(f"stale: {path}")
        print(f"{len(suites) - len(old)} of {len(suites)} test data files up to date")
        return 1 if old else 0
    changed = refresh(args.folder)
    for path in changed:
        print(f"rewrote {path}")
    print(f"{len(suites)} test data files checked, {len(changed)} rewritten, "
          f"{len(suites) - len(changed)} already up to date")
    return 0


if __name__ == "__main__":
    sys.exit(main())
