"""The pieces the step widgets share: the step controls, one trace's pictures and texts
switched in the browser, frame filling in the kernel's event loop, and a small cache of
rendered frames.

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
from ipywidgets.widgets.widget_string import HTMLStyle

from ..narration import Narrator
from ..replay import Frame, Replay, fmt, state_at
from ..trace import Trace
from ..tree import GameTree
from ._kernel import (  # noqa: F401  (re-exported: where the widgets import them from)
    NEEDS_KERNEL_TEXT,
    RERUN_HTML,
    RERUN_TEXT,
    RerunHint,
    needs_kernel,
)
from .frames import DeltaEncoder, FrameStrip

__all__ = ["Controls", "Picture", "RerunHint", "RERUN_TEXT", "RERUN_HTML", "TracePanel",
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
class TracePanel:
    """The tree pictures, boards (for games) and texts of one trace, one per step, as
    Stacks (pre-rendered) or single widgets updated by the kernel (live mode)."""

    def __init__(self, source: Any, *, trace: Trace | None = None, tree: Any = None,
                 state: Any = None, title: str | None = None, labels: Any = "auto",
                 dpi: float = 80, prerender: bool | None = None, length: int | None = None,
                 marks: dict[Any, str] | None = None, extra: str = "",
                 compact: bool = False, legend: bool = True, bounds: bool = True,
                 notes: Sequence[str] = ()) -> None:
        from ..draw.model import TreeModel
        from ..draw.tree import compact_figsize, figsize_for

        self.replay = Replay(trace if trace is not None else source, tree=tree, state=state)
        self.bounds = bounds  # False: no α, β in the words and the stack (minimax, early on)
        if not bounds:  # told what to leave out: the window each node is entered with
            self.replay.narrator = Narrator(self.replay, windows=False)
        game = self.replay.game
        self.game, self.state = game, self.replay.root_state
        n = len(self.replay)
        self.frames = n
        self.length = max(length or n, n)
        self.renderer: Any = None
        self.is_tree = isinstance(game, GameTree)
        # what is drawn is decided from a count before anything is laid out
        self.nodes = (len(game.nodes()) if self.is_tree else  # type: ignore[union-attr]
                      TreeModel.size_of_trace(self.replay.trace, MAX_DRAWN_NODES))
        from ..draw.model import MAX_DRAWN

        # a tree is drawn up to the drawings' size limit; a game's reached part up to 250
        draw = self.nodes <= (MAX_DRAWN if self.is_tree else MAX_DRAWN_NODES)
        self.prerender = (prerender_cost(self.length, self.nodes if draw else 0)
                          <= PRERENDER_BUDGET and self.length <= PRERENDER_LIMIT
                          if prerender is None else prerender)
        self.figsize = (0.0, 0.0)
        if draw:
            model = (TreeModel.of_tree(game) if self.is_tree
                     else TreeModel.of_trace(self.replay.trace, game, self.state))
            if compact:  # as low as the values its interior nodes show at any step allow
                width, height = compact_figsize(model, title=bool(title), dpi=dpi,
                                                legend=legend, chars=self._inner_chars())
            else:
                width, height = figsize_for(model, title=bool(title), dpi=dpi, legend=legend)
            self.figsize = (min(width, MAX_WIDTH_IN), height)
        self._render_args = dict(trace=self.replay.trace, game=game, state=self.state,
                                 title=title, labels=labels, dpi=dpi, marks=marks,
                                 legend=legend)
        self.draw = draw
        self._title, self._labels, self._dpi, self._marks = title, labels, dpi, marks
        self.extra = extra
        self.notes = list(notes)  # per step, HTML under the explanation (the compare widget)
        self.has_board = game is not None and not self.is_tree and hasattr(game, "board")
        # full PNGs of the steps drawn one at a time (live mode, and tree_png on demand)
        self.pngs: list[bytes | None] = [None] * n if draw else []
        self.encoder = FRAMES.get(self._key()) if draw and self.prerender else DeltaEncoder()
        self.boards: dict[Any, bytes] = {}
        self._built = 0
        if self.prerender:
            self._build_stacks()
        else:
            self._build_live()
            self._index_ahead()

    def _inner_chars(self) -> int:
        """The longest value an interior node shows at any step, without ``≤`` / ``≥``."""
        from ..draw.model import value_text

        longest = 1
        for step in range(self.frames):
            frame = self.replay.frame(step)
            for p in {*frame.values, *(lv.path for lv in frame.stack)}:
                longest = max(longest, len(value_text(p, frame).lstrip("≤≥")))
        return longest

    def _index_ahead(self) -> None:
        """Live mode, in a kernel: read the rest of the trace into the replay's index a
        chunk per event-loop turn, so that a later jump (last, the slider) finds it read."""
        try:
            asyncio.get_running_loop()
        except RuntimeError:
            return  # plain Python: the index grows when a frame asks
        replay = self.replay

        def work() -> bool:
            replay.index_more(INDEX_CHUNK)
            return replay.indexed < len(replay.trace)

        schedule(work)

    def _key(self) -> Hashable:
        game = self.game
        gkey = game.to_json() if isinstance(game, GameTree) else repr(game)
        return (gkey, repr(self.state), self.replay.trace.to_json(), self._title,
                str(self._labels), self._dpi, repr(sorted((self._marks or {}).items())),
                self.figsize, self._render_args["legend"])

    # ----- rendering ----------------------------------------------------------------------
    def _renderer(self) -> Any:
        if self.renderer is None:
            from ..draw.render import FrameRenderer

            args = self._render_args
            self.renderer = FrameRenderer(
                args["game"] if self.is_tree else args["trace"],
                args["trace"] if self.is_tree else None, game=args["game"],
                state=args["state"], labels=args["labels"], title=args["title"],
                dpi=args["dpi"], marks=args["marks"], figsize=self.figsize,
                legend=args["legend"])
        return self.renderer

    def tree_rgb(self, step: int) -> Any:
        """Frame ``step`` of the tree as an RGB array (a numpy array, rendered now)."""
        return self._renderer().rgb(frame=self.replay.frame(step))

    def tree_png(self, step: int) -> bytes:
        """Frame ``step`` of the tree as PNG bytes (rendered once, then cached)."""
        png = self.pngs[step]
        if png is None:
            from ..draw.render import png_bytes

            png = self.pngs[step] = png_bytes(self.tree_rgb(step), palette=True)
        return png

    def _board_at(self, step: int) -> tuple[Any, Any, Any, str]:
        """(path, state, move that led there, name) of the board shown at ``step``."""
        frame_path = self.replay.events[step - 1].path if step else ()
        root = self.game.initial_state() if self.state is None else self.state
        st = state_at(self.game, root, frame_path)
        move = None
        if frame_path:
            parent = state_at(self.game, root, frame_path[:-1])
            move = self.game.moves(parent)[frame_path[-1]]
        return frame_path, st, move, self.replay.name(frame_path)

    def board_png(self, step: int) -> bytes:
        """The board of the current node at ``step`` (the root before the first event)."""
        from ..draw.board import board_png

        frame_path, st, move, name = self._board_at(step)
        if frame_path not in self.boards:
            self.boards[frame_path] = board_png(self.game, st, move=move, title=name)
        return self.boards[frame_path]

    def tree_alt(self, step: int) -> str:
        """The text alternative of the tree picture at ``step``."""
        from ..draw.alt import frame_alt

        frame = self.replay.frame(min(step, self.frames - 1))
        return frame_alt(frame, self.replay.name, title=self._title, windows=self.bounds)

    def board_alt(self, step: int) -> str:
        """The text alternative of the board at ``step``."""
        from ..draw.alt import board_alt

        _, st, move, name = self._board_at(min(step, self.frames - 1))
        return board_alt(self.game, st, move=move, title=f"at {name}")

    def announcement(self, step: int) -> str:
        """What a screen reader hears at ``step``: the replay's explanation."""
        return self.replay.frame(min(step, self.frames - 1)).text

    def html(self, step: int) -> str:
        """The explanation and call stack of ``step``."""
        frame = self.replay.frame(min(step, self.frames - 1))
        extra = self.extra
        if step < len(self.notes):
            extra = self.notes[step] + extra
        if self.game is not None and not self.is_tree and not self.has_board:
            root = self.game.initial_state() if self.state is None else self.state
            path = frame.current or ()
            text = getattr(self.game, "render", repr)(state_at(self.game, root, path))
            extra += f"<pre style='margin:4px 0'>{html.escape(str(text))}</pre>"
        return frame_html(frame, extra, self.bounds)

    # ----- pre-rendered stacks ----------------------------------------------------------------
    def _pad(self, items: Sequence[w.Widget]) -> list[w.Widget]:
        items = list(items)
        return items + [items[-1]] * (self.length - len(items))

    def _build_stacks(self) -> None:
        n = self.frames
        # One Layout (and one HTML style) shared by all texts and boards: fewer widget
        # models for the browser to create, and for a saved notebook to hold.
        image_layout, text_layout, text_style = w.Layout(), w.Layout(), HTMLStyle()
        self.strip: FrameStrip | None = None
        if self.draw:
            encoder = self.encoder
            if not encoder.frames:
                encoder.add(self.tree_rgb(0))
            assert encoder.last is not None
            height, width = encoder.last.shape[:2]
            # each step's accessible name (the canvas's label and title) says what it shows
            titles = [self.tree_alt(i) for i in range(n)]
            self.strip = FrameStrip(width, height, titles=titles)
            self.strip.encoder = encoder
            self.strip.publish()
        self.texts = [w.HTML(self.html(i), layout=text_layout, style=text_style)
                      for i in range(n)]
        self.board_images: list[Picture] = []
        if self.has_board:
            by_path: dict[Any, Picture] = {}
            for i in range(n):
                path = self.replay.events[i - 1].path if i else ()
                if path not in by_path:
                    by_path[path] = Picture(value=b"", format="png", layout=image_layout,
                                            tooltip=self.board_alt(i))
                self.board_images.append(by_path[path])
            self.board_images[0].value = self.board_png(0)
        self.picture = self.strip
        self.board = w.Stack(self._pad(self.board_images), selected_index=0) \
            if self.has_board else None
        self.info = w.Stack(self._pad(self.texts), selected_index=0)
        self._todo = list(range(1, n))

    def fill_one(self) -> bool:
        """Render one more pre-rendered frame; False when there is nothing left to do."""
        if not self._todo:
            return False
        self._fill(self._todo.pop(0))
        return True

    def _fill(self, i: int, *, now: bool = False) -> None:
        """Make frame ``i`` ready: the tree's frames are encoded in order, each as its
        changes over the one before, so every frame up to ``i`` is. The browser is sent
        the frames when their count has doubled since the last sending, when the last is
        in, and (``now``) when a step it does not have yet is asked for: what is sent in
        all is about twice the frames."""
        strip = self.strip
        if strip is not None:
            encoder = strip.encoder
            while len(encoder.frames) <= i:
                encoder.add(self.tree_rgb(len(encoder.frames)))
            done, sent = len(encoder.frames), len(strip.frames)
            if done > sent and (now and i >= sent or done == self.frames or done >= 2 * sent):
                strip.publish()
        if self.has_board and not self.board_images[i].value:
            self.board_images[i].value = self.board_png(i)

    @property
    def ready(self) -> bool:
        """True when every frame is rendered (and the browser has them)."""
        if not self.prerender:
            return True
        frames = self.strip is None or len(self.strip.frames) == self.frames
        return frames and all(b.value for b in self.board_images)

    def link(self, controls: Controls) -> list[Any]:
        """Let the browser switch this panel's pictures and texts with ``controls``."""
        if not self.prerender:
            return []
        links = [w.jsdlink((controls, "value"), (self.strip, "index"))] if self.strip else []
        stacks = [s for s in (self.board, self.info) if s is not None]
        return links + [w.jsdlink((controls, "value"), (s, "selected_index")) for s in stacks]

    # ----- live mode ----------------------------------------------------------------------------
    def _build_live(self) -> None:
        self.picture = (Picture(value=self.tree_png(0), format="png", tooltip=self.tree_alt(0))
                        if self.draw else None)
        self.board = (Picture(value=self.board_png(0), format="png", tooltip=self.board_alt(0))
                      if self.has_board else None)
        self.info = w.HTML(self.html(0))
        self._todo = []

    def show(self, step: int) -> None:
        """Make sure ``step`` is on screen: render it now if it is not yet (the kernel)."""
        step = min(step, self.frames - 1)
        if self.prerender:
            self._fill(step, now=True)
            return
        if self.picture is not None:
            self.picture.value = self.tree_png(step)
            self.picture.tooltip = self.tree_alt(step)
        if self.board is not None:
            self.board.value = self.board_png(step)
            self.board.tooltip = self.board_alt(step)
        self.info.value = self.html(step)
        if self.board is not None:
            self._look_ahead(step)

    def _look_ahead(self, step: int) -> None:
        """Live mode, in a kernel: render the boards of the next and previous steps while
        the reader looks at this one, so that stepping finds them ready."""
        todo = [s for s in (step + 1, step - 1) if 0 <= s < self.frames]

        def work() -> bool:
            while todo:
                s = todo.pop(0)
                path = self.replay.trace.raw[s - 1][1] if s else ()
                if path not in self.boards:
                    self.board_png(s)
                    return bool(todo)
            return False

        try:
            asyncio.get_running_loop()
        except RuntimeError:
            return  # plain Python: nothing waits for a reader
        schedule(work)

    def widgets(self) -> list[w.Widget]:
        """The picture (tree and board side by side) and the text block."""
        pics = [x for x in (self.picture, self.board) if x is not None]
        return [w.HBox(pics, layout=w.Layout(flex_flow="row wrap", align_items="flex-start")),
                self.info]
