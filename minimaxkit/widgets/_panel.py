"""The pieces the step widgets share: the step controls, frame filling in the kernel's
event loop, a small cache of rendered frames, and the texts of a step as HTML; one trace's
pictures and texts are :class:`~minimaxkit.widgets.trace_panel.TracePanel`'s.

Design: every frame of a trace (up to ``PRERENDER_LIMIT``) is rendered once and kept, as
its changes over the frame before, by a :class:`~minimaxkit.widgets.frames.FrameStrip`
that draws the step asked for on a canvas; the explanation and call stack of every frame
are ``HTML`` children of a ``Stack``. The step controls (:class:`Controls`, an anywidget
whose buttons, play and slider all run in the browser) have their ``value`` ``jsdlink``-ed
to the strip's ``index`` and each Stack's ``selected_index``, so the browser switches
pictures without asking the kernel, also in a page saved with its widget state. Each
step's picture is named by what it shows (:mod:`minimaxkit.draw.alt`). Traces whose
pre-rendering would cost too much (frames × nodes drawn, see :func:`prerender_cost`) fall
back to a *live* mode that renders the shown step in the kernel.
"""

from __future__ import annotations

import asyncio
import html
from collections import OrderedDict
from collections.abc import Callable, Hashable, Sequence
from pathlib import Path as FilePath
from typing import Any

import anywidget
import ipywidgets as w
import traitlets

from ..replay import Frame, fmt
from .disconnected import (  # noqa: F401  (re-exported: where the widgets import them from)
    NEEDS_KERNEL_TEXT,
    RERUN_HTML,
    RERUN_TEXT,
    RerunHint,
    needs_kernel,
)
from .frames import DeltaEncoder

__all__ = ["Controls", "Picture", "RerunHint", "RERUN_TEXT", "RERUN_HTML",
           "needs_kernel", "NEEDS_KERNEL_TEXT",
           "schedule", "frame_html", "stack_html",
           "PRERENDER_LIMIT", "PRERENDER_BUDGET", "prerender_cost", "CONTROL_COLORS"]

#: Traces with more frames than this are shown in live mode (rendered on demand).
PRERENDER_LIMIT = 300
#: Pre-rendering is chosen while frames × (nodes drawn + FRAME_OVERHEAD) stays within this:
#: 300 frames of an 80-node tree (a few seconds of rendering in the background).
PRERENDER_BUDGET = 300 * (80 + 20)
#: The fixed cost of a frame (its PNG, its text, a board), counted in drawn nodes.
FRAME_OVERHEAD = 20
#: Live mode reads this many events of the trace per piece of background work (1-2 ms).
INDEX_CHUNK = 1024
#: Seconds the kernel's event loop is left idle between two pieces of background work.
#: ipykernel passes a message (a click) through several turns of its loop; with a piece
#: of work queued on every turn, a click waited for the whole read-ahead of the full
#: tic-tac-toe trace (0.7 s, twice in a row, measured in the browser); with this pause no
#: click took over 91 ms.
WORK_PAUSE = 0.002
#: Trees with more nodes than this are not drawn beside a game's board.
MAX_DRAWN_NODES = 250
#: The widest tree picture a step widget shows, in inches (at its dpi).
MAX_WIDTH_IN = 10.5


def prerender_cost(frames: int, nodes: int) -> int:
    """The estimated cost of pre-rendering ``frames`` frames of a picture of ``nodes`` nodes
    (0: no tree drawn), in node-draws; compared with ``PRERENDER_BUDGET``.

    >>> prerender_cost(43, 40) <= PRERENDER_BUDGET < prerender_cost(244, 1093)
    True
    """
    return frames * (nodes + FRAME_OVERHEAD)


def schedule(work: Callable[[], bool]) -> bool:
    """Call ``work()`` until it returns False. Inside a running event loop (a Jupyter
    kernel) one call at a time, ``WORK_PAUSE`` seconds apart, so the kernel stays
    responsive and the widget shows at once; returns True then. Otherwise (plain Python)
    everything runs now; returns False."""
    try:
        loop = asyncio.get_running_loop()
    except RuntimeError:
        while work():
            pass
        return False

    def tick() -> None:
        if work():
            loop.call_later(WORK_PAUSE, tick)

    loop.call_soon(tick)
    return True


class FrameCache:
    """The encoded frames of the last few traces shown (a :class:`DeltaEncoder` each, filled
    as far as rendering got), so that re-running a cell (or showing the same search twice)
    costs nothing."""

    def __init__(self, size: int = 8) -> None:
        self.size = size
        self._items: OrderedDict[Hashable, DeltaEncoder] = OrderedDict()

    def get(self, key: Hashable) -> DeltaEncoder:
        """The (shared) encoder of the frames for ``key``."""
        encoder = self._items.get(key)
        if encoder is None:
            encoder = self._items[key] = DeltaEncoder()
        self._items.move_to_end(key)
        while len(self._items) > self.size:
            self._items.popitem(last=False)
        return encoder


FRAMES = FrameCache()


class Picture(w.Image):
    """An ``Image`` widget whose ``tooltip`` is its accessible name: the ``title`` of its
    ``<img>``, saying what the picture shows. (ipywidgets 8's front end reads the widget's
    ``description`` when it sets a tooltip, and ``Image`` has none: an empty one is added.)
    """

    description = traitlets.Unicode("").tag(sync=True)


# ----- words as HTML ---------------------------------------------------------------------
def stack_html(frame: Frame, bounds: bool = True) -> str:
    """The call stack of ``frame`` as an HTML table, root first; with ``bounds=False`` (for
    minimax before α and β are taught) only the nodes, under the title "being searched"."""
    if not bounds:
        return _path_html(frame)
    if not frame.stack:
        body = '<tr><td colspan="5" style="color:#666">(empty)</td></tr>'
    else:
        rows = []
        for lv in frame.stack:
            best = ""
            if lv.best is not None and lv.value is not None:
                best = ("≥" if lv.is_max else "≤") + fmt(lv.value)
            shape = "▲ MAX" if lv.is_max else "▼ MIN"
            mark = ' style="background:#fbe3b0"' if lv.path == frame.current else ""
            rows.append(f"<tr{mark}><td><b>{html.escape(lv.name)}</b></td><td>{shape}</td>"
                        f"<td>{fmt(lv.alpha)}</td><td>{fmt(lv.beta)}</td><td>{best}</td>"
                        "</tr>")
        body = "".join(rows)
    head = ("<tr><th>node</th><th></th><th>α</th><th>β</th><th>so far</th></tr>")
    return ('<table class="mmk-stack" style="border-collapse:separate;border-spacing:10px 1px;'
            'font-size:12px;line-height:1.3;margin-left:-10px"><caption style="text-align:'
            f'left;font-weight:bold;padding-left:10px">call stack</caption>{head}{body}</table>')


def _path_html(frame: Frame) -> str:
    rows = "".join(f"<tr><td><b>{html.escape(lv.name)}</b></td><td>"
                   f"{'▲ MAX' if lv.is_max else '▼ MIN'}</td></tr>" for lv in frame.stack)
    # the title above the table, not its caption: a caption wraps to the two columns' width
    return ('<div style="font-size:12px;font-weight:bold;line-height:1.3">being searched '
            '(root first)</div><table class="mmk-stack" style="border-collapse:separate;'
            'border-spacing:10px 1px;font-size:12px;line-height:1.3;margin-left:-10px">'
            f'{rows or _NOTHING}</table>')


_NOTHING = '<tr><td style="color:#666">(nothing)</td></tr>'


def frame_html(frame: Frame, extra: str = "", bounds: bool = True) -> str:
    """The explanation line of ``frame`` and its call stack, as one HTML block."""
    text = html.escape(frame.text)  # (bounds=False: the replay's narrator names no window)
    return (f'<div class="mmk-frame" style="font-size:13px;line-height:1.4">'
            f'<div class="mmk-explain" style="min-height:2.8em"><b>step {frame.step} / '
            f"{frame.steps}</b> · {text}</div>{extra}{stack_html(frame, bounds)}</div>")


# ----- controls ---------------------------------------------------------------------------
#: Colours of the controls (text on background ≥ 4.5:1, focus ring and borders ≥ 3:1 on
#: white: tests/test_contrast.py checks them).
CONTROL_COLORS = {"text": "#111111", "background": "#ffffff", "border": "#5a5a5a",
                  "primary": "#0b4f8a", "primary_text": "#ffffff", "focus": "#b34700",
                  "muted": "#555555", "off": "#f0f0f0"}

CONTROLS_CSS = """
.mmk-controls {{ font-size: 13px; color: {text}; margin: 4px 0; padding: 0 6px; }}
.mmk-controls .mmk-row {{ display: flex; flex-flow: row wrap; align-items: center;
  gap: 4px 6px; margin: 2px 0; }}
.mmk-controls .mmk-btn {{ font: inherit; color: {text}; background: {background};
  border: 1px solid {border}; border-radius: 3px; padding: 3px 9px; cursor: pointer;
  min-height: 28px; }}
.mmk-controls .mmk-btn.mmk-next {{ background: {primary}; border-color: {primary};
  color: {primary_text}; }}
.mmk-controls .mmk-btn:hover {{ border-color: {text}; }}
.mmk-controls .mmk-btn[aria-disabled="true"] {{ color: {muted}; background: {off};
  border: 1px dashed {muted}; cursor: not-allowed; }}
.mmk-controls .mmk-btn:focus-visible, .mmk-controls input:focus-visible {{
  outline: 3px solid {focus}; outline-offset: 2px; }}
.mmk-controls .mmk-slider {{ width: 340px; max-width: 60vw; accent-color: {primary}; }}
.mmk-controls .mmk-speed {{ width: 180px; accent-color: {primary}; }}
.mmk-controls .mmk-label {{ color: {muted}; }}
.mmk-controls .mmk-readout {{ font-variant-numeric: tabular-nums; min-width: 5.5em; }}
.mmk-controls .mmk-live {{ position: absolute; width: 1px; height: 1px; padding: 0;
  margin: -1px; overflow: hidden; clip: rect(0 0 0 0); white-space: nowrap; border: 0; }}
/* A widget with all its frames in the page steps without a kernel: the front end's marks
   for a lost kernel (a red broken link before every part) would say it cannot. */
.mmk-standalone .jupyter-widgets-disconnected::before,
.mmk-standalone.jupyter-widgets-disconnected::before {{ content: none; }}
""".format(**CONTROL_COLORS)


class Controls(anywidget.AnyWidget):  # type: ignore[misc]
    """first / back / next / last buttons, play / pause, a step slider and a speed (ms per
    step) slider; keys ← → Home End; each step announced to screen readers.

    ``value`` is the step shown. All of it runs in the browser (``controls.js``), so a page
    saved with its widget state steps with every control and no kernel. ``texts`` holds
    what to announce at each step; without it (live mode) ``status`` is announced.

    >>> c = Controls(42)
    >>> c.next(); c.next(); c.back(); c.value
    1
    >>> c.last(); c.value
    42
    >>> c.go(99); c.value
    42
    """

    _esm = (FilePath(__file__).parent / "controls.js").read_text(encoding="utf-8")
    _css = CONTROLS_CSS
    value = traitlets.Int(0).tag(sync=True)
    steps = traitlets.Int(0).tag(sync=True)
    interval = traitlets.Int(800).tag(sync=True)
    texts = traitlets.List(traitlets.Unicode()).tag(sync=True)
    status = traitlets.Unicode("").tag(sync=True)
    label = traitlets.Unicode("Step through the search").tag(sync=True)

    def __init__(self, steps: int, *, interval: int = 800, texts: Sequence[str] = (),
                 label: str = "Step through the search") -> None:
        if steps < 0:
            raise ValueError(f"Controls: steps must be >= 0, got {steps}")
        super().__init__(steps=steps, interval=interval, texts=list(texts), label=label)
        self.add_class("mmk-step-controls")

    def go(self, step: int) -> None:
        """Show ``step`` (clamped to the trace)."""
        self.value = step

    def first(self) -> None:
        """Show step 0 (as the *first* button)."""
        self.go(0)

    def back(self) -> None:
        """Show the step before (as the *back* button)."""
        self.go(self.value - 1)

    def next(self) -> None:
        """Show the step after (as the *next* button)."""
        self.go(self.value + 1)

    def last(self) -> None:
        """Show the last step (as the *last* button)."""
        self.go(self.steps)

    @traitlets.validate("value")
    def _clamp(self, proposal: dict[str, Any]) -> int:
        return int(min(max(proposal["value"], 0), self.steps))


# ----- one trace's pictures ----------------------------------------------------------------
