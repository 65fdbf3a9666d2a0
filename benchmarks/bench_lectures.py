"""How long each lecture notebook takes, top to bottom in a fresh kernel.

Run: ``.venv/bin/python benchmarks/bench_lectures.py`` (``--quick`` for one run each;
``--one-core`` pins the kernel to one CPU, as a Binder user has about one core).
The bar is 30 s per notebook. Prints, per notebook, the best wall time of N runs (kernel
start included) and its three slowest cells. Notebooks are executed from a temp copy, so
the committed files stay without outputs.
"""

from __future__ import annotations

import argparse
import os
import platform
import shutil
import sys
import tempfile
import time
from datetime import datetime
from pathlib import Path
from typing import Any

import nbformat
from nbclient import NotebookClient

NOTEBOOKS = Path(__file__).resolve().parents[1] / "notebooks"
BAR = 30.0


def cell_seconds(cell: Any) -> float:
    ex = cell.get("metadata", {}).get("execution", {})
    try:
        start = datetime.fromisoformat(ex["iopub.execute_input"].replace("Z", "+00:00"))
        end = datetime.fromisoformat(ex["shell.execute_reply"].replace("Z", "+00:00"))
    except KeyError:
        return 0.0
    return (end - start).total_seconds()


def run_once(path: Path, one_core: bool) -> tuple[float, list[tuple[float, str]]]:
    with tempfile.TemporaryDirectory() as folder:
        copy = Path(shutil.copy(path, folder))
        nb = nbformat.read(copy, as_version=4)
        client = NotebookClient(nb, timeout=300, kernel_name="python3",
                                resources={"metadata": {"path": folder}})
        start = time.perf_counter()
        with client.setup_kernel():
            if one_core:
                pid = client.km.provisioner.process.pid  # type: ignore[union-attr]
                os.sched_setaffinity(pid, {min(os.sched_getaffinity(0))})
            for index, cell in enumerate(nb.cells):
                client.execute_cell(cell, index)
        seconds = time.perf_counter() - start
    cells = sorted(((cell_seconds(c), c.source.splitlines()[0][:50])
                    for c in nb.cells if c.cell_type == "code"), reverse=True)
    return seconds, cells[:3]


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--quick", action="store_true", help="one run per notebook")
    parser.add_argument("--one-core", action="store_true", help="pin the kernel to one CPU")
    args = parser.parse_args()
    repeat = 1 if args.quick else 3
    print(f"python {platform.python_version()} on {platform.machine()}, "
          f"{os.cpu_count()} cpus{' (kernel on one)' if args.one_core else ''}; "
          f"best of {repeat}; bar {BAR:.0f} s")
    over = 0
    for path in sorted(NOTEBOOKS.glob("*.ipynb")):
        runs = [run_once(path, args.one_core) for _ in range(repeat)]
        seconds, slowest = min(runs)
        over += seconds > BAR
        print(f"{path.name:32} {seconds:6.1f} s   slowest cells: "
              + ", ".join(f"{s:.1f} s {src!r}" for s, src in slowest))
    return 1 if over else 0


if __name__ == "__main__":
    sys.exit(main())
