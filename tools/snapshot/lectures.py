"""The lectures executed top to bottom, recorded cell by cell: each output normalised, an
image as its hash and pixel size, a widget as the tree of its models' states.
"""

from __future__ import annotations

import base64
import copy
import json
import re
import shutil
from collections.abc import Callable
from pathlib import Path
from typing import Any

from snapshot.normalise import (
    MEASURED,
    Json,
    Places,
    image_record,
    normalise,
    normalise_json,
    source_text,
)

CELL_TIMEOUT = 120  # seconds a lecture cell may take (tests/test_notebooks.py: 4 x 30 s)

WIDGET_VIEW = "application/vnd.jupyter.widget-view+json"
WIDGET_STATE = "application/vnd.jupyter.widget-state+json"
MODEL_REF = re.compile(r"^IPY_MODEL_([0-9a-f]{32})$")
#: A lecture cell that reads the clock shows what the machine's speed decides (lecture 5's
#: ``deepen(c4, time_budget=0.5)``: the depth reached, its move, the seconds taken).
READS_CLOCK = re.compile(r"\btime\.(monotonic|perf_counter|time|process_time)\(")


def execute_lecture(notebook: Path, folder: Path) -> Any:
    """The lecture executed top to bottom in a fresh ``python3`` kernel, from a copy in
    ``folder`` (its working directory), as tests/test_notebooks.py executes it."""
    import nbformat
    from nbclient import NotebookClient

    shutil.copy(notebook, folder / notebook.name)
    nb = nbformat.read(str(folder / notebook.name), as_version=4)
    client = NotebookClient(nb, timeout=CELL_TIMEOUT, kernel_name="python3",
                            resources={"metadata": {"path": str(folder)}})
    client.execute()  # raises CellExecutionError naming the failing cell
    return nb


class WidgetNumbering:
    """Widget models of an executed notebook, each given a number in the order the outputs
    reach it, so two runs (whose model ids are random) name the same model alike."""

    def __init__(self, nb: Any, places: Places) -> None:
        widgets = nb.metadata.get("widgets", {}).get(WIDGET_STATE, {})
        self.models: dict[str, Any] = dict(widgets.get("state", {}))
        self.numbers: dict[str, int] = {}
        self.places = places

    def tree(self, model_id: str) -> Json:
        """The model and every model it refers to, nested; a model met again is ``#n``."""
        if model_id in self.numbers:
            return f"#{self.numbers[model_id]}"
        if model_id not in self.models:
            return f"<model missing from the saved state: {normalise(model_id, self.places)}>"
        self.numbers[model_id] = len(self.numbers) + 1
        model = self.models[model_id]
        return {"#": self.numbers[model_id], "model": model.get("model_name"),
                "state": self._walk(self._state(model), self.tree)}

    def unreached(self) -> list[Json]:
        """The models no output reaches (links between widgets, say), sorted by content."""
        rest = [self.models[m] for m in self.models if m not in self.numbers]
        records = [{"model": m.get("model_name"), "state": self._walk(self._state(m), self._seen)}
                   for m in rest]
        return sorted(records, key=lambda r: json.dumps(r, sort_keys=True))

    def _seen(self, model_id: str) -> str:
        """A reference to a model: its number, or ``#?`` for a model no output reaches."""
        return f"#{self.numbers.get(model_id, '?')}"

    @staticmethod
    def _state(model: Any) -> dict[str, Any]:
        """A copy of the model's state with each binary buffer (a frame, a picture) put at
        its path as the image's hash and size."""
        state: dict[str, Any] = copy.deepcopy(dict(model.get("state", {})))
        for buffer in model.get("buffers", []):
            *parents, last = buffer["path"]
            place: Any = state
            for key in parents:
                place = place[key]
            place[last] = image_record(base64.b64decode(buffer["data"]))
        return state

    def _walk(self, value: Json, on_ref: Callable[[str], Json]) -> Json:
        """``value`` normalised, each reference to a model replaced by ``on_ref(its id)``."""
        if isinstance(value, str):
            ref = MODEL_REF.match(value)
            return on_ref(ref.group(1)) if ref else normalise(value, self.places)
        if isinstance(value, list):
            return [self._walk(v, on_ref) for v in value]
        if isinstance(value, dict):
            return {k: self._walk(v, on_ref) for k, v in sorted(value.items())}
        return value


def output_record(output: Any, widgets: WidgetNumbering, places: Places) -> dict[str, Json]:
    """One output, normalised: its kind, then its text, data or error."""
    kind = output["output_type"]
    if kind == "stream":
        return {"stream": output["name"], "text": normalise(source_text(output["text"]), places)}
    if kind == "error":
        return {"error": output["ename"], "value": normalise(output["evalue"], places),
                "traceback": [normalise(line, places) for line in output["traceback"]]}
    record: dict[str, Json] = {"kind": kind}
    for mime, data in sorted(output.get("data", {}).items()):
        record[mime] = data_record(mime, data, widgets, places)
    return record


def data_record(mime: str, data: Any, widgets: WidgetNumbering, places: Places) -> Json:
    """One MIME bundle entry: an image as its hash and size, a widget as its model tree,
    text normalised."""
    if mime.startswith("image/") and mime != "image/svg+xml":
        return image_record(base64.b64decode(source_text(data)))
    if mime == WIDGET_VIEW:
        return widgets.tree(data["model_id"])
    if isinstance(data, (str, list)):
        return normalise(source_text(data), places)
    return normalise_json(data, places)


def join_streams(outputs: list[dict[str, Json]]) -> list[dict[str, Json]]:
    """The outputs with each run of text printed to one stream made one output, as a
    notebook shows it: how a cell's prints are cut into messages depends on timing."""
    joined: list[dict[str, Json]] = []
    for output in outputs:
        last = joined[-1] if joined else {}
        if "stream" in output and last.get("stream") == output["stream"]:
            joined[-1] = {**last, "text": last["text"] + output["text"]}
        else:
            joined.append(output)
    return joined


def measured(output: dict[str, Json]) -> dict[str, Json]:
    """An output whose content the machine's speed decides: only its kind and MIME types."""
    kinds = ("kind", "stream", "error")
    return {k: v if k in kinds else MEASURED for k, v in output.items()}


def lecture_record(nb: Any, places: Places) -> dict[str, Json]:
    """Per code cell (``cell N``, N counting every cell from 0), its source and outputs;
    the widget models no output shows."""
    widgets = WidgetNumbering(nb, places)
    cells: dict[str, Json] = {}
    for index, cell in enumerate(nb.cells):
        if cell.cell_type == "code":
            source = source_text(cell.source)
            outputs = join_streams([output_record(o, widgets, places) for o in cell.outputs])
            if READS_CLOCK.search(source):
                outputs = [measured(o) for o in outputs]
            cells[f"cell {index}"] = {"source": source, "outputs": outputs}
    return {"cells": cells, "other widget models": widgets.unreached()}


def record_lectures(repo: Path, scratch: Path) -> dict[str, Json]:
    """Every lecture of ``repo/notebooks``, executed, by name."""
    out: dict[str, Json] = {}
    for notebook in sorted((repo / "notebooks").glob("*.ipynb")):
        folder = scratch / notebook.stem
        folder.mkdir()
        nb = execute_lecture(notebook, folder)
        out[notebook.stem] = lecture_record(nb, Places(repo, folder, "<lecture>"))
    return out


