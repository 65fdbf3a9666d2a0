"""Size limits of a submitted notebook (docs/grading.md, *Size limits*): a cell over
:data:`CELL_LIMIT`, or the largest cells of a notebook over :data:`NOTEBOOK_LIMIT`, are cut to
their first lines before anything runs or is graded; the verdicts say so. What no one reads
costs no one: the kernel, the trusted grader and the feedback page see only the cut cell.

>>> from nbformat.v4 import new_code_cell, new_notebook
>>> nb = new_notebook(cells=[new_code_cell("BOOK = '" + "x" * 3_000_000 + "'")])
>>> nb.cells[0].metadata["nbgrader"] = {"solution": True, "grade_id": "evaluate"}
>>> print(*cut_oversized(nb))
your answer cell "evaluate" is 3 MB; the limit is 1 MB: it was not run, and only its start is kept
>>> nb.cells[0].source
'# [cut by the grader: this cell was 3 MB; the limit is 1 MB]'
"""

from __future__ import annotations

import json
from typing import Any

__all__ = ["cut_oversized", "cap_outputs", "CELL_LIMIT", "NOTEBOOK_LIMIT", "OUTPUT_LIMIT",
           "OUTPUTS_LIMIT", "KEPT"]

CELL_LIMIT = 1_000_000  # bytes of one cell (its source and attachments, UTF-8)
NOTEBOOK_LIMIT = 5_000_000  # bytes of all the cells together
KEPT = 500  # characters of a cut cell kept, to show what it was
OUTPUT_LIMIT = 100_000  # characters of what one cell's run shows (its outputs' texts)
OUTPUTS_LIMIT = 2_000_000  # characters of what all the cells together show


def _size(cell: Any) -> int:
    size = len(str(cell.get("source", "")).encode("utf-8", "replace"))
    if cell.get("attachments"):
        size += len(json.dumps(cell["attachments"]))
    return size


def _mb(size: int) -> str:
    return f"{size / 1e6:.2g} MB" if size < 1e7 else f"{size / 1e6:.0f} MB"


def _cut(cell: Any, size: int, why: str) -> None:
    head = str(cell.get("source", ""))[:KEPT]
    lines = head.splitlines()[:-1] if "\n" in head else []  # whole lines only
    note = f"[cut by the grader: this cell was {_mb(size)}; {why}]"
    if cell.get("cell_type") == "code":  # kept as comments: nothing of it runs
        cell["source"] = "\n".join([f"# {ln}" for ln in lines] + [f"# {note}"])
    else:
        cell["source"] = "\n".join([*lines, "", note])
    cell.pop("attachments", None)


def cut_oversized(nb: Any) -> list[str]:
    """Cut ``nb``'s cells over :data:`CELL_LIMIT`, then its largest cells while all together
    are over :data:`NOTEBOOK_LIMIT`; what was cut, in the student's words."""
    said: list[str] = []
    sizes = [_size(c) for c in nb.cells]
    total = sum(sizes)
    for i, cell in enumerate(nb.cells):
        if sizes[i] > CELL_LIMIT:
            meta = cell.get("metadata", {}).get("nbgrader", {})
            what = f'your answer cell "{meta["grade_id"]}"' if meta.get("solution") and \
                meta.get("grade_id") else f"your cell {i + 1}"
            said.append(f"{what} is {_mb(sizes[i])}; the limit is {_mb(CELL_LIMIT)}: it was "
                        "not run, and only its start is kept")
            _cut(cell, sizes[i], f"the limit is {_mb(CELL_LIMIT)}")
            total -= sizes[i]
            sizes[i] = 0
    if total > NOTEBOOK_LIMIT:
        said.append(f"your notebook is {_mb(total)}; the limit is {_mb(NOTEBOOK_LIMIT)}: its "
                    "largest cells were not run, and only their start is kept")
        for i in sorted(range(len(sizes)), key=lambda i: -sizes[i]):
            if total <= NOTEBOOK_LIMIT:
                break
            _cut(nb.cells[i], sizes[i], f"the notebook's limit is {_mb(NOTEBOOK_LIMIT)}")
            total -= sizes[i]
    return said


def cap_outputs(nb: Any, limit: int = OUTPUT_LIMIT, total: int = OUTPUTS_LIMIT) -> int:
    """Cut what each code cell of ``nb`` showed when it ran to ``limit`` characters, and
    what all of them showed to ``total`` (nbgrader limits lines, not their length or number:
    one printed line of 60 MB, or 1,500 cells of 99 kB, would otherwise reach ``autograded/``
    and the feedback page); how many cells were cut.

    >>> from nbformat.v4 import new_code_cell, new_notebook, new_output
    >>> cell = new_code_cell("print('x' * 10**6)")
    >>> cell.outputs = [new_output("stream", name="stdout", text="x" * 10**6)]
    >>> nb = new_notebook(cells=[cell])
    >>> cap_outputs(nb, 1000), len(nb.cells[0].outputs[0].text) < 1200
    (1, True)
    >>> many = new_notebook(cells=[new_code_cell("print(...)") for _ in range(50)])
    >>> for c in many.cells:
    ...     c.outputs = [new_output("stream", name="stdout", text="z" * 900)]
    >>> cap_outputs(many, 1000, 9000), sum(len(c.outputs[0].text) for c in many.cells) < 13000
    (40, True)
    """
    cut, budget = 0, total
    for cell in nb.cells:
        if cell.get("cell_type") != "code":
            continue
        left, over = min(limit, budget), False
        for out in cell.get("outputs", []):
            fields = [(out, "text"), (out, "evalue")] + \
                [(out.get("data", {}), k) for k in list(out.get("data", {}))]
            for holder, key in fields:
                value = holder.get(key)
                if not isinstance(value, str):
                    continue
                if len(value) > left:
                    holder[key] = value[:left] + (
                        f"\n[cut by the grader: this cell showed more than {limit:,} "
                        "characters]" if left else "[cut by the grader: the notebook's "
                        f"cells showed more than {total:,} characters]")
                    over = True
                budget -= min(len(value), left)
                left = max(0, left - len(value))
            if "traceback" in out and sum(map(len, out["traceback"])) > limit:
                out["traceback"] = out["traceback"][:3] + ["[cut by the grader]"]
                over = True
        cut += over
    return cut
