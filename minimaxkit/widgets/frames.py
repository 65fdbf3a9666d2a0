"""A search's pictures, one per step, small enough to save with a notebook: each frame is
stored as the pixels that changed since the frame before (the rest transparent), with a
full *key* frame now and then; the browser (``frames.js``) draws them onto one canvas.

Between two steps of a search a node changes colour, a value or a window appears, the
current-node ring moves: a few per cent of the picture. Stored whole, the 43 frames of the
example sheet's search took 707 KB as 64-colour PNGs (a lecture with three such widgets
saved at 3 MB); stored as changes, about 230 KB (``benchmarks/bench_frames.py``; 120 KB
when the changes were reduced to 64 colours too, which left faint ghost rings: see
:data:`TOLERANCE`).

>>> import numpy as np
>>> enc = DeltaEncoder()
>>> white = np.full((4, 6, 3), 255, np.uint8)
>>> dot = white.copy(); dot[1, 2] = (0, 0, 0)
>>> [enc.add(a)[1] for a in (white, dot, dot)]     # key frame, then changes
[True, False, False]
>>> enc.corners                                    # where each frame of changes goes
[[0, 0], [2, 1], [0, 0]]
>>> compose(enc.frames, enc.keys, enc.corners, 2)[1, 2].tolist()
[0, 0, 0]
"""

from __future__ import annotations

import io
from collections.abc import Sequence
from pathlib import Path as FilePath

import anywidget
import numpy as np
import traitlets
from PIL import Image

__all__ = ["FrameStrip", "DeltaEncoder", "compose", "KEY_EVERY"]

#: At most this many frames between two key frames: stepping back draws at most this many.
KEY_EVERY = 24
#: A frame where more than this share of the pixels changed is stored whole (a key frame).
KEY_SHARE = 0.3


def _png(image: Image.Image) -> bytes:
    buf = io.BytesIO()
    image.save(buf, format="png", compress_level=6)
    return buf.getvalue()


def _full(rgb: np.ndarray) -> bytes:
    """A whole frame, reduced to 64 colours (as the step widget's frames always were)."""
    return _png(Image.fromarray(rgb).quantize(colors=64, method=Image.Quantize.FASTOCTREE))


#: A pixel the browser shows within this many levels (of 255, in every channel) of the
#: next frame's is left as it is; one further off is drawn again, in its exact colour.
#: Changes measured against the exact frames left the pixels of a ring that had moved on
#: ("ghost rings", 40 levels off after 25 steps); measured against what is shown, but with
#: each change reduced to 64 colours, a redrawn pixel could land as far off as before (at
#: the last step of the example sheet's search, student 4 saw faint rings round C, I and K,
#: 26 levels off). Changes now keep their colours exactly (:func:`_exact_palette`), so no
#: pixel after a change is further off than this (key frames, whole frames reduced to 64
#: colours, are put right by the changes after them). The frames of that search take
#: 226 KB instead of 128 KB.
TOLERANCE = 8


def _changes(shown: np.ndarray, after: np.ndarray) -> tuple[bytes, tuple[int, int], float]:
    """The pixels of ``after`` more than :data:`TOLERANCE` off what is ``shown``, in their
    exact colours, the others transparent, cut to the box that holds them; that box's top
    left corner (x, y); the share of pixels that changed."""
    changed = np.abs(shown.astype(np.int16) - after.astype(np.int16)).max(axis=2) > TOLERANCE
    rows, cols = np.flatnonzero(changed.any(axis=1)), np.flatnonzero(changed.any(axis=0))
    if not len(rows):  # nothing changed: one transparent pixel
        return _png(Image.new("RGBA", (1, 1))), (0, 0), 0.0
    y0, y1, x0, x1 = rows[0], rows[-1] + 1, cols[0], cols[-1] + 1
    box, part = changed[y0:y1, x0:x1], after[y0:y1, x0:x1]
    rgba = np.zeros(part.shape[:2] + (4,), np.uint8)
    rgba[box, :3] = part[box]
    rgba[box, 3] = 255
    return _png(_exact_palette(rgba)), (int(x0), int(y0)), float(changed.mean())


def _exact_palette(rgba: np.ndarray) -> Image.Image:
    """``rgba`` as a PNG-ready image with its colours kept exactly: a palette image when it
    holds at most 256 colours (most changes do: a ring, a value, a window), else RGBA."""
    flat = rgba.reshape(-1, 4)
    colours, index = np.unique(flat, axis=0, return_inverse=True)
    if len(colours) > 256:
        return Image.fromarray(rgba, "RGBA")
    image = Image.fromarray(index.reshape(rgba.shape[:2]).astype(np.uint8), "P")
    image.putpalette(colours[:, :3].astype(np.uint8).tobytes())
    image.info["transparency"] = bytes(colours[:, 3].astype(np.uint8))
    return image


def _paint(shown: np.ndarray, data: bytes, corner: Sequence[int], key: bool) -> np.ndarray:
    """What the browser shows after drawing frame ``data`` over ``shown`` (as ``frames.js``
    and :func:`compose` draw it)."""
    image = np.asarray(Image.open(io.BytesIO(data)).convert("RGBA"))
    if key:
        return image[..., :3].copy()
    out = shown.copy()
    x, y = corner
    h, w = image.shape[:2]
    drawn = image[..., 3] > 0
    out[y:y + h, x:x + w][drawn] = image[drawn, :3]
    return out


class DeltaEncoder:
    """Frames (RGB arrays of one size, in step order) as PNG bytes: key frames whole, the
    others as changes over the frame before. ``frames`` and ``keys`` grow with :meth:`add`."""

    def __init__(self) -> None:
        self.frames: list[bytes] = []
        self.keys: list[bool] = []
        self.corners: list[list[int]] = []
        self.last: np.ndarray | None = None  # what the browser shows after the last frame
        self._since_key = 0

    def add(self, rgb: np.ndarray) -> tuple[bytes, bool]:
        """Encode the next frame; return its bytes and whether it is a key frame."""
        key = self.last is None or self.last.shape != rgb.shape or \
            self._since_key + 1 >= KEY_EVERY
        corner = (0, 0)
        if not key:
            data, corner, share = _changes(self.last, rgb)  # type: ignore[arg-type]
            key = share > KEY_SHARE
        if key:
            data, corner = _full(rgb), (0, 0)
        self.frames.append(data)
        self.keys.append(key)
        self.corners.append(list(corner))
        self._since_key = 0 if key else self._since_key + 1
        self.last = _paint(self.last if self.last is not None else rgb, data, corner, key)
        return data, key


def compose(frames: Sequence[bytes], keys: Sequence[bool], corners: Sequence[Sequence[int]],
            step: int) -> np.ndarray:
    """Frame ``step`` as an RGB array, drawn as the browser draws it: the last key frame at
    or before it, then every frame of changes after it, each at its corner (what
    ``frames.js`` does)."""
    start = step
    while start > 0 and not keys[start]:
        start -= 1
    out: np.ndarray | None = None
    for i in range(start, step + 1):
        image = np.asarray(Image.open(io.BytesIO(frames[i])).convert("RGBA"))
        if out is None or keys[i]:
            out = image[..., :3].copy()
        else:
            x, y = corners[i]
            h, w = image.shape[:2]
            shown = image[..., 3] > 0
            out[y:y + h, x:x + w][shown] = image[shown, :3]
    assert out is not None
    return out


class FrameStrip(anywidget.AnyWidget):  # type: ignore[misc]
    """The frames of one search, one shown at a time (``index``), drawn in the browser from
    ``frames`` (PNG bytes; ``whole`` says which are key frames, ``corners`` where each frame of
    changes goes: its top left pixel). ``titles`` holds each step's text
    alternative; an index past the last frame or title shows the last one (a trace shorter
    than the one it is compared with). ``width`` and ``height`` are the frames' size.

    >>> import numpy as np
    >>> strip = FrameStrip(8, 6, titles=["the tree", "after one step"])
    >>> strip.append(np.zeros((6, 8, 3), np.uint8)); len(strip.frames), strip.whole
    (1, [True])
    >>> {"frames", "whole", "corners", "titles", "index"} <= set(strip.get_state())
    True
    """

    _esm = (FilePath(__file__).parent / "frames.js").read_text(encoding="utf-8")
    frames = traitlets.List(traitlets.Bytes()).tag(sync=True)
    # (not "keys": a widget's ``keys`` are the names of its synced traits)
    whole = traitlets.List(traitlets.Bool()).tag(sync=True)
    corners = traitlets.List(traitlets.List(traitlets.Int())).tag(sync=True)
    titles = traitlets.List(traitlets.Unicode()).tag(sync=True)
    index = traitlets.Int(0).tag(sync=True)
    width = traitlets.Int(0).tag(sync=True)
    height = traitlets.Int(0).tag(sync=True)

    def __init__(self, width: int, height: int, *, titles: Sequence[str] = ()) -> None:
        super().__init__(width=width, height=height, titles=list(titles))
        self.add_class("mmk-frame-strip")
        self.encoder = DeltaEncoder()

    def append(self, rgb: np.ndarray, *, publish: bool = True) -> None:
        """Encode the next frame; with ``publish``, send every frame so far to the browser."""
        self.encoder.add(rgb)
        if publish:
            self.publish()

    def publish(self) -> None:
        """Send the frames encoded so far (the list only grows: the browser keeps what it
        has decoded)."""
        if len(self.frames) != len(self.encoder.frames):
            with self.hold_sync():
                self.whole = list(self.encoder.keys)
                self.corners = [list(c) for c in self.encoder.corners]
                self.frames = list(self.encoder.frames)
