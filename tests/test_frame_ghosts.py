"""The step widget's frames as the browser draws them (key frames, then changes) stay
close to the frames themselves: no ring, value or window left behind where it was.

Frames are reduced to 64 colours. Changes used to be measured against the exact frames:
a pixel the browser showed a little off (a ring that had moved on, a key frame's
rounding) was never drawn again while the exact frames stayed equal there, and the
errors piled up ("ghost rings": about 500 pixels more than 16 levels off from step 25 of
the example sheet's search to its end). Changes are now measured against what the
browser shows."""

from __future__ import annotations

import matplotlib

matplotlib.use("Agg")

import numpy as np  # noqa: E402

from minimaxkit import alphabeta  # noqa: E402
from minimaxkit.draw.render import FrameRenderer  # noqa: E402
from minimaxkit.examples import sheet_tree  # noqa: E402
from minimaxkit.widgets.frames import DeltaEncoder, compose  # noqa: E402


def test_no_ghosts_pile_up_between_key_frames() -> None:
    renderer = FrameRenderer(alphabeta(sheet_tree()), dpi=80)
    enc = DeltaEncoder()
    frames = [renderer.rgb(k) for k in range(len(renderer))]
    for rgb in frames:
        enc.add(rgb)
    off = []
    for k, rgb in enumerate(frames):
        shown = compose(enc.frames, enc.keys, enc.corners, k).astype(int)
        off.append(int((np.abs(shown - rgb.astype(int)).max(axis=2) > 16).sum()))
    later = [n for k, n in enumerate(off) if not enc.keys[k]]
    assert max(later) < 250 and sum(later) / len(later) < 120, off
