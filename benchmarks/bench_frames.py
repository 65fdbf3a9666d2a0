"""How large the lectures' widgets are when saved, and what keeping frames as changes saves.

Run: ``.venv/bin/python benchmarks/bench_frames.py [lecture ...]`` (default: all six).

Each lecture's code cells run in one IPython shell in this process (no kernel: a step
widget renders all its frames before its constructor returns). Then, for the widgets alive
at the end (those the lecture shows, and any made but not shown), this prints the bytes of
their state as a notebook saves it (JSON, binary buffers in base64), and for every step and
compare widget picture (:class:`~minimaxkit.widgets.frames.FrameStrip`) its frames stored
as changes against the same frames stored whole (64-colour PNGs, as before issue 27), with
the time to encode them. What a saved notebook really holds is measured in a browser by
``tests/browser/test_saved_lectures.py`` (``tests/artifacts/saved-lecture-3-sizes.json``).
"""

from __future__ import annotations

import base64
import contextlib
import json
import os
import platform
import sys
import time
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO))

LECTURES = ("01_game_trees", "02_minimax", "03_alphabeta", "04_move_ordering",
            "05_progressive_deepening", "06_evaluation")


def state_bytes(widget: object) -> int:
    """The bytes of one widget's saved state: JSON with its buffers in base64."""
    from ipywidgets.widgets.widget import _remove_buffers

    state, _, buffers = _remove_buffers(widget.get_state())  # type: ignore[attr-defined]
    return len(json.dumps(state, default=str)) + sum(
        len(base64.b64encode(bytes(b))) for b in buffers)


def lecture(name: str) -> dict[str, float]:
    import ipywidgets as w
    import matplotlib
    import nbformat
    from IPython.core.interactiveshell import InteractiveShell

    matplotlib.use("Agg")
    from minimaxkit.widgets.frames import FrameStrip, _full, compose

    for widget in list(w.widgets.widget._instances.values()):  # the lecture before
        widget.close()
    nb = nbformat.read(REPO / "notebooks" / f"{name}.ipynb", as_version=4)
    shell = InteractiveShell.instance()
    start = time.perf_counter()
    with open(os.devnull, "w") as quiet, contextlib.redirect_stdout(quiet):
        for cell in nb.cells:  # (what the cells print is not the benchmark's output)
            if cell.cell_type == "code":
                shell.run_cell(cell.source, silent=True)
    ran = time.perf_counter() - start
    alive = list(w.widgets.widget._instances.values())
    strips = [x for x in alive if isinstance(x, FrameStrip)]
    changes = sum(len(f) for s in strips for f in s.frames)
    whole = 0
    start = time.perf_counter()
    for s in strips:
        for k in range(len(s.frames)):
            whole += len(_full(compose(s.frames, s.whole, s.corners, k)))
    return {"cells run, s": ran, "widget models": len(alive),
            "saved widget state, KB": sum(map(state_bytes, alive)) / 1000,
            "pictures (FrameStrip)": len(strips),
            "their frames": sum(len(s.frames) for s in strips),
            "frames as changes, KB": changes / 1000,
            "the same frames whole, KB": whole / 1000}


def main() -> None:
    names = sys.argv[1:] or LECTURES
    load = os.getloadavg()[0]
    print(f"machine: {platform.processor() or platform.machine()}, {os.cpu_count()} cores, "
          f"Python {platform.python_version()} (load average {load:.1f} at the start)")
    for name in names:
        print(f"\n{name}")
        for k, v in lecture(name).items():
            print(f"  {k:<30} {v:10.1f}")
    print(f"\nload average at the end: {os.getloadavg()[0]:.1f}")


if __name__ == "__main__":
    main()
