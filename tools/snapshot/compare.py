"""Two snapshots side by side: every place they differ, said in words."""

from __future__ import annotations

import difflib
import json
from collections.abc import Iterator
from pathlib import Path

from snapshot.normalise import Json


def differences(old: Json, new: Json, where: tuple[str, ...]) -> Iterator[str]:
    """Each place where ``old`` and ``new`` differ, said in words."""
    if isinstance(old, dict) and isinstance(new, dict):
        for key in [*old, *(k for k in new if k not in old)]:
            if key not in new:
                yield f"{say(where + (key,))}: only in the first"
            elif key not in old:
                yield f"{say(where + (key,))}: only in the second"
            else:
                yield from differences(old[key], new[key], where + (key,))
    elif isinstance(old, list) and isinstance(new, list) and len(old) == len(new):
        for index, (a, b) in enumerate(zip(old, new, strict=True)):
            yield from differences(a, b, where + (f"[{index}]",))
    elif old != new:
        yield f"{say(where)}:\n{changed(old, new)}"


def say(where: tuple[str, ...]) -> str:
    return " > ".join(where)


def changed(old: Json, new: Json) -> str:
    """Two values as a diff of their lines (text), or both in full (anything else)."""
    if isinstance(old, str) and isinstance(new, str):
        lines = difflib.unified_diff(old.splitlines(), new.splitlines(), "first", "second",
                                     lineterm="", n=1)
        return "\n".join(f"    {line}" for line in lines)
    return (f"    first:  {json.dumps(old, ensure_ascii=False)[:2000]}\n"
            f"    second: {json.dumps(new, ensure_ascii=False)[:2000]}")


def compare_files(first: Path, second: Path) -> list[str]:
    """Every difference between two snapshot files, their ``meta`` parts (commit, times,
    load) left out."""
    old, new = (json.loads(path.read_text()) for path in (first, second))
    for snapshot in (old, new):
        snapshot.pop("meta", None)
    return list(differences(old, new, ()))
