"""What two runs of the same code may show differently, taken out of what they record.

Each rule is either what every notebook run varies in (execution counts, timings, memory
addresses, temp paths, kernel and widget ids) or was found by recording one commit twice
and comparing; :data:`NORMALISED` says each in words, for the snapshot's reader.
"""

from __future__ import annotations

import hashlib
import re
import struct
import sys
from dataclasses import dataclass
from pathlib import Path
from typing import Any

Json = Any  # a value that json.dumps writes: dict, list, str, int, float, bool or None

#: The content a lecture cell that reads the clock shows instead of its outputs.
MEASURED = "<measured: depends on the machine's speed>"

#: What differs between two runs of the same code, and what it is replaced by.
NORMALISED = {
    "execution counts, cell timings, kernel ids, widget model ids":
        "dropped, or models numbered in the order the outputs reach them",
    "memory addresses (0x7f3a...)": "0x?",
    "UUIDs and 32-hex ids (kernel and widget ids, temp names)": "<id>",
    "the repository's, the lecture's and the course's folders": "<repo>, <lecture>, <course>",
    "other temp paths (/tmp/...)": "<tmp>",
    "ANSI colour codes in tracebacks": "removed",
    "how a cell's prints are cut into stream messages (timing: lecture 5's iter_deepen loop)":
        "consecutive outputs to one stream joined into one, as the notebook shows them",
    "a5's measured processor time per board (feedback, verdicts)": "N ms",
    "the outputs of a lecture cell that reads the clock (lecture 5's time_budget cell)":
        "each output's kind and MIME types kept, its content replaced by " + repr(MEASURED),
}

_RULES: list[tuple[re.Pattern[str], str]] = [
    (re.compile(r"\x1b\[[0-9;]*[A-Za-z]"), ""),
    (re.compile(r"\b0x[0-9a-fA-F]{6,}\b"), "0x?"),
    (re.compile(r"\b[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}\b"), "<id>"),
    (re.compile(r"\b[0-9a-f]{32}\b"), "<id>"),
    (re.compile(r"/tmp/[^\s'\"<>)]*"), "<tmp>"),
    (re.compile(r"[\d.]+(?:e-\d+)? ms (of processor time )?(per|a) board"),
     r"N ms \1\2 board"),
]



@dataclass(frozen=True)
class Places:
    """The folders a recording runs in, named in what it records by a placeholder: the
    repository ``<repo>``, the work folder (a lecture's copy, the trial course) ``label``, the
    venv ``<python>``."""

    repo: Path
    work: Path
    label: str

    def replace(self, text: str) -> str:
        """``text`` with these folders (the longest first) named by their placeholders."""
        folders = {str(self.work): self.label, str(self.repo): "<repo>",
                   str(Path(sys.prefix)): "<python>"}
        for folder in sorted(folders, key=len, reverse=True):
            text = text.replace(folder, folders[folder])
        return text


def normalise(text: str, places: Places) -> str:
    """``text`` without what differs between two runs of the same code (:data:`NORMALISED`)."""
    text = places.replace(text)
    for pattern, replacement in _RULES:
        text = pattern.sub(replacement, text)
    return text


def normalise_json(value: Json, places: Places) -> Json:
    """Every string inside ``value`` (keys too) normalised."""
    if isinstance(value, str):
        return normalise(value, places)
    if isinstance(value, list):
        return [normalise_json(v, places) for v in value]
    if isinstance(value, dict):
        return {normalise(str(k), places): normalise_json(v, places) for k, v in value.items()}
    return value


def image_record(data: bytes) -> dict[str, Json]:
    """An image as its bytes' sha256, and its pixel size when it is a PNG."""
    record: dict[str, Json] = {"sha256": hashlib.sha256(data).hexdigest(), "bytes": len(data)}
    if data[:8] == b"\x89PNG\r\n\x1a\n" and len(data) >= 24:
        record["width"], record["height"] = struct.unpack(">II", data[16:24])
    return record


def source_text(source: str | list[str]) -> str:
    """A notebook field that nbformat may hold as a list of lines, as one string."""
    return "".join(source) if isinstance(source, list) else source


