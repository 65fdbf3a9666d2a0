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
from matplotlib.colors import to_rgb  # noqa: E402

from minimaxkit import alphabeta  # noqa: E402
from minimaxkit.draw.render import FrameRenderer  # noqa: E402
from minimaxkit.draw.style import CURRENT  # noqa: E402
from minimaxkit.examples import sheet_tree  # noqa: E402
from minimaxkit.widgets.frames import TOLERANCE, DeltaEncoder, compose  # noqa: E402


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


def test_the_last_step_of_the_sheets_search_has_no_ghost_rings() -> None:
    """Student 4 saw, at the last of lecture 3's 42 steps of the example sheet's search,
    faint orange "current" rings round C, I and K and faint (α, β) box outlines beside I, J
    and K: the changes were reduced to 64 colours, so a pixel redrawn to put a ring away
    could land 26 levels off white, and stayed so. Now, after every frame of changes,
    no pixel the browser shows is more than TOLERANCE (8 levels of 255) off the frame,
    none near a node that is not current at the last step, and the last step's picture
    holds no current ring at all."""
    renderer = FrameRenderer(alphabeta(sheet_tree()), dpi=80)
    enc = DeltaEncoder()
    frames = [renderer.rgb(k) for k in range(len(renderer))]
    for rgb in frames:
        enc.add(rgb)
    assert len(frames) == 43 and not enc.keys[-1]  # (the last step is drawn as changes)
    for k, rgb in enumerate(frames):
        if k == 0 or enc.keys[k]:
            continue  # (a key frame, reduced to 64 colours: the next changes put it right)
        shown = compose(enc.frames, enc.keys, enc.corners, k).astype(int)
        off = np.abs(shown - rgb.astype(int)).max(axis=2)
        assert off.max() <= TOLERANCE, (k, int(off.max()), int((off > TOLERANCE).sum()))
    # the last step: no pixel of the current ring's orange where the frame has none (the
    # legend's sample of the ring is the only one)
    last = compose(enc.frames, enc.keys, enc.corners, len(frames) - 1).astype(int)
    ring = np.array(to_rgb(CURRENT.edge)) * 255
    orange = np.abs(last - ring).max(axis=2) <= 40
    assert not (orange & (np.abs(frames[-1].astype(int) - ring).max(axis=2) > 40)).any()
