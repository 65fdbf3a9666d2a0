"""A Jupyter server pre-save hook for students' copies of the lectures
(``tools/student_setup.py`` installs it): a lecture that was only opened saves
byte for byte as it was, so ``git status`` (and nbgitpuller's merge) sees no change.

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

__all__ = ["pre_save_hook", "keep_file_metadata", "STATE"]

STATE = "application/vnd.jupyter.widget-state+json"


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
    """``FileContentsManager.pre_save_hook``: for a notebook that exists on disk, keep its
    own metadata where the front end only filled in what the kernel said (see above)."""
    if model.get("type") != "notebook" or not isinstance(model.get("content"), dict):
        return
    # read directly: the server's (async) contents manager would hand back a coroutine
    file = Path(contents_manager.root_dir) / path.strip("/")
    try:
        on_disk = json.loads(file.read_text(encoding="utf-8"))
    except (OSError, ValueError):  # a new notebook, or one that cannot be read: as sent
        return
    if isinstance(on_disk, dict):
        keep_file_metadata(model["content"], on_disk)
