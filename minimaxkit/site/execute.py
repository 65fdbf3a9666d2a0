"""Execute a lecture headless and keep every widget's frames.

A step or compare widget renders its frames after its cell returns, in the kernel's event
loop (so the cell shows at once in JupyterLab): ``nbconvert --execute`` alone keeps the
state each widget had when its cell ended, the first frame of 43. Here one more cell runs
after the lecture's own (and is taken out again): it waits, yielding to the kernel's loop,
until every step and compare widget says it is ready (``mmk-ready``), then sends every
widget's whole state once more under its own message, which nbclient records as the
notebook's widget state, as JupyterLab's *Save Widget State* would.
"""

from __future__ import annotations

import copy
from dataclasses import dataclass
from pathlib import Path

import nbformat
from nbclient import NotebookClient
from nbformat import NotebookNode

__all__ = ["ExecutedLecture", "execute_lecture", "DRAIN_TIMEOUT", "SiteBuildError"]

#: Seconds the closing cell waits for the widgets' frames before it gives up.
DRAIN_TIMEOUT = 600

#: The closing cell. It names each widget that is not ready in time.
_DRAIN = f'''
import asyncio as _mmk_asyncio, time as _mmk_time
from ipywidgets.widgets.widget import _instances as _mmk_instances
from minimaxkit.widgets import CompareWidget as _MmkCompare, StepWidget as _MmkStep
_mmk_deadline = _mmk_time.monotonic() + {DRAIN_TIMEOUT}
while True:
    _mmk_waiting = [w for w in list(_mmk_instances.values())
                    if isinstance(w, (_MmkStep, _MmkCompare)) and "mmk-ready" not in w._dom_classes]
    if not _mmk_waiting:
        break
    if _mmk_time.monotonic() > _mmk_deadline:
        raise TimeoutError(f"{{len(_mmk_waiting)}} step widgets not ready after {DRAIN_TIMEOUT} s")
    await _mmk_asyncio.sleep(0.05)
for _mmk_w in list(_mmk_instances.values()):
    _mmk_w.send_state()
'''


class SiteBuildError(RuntimeError):
    """A lecture could not be made into a page: which one and why."""


@dataclass(frozen=True)
class ExecutedLecture:
    """A lecture run top to bottom: the notebook with its outputs and every widget's state,
    and the seconds it took."""

    path: Path
    notebook: NotebookNode
    seconds: float


def execute_lecture(path: Path, *, kernel: str = "python3", timeout: int = 600) -> ExecutedLecture:
    """Run the notebook at ``path`` in a fresh ``kernel`` in its own folder, wait for every
    widget's frames, and return it with its outputs and widget state (the closing cell
    removed). Raises :class:`SiteBuildError` naming the lecture and the cell that failed."""
    import time

    nb = nbformat.read(path, as_version=4)
    work = copy.deepcopy(nb)
    work.cells.append(nbformat.v4.new_code_cell(_DRAIN))
    client = NotebookClient(work, timeout=timeout, kernel_name=kernel, allow_errors=False,
                            store_widget_state=True,
                            resources={"metadata": {"path": str(path.parent)}})
    start = time.perf_counter()
    try:
        client.execute()
    except Exception as err:  # nbclient's CellExecutionError says which cell and why
        raise SiteBuildError(f"{path.name}: {type(err).__name__}: {err}") from err
    work.cells.pop()
    return ExecutedLecture(path, work, time.perf_counter() - start)
