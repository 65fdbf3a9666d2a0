"""A Jupyter server pre-save hook for students' copies of the lectures
(``tools/student_setup.py`` installs it): a lecture that was only opened saves
byte for byte as it was, so ``git status`` (and nbgitpuller's merge) sees no change; and
a lecture run again and again saves no larger than after one run.

With *Save Widget State Automatically* on, the front end saves the state of every widget
model the kernel still holds: those of the cell outputs, but also those of widgets made by
earlier runs of the same cells (their outputs are gone, the kernel keeps them) and of
widgets never shown. Lecture 3 grew from 3.1 MB after one run to 9.1 MB after three. The
hook keeps the models the notebook's outputs show (and what those reach: their children,
layouts, styles, and the links between them) and drops the rest.

Opening a notebook makes JupyterLab and Notebook 7 write the kernel's ``language_info``
(its Python version, lexer, MIME type) into the notebook's metadata, which marks it modified
and gets it autosaved; with *Save Widget State Automatically* on, each save also writes a
widget state, an empty one when no widget was shown. This hook keeps the file's own
``language_info`` when it names the same language, and drops an empty widget state the file
did not have. Everything else (cells, outputs, a real widget state) is saved as sent.

>>> disk = {"metadata": {"language_info": {"name": "python"}}, "cells": []}
>>> sent = {"metadata": {"language_info": {"name": "python", "version": "3.11.7"},
...                      "widgets": {STATE: {"state": {}, "version_major": 2}}}, "cells": []}
>>> keep_file_metadata(sent, disk)
>>> sent["metadata"]
{'language_info': {'name': 'python'}}
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

__all__ = ["pre_save_hook", "keep_file_metadata", "keep_shown_widgets", "STATE", "VIEW",
           "restore_missing_models", "drop_unbacked_views"]

STATE = "application/vnd.jupyter.widget-state+json"
VIEW = "application/vnd.jupyter.widget-view+json"
_PREFIX = "IPY_MODEL_"


def _references(value: Any, found: set[str]) -> set[str]:
    """The model ids ``value`` (a model's state, or an output) refers to: ``IPY_MODEL_``
    strings (children, layouts, link ends) and ``model_id`` entries (outputs held by an
    Output widget)."""
    if isinstance(value, str):
        if value.startswith(_PREFIX):
            found.add(value[len(_PREFIX):])
    elif isinstance(value, dict):
        for k, v in value.items():
            if k == "model_id" and isinstance(v, str):
                found.add(v)
            else:
                _references(v, found)
    elif isinstance(value, list):
        for v in value:
            _references(v, found)
    return found


def _shown(content: dict[str, Any]) -> set[str]:
    """The models the notebook's outputs display."""
    found: set[str] = set()
    for cell in content.get("cells") or []:
        for output in (cell.get("outputs") or []) if isinstance(cell, dict) else []:
            data = output.get("data") if isinstance(output, dict) else None
            if isinstance(data, dict) and isinstance(data.get(VIEW), dict):
                _references(data[VIEW], found)
    return found


def keep_shown_widgets(content: dict[str, Any]) -> int:
    """Drop from ``content``'s saved widget state every model no output shows or reaches;
    return how many were dropped. A model is kept when an output displays it, when a kept
    model refers to it, or when every model it refers to is kept (a link between two kept
    widgets refers to them, nothing refers to it).

    >>> nb = {"cells": [{"outputs": [{"data": {VIEW: {"model_id": "a"}}}]}],
    ...       "metadata": {"widgets": {STATE: {"state": {
    ...           "a": {"state": {"children": ["IPY_MODEL_b"]}}, "b": {"state": {}},
    ...           "link": {"state": {"source": ["IPY_MODEL_a", "value"],
    ...                              "target": ["IPY_MODEL_b", "value"]}},
    ...           "old": {"state": {"children": ["IPY_MODEL_gone"]}}, "gone": {"state": {}}}}}}}
    >>> keep_shown_widgets(nb), sorted(nb["metadata"]["widgets"][STATE]["state"])
    (2, ['a', 'b', 'link'])
    """
    widgets = (content.get("metadata") or {}).get("widgets")
    saved = widgets.get(STATE) if isinstance(widgets, dict) else None
    models = saved.get("state") if isinstance(saved, dict) else None
    if not isinstance(models, dict) or not models:
        return 0
    refers = {mid: _references(model, set()) for mid, model in models.items()}
    keep: set[str] = set()
    todo = [m for m in _shown(content) if m in models]
    while True:
        while todo:
            mid = todo.pop()
            if mid not in keep:
                keep.add(mid)
                todo.extend(r for r in refers[mid] if r in models)
        todo = [m for m, r in refers.items() if m not in keep and r and r <= keep]
        if not todo:
            break
    dropped = [m for m in models if m not in keep]
    for mid in dropped:
        del models[mid]
    return len(dropped)


def _models(content: dict[str, Any]) -> dict[str, Any] | None:
    """The saved widget models of ``content`` (a notebook), or None."""
    widgets = (content.get("metadata") or {}).get("widgets")
    saved = widgets.get(STATE) if isinstance(widgets, dict) else None
    models = saved.get("state") if isinstance(saved, dict) else None
    return models if isinstance(models, dict) else None


def restore_missing_models(content: dict[str, Any], on_disk: dict[str, Any]) -> int:
    """Put back from the file on disk the models ``content``'s outputs show that its widget
    state lacks (and what they reach); return how many. A page reloaded while its kernel
    runs saves the outputs it read from the file with a widget state that holds none of
    their models: the file's state for those same outputs is the one to keep.

    >>> disk = {"metadata": {"widgets": {STATE: {"state": {"a": {"state": {
    ...     "children": ["IPY_MODEL_b"]}}, "b": {"state": {}}}}}}}
    >>> sent = {"cells": [{"outputs": [{"data": {VIEW: {"model_id": "a"}}}]}],
    ...         "metadata": {"widgets": {STATE: {"state": {}, "version_major": 2}}}}
    >>> restore_missing_models(sent, disk), sorted(sent["metadata"]["widgets"][STATE]["state"])
    (2, ['a', 'b'])
    """
    kept = _models(on_disk)
    if not kept:
        return 0
    todo = [m for m in _shown(content) if m in kept]
    models = _models(content)
    if models is None:
        if not todo:
            return 0
        meta = content.setdefault("metadata", {})
        widgets = meta.setdefault("widgets", {})
        saved = widgets.setdefault(STATE, {"version_major": 2, "version_minor": 0})
        models = saved.setdefault("state", {})
    added = 0
    while todo:
        mid = todo.pop()
        if mid in models or mid not in kept:
            continue
        models[mid] = kept[mid]
        added += 1
        todo.extend(_references(kept[mid], set()))
    return added


def drop_unbacked_views(content: dict[str, Any]) -> int:
    """Take the widget view out of every output whose model the saved state does not hold
    (the output keeps its text, which says to run the cell); return how many. Opened
    again, such an output showed "Error displaying widget: model not found" beside the
    kit's "Run this cell" hint.

    >>> nb = {"cells": [{"outputs": [{"data": {VIEW: {"model_id": "x"},
    ...                                        "text/plain": "Run this cell"}}]}]}
    >>> drop_unbacked_views(nb), nb["cells"][0]["outputs"][0]["data"]
    (1, {'text/plain': 'Run this cell'})
    """
    models = _models(content) or {}
    dropped = 0
    for cell in content.get("cells") or []:
        for output in (cell.get("outputs") or []) if isinstance(cell, dict) else []:
            data = output.get("data") if isinstance(output, dict) else None
            view = data.get(VIEW) if isinstance(data, dict) else None
            if isinstance(view, dict) and not _references(view, set()) <= set(models):
                del data[VIEW]  # type: ignore[union-attr]
                dropped += 1
    return dropped


def keep_file_metadata(content: dict[str, Any], on_disk: dict[str, Any]) -> None:
    """Put the file's own ``language_info`` back into ``content`` (a notebook about to be
    saved) when it names the same language, and drop an empty widget state that the file
    on disk did not have."""
    meta = content.setdefault("metadata", {})
    old = on_disk.get("metadata", {}) or {}
    sent, kept = meta.get("language_info"), old.get("language_info")
    if isinstance(sent, dict) and isinstance(kept, dict) and sent.get("name") == kept.get("name"):
        meta["language_info"] = kept
    widgets = meta.get("widgets")
    if isinstance(widgets, dict) and "widgets" not in old:
        state = widgets.get(STATE)
        if isinstance(state, dict) and not state.get("state") and set(widgets) == {STATE}:
            del meta["widgets"]


def pre_save_hook(model: dict[str, Any], path: str, contents_manager: Any,
                  **kwargs: Any) -> None:
    """``FileContentsManager.pre_save_hook``: keep only the widget models the notebook
    shows; for a notebook that exists on disk, put back the models its outputs show that
    the front end did not send (a page reloaded while the kernel runs) and keep its own
    metadata where the front end only filled in what the kernel said (see above); then no
    output may show a widget whose model is not saved (it would read "model not found")."""
    if model.get("type") != "notebook" or not isinstance(model.get("content"), dict):
        return
    content = model["content"]
    keep_shown_widgets(content)
    # read directly: the server's (async) contents manager would hand back a coroutine
    file = Path(contents_manager.root_dir) / path.strip("/")
    try:
        on_disk = json.loads(file.read_text(encoding="utf-8"))
    except (OSError, ValueError):  # a new notebook, or one that cannot be read: as sent
        on_disk = None
    if isinstance(on_disk, dict):
        restore_missing_models(content, on_disk)
        keep_file_metadata(content, on_disk)
    if _models(content) is not None:  # (with no widget state saved at all, as sent)
        drop_unbacked_views(content)
