"""One trace's pictures, boards (for games) and texts, one per step, for the step and
compare widgets: every frame rendered ahead and switched in the browser (pre-rendered), or
the shown step rendered by the kernel (live mode, for long traces). See
:mod:`minimaxkit.widgets._panel` for the design.

>>> from minimaxkit import alphabeta
>>> from minimaxkit.examples import sheet_tree
>>> from minimaxkit.replay import Replay
>>> panel = TracePanel(Replay(alphabeta(sheet_tree())), PanelLook(title="the sheet"))
>>> panel.prerender, panel.frames, panel.announcement(10)[:22]
(True, 43, 'β-cut at F: v = 9 ≥ β ')
"""

from __future__ import annotations

import asyncio
import html
from collections.abc import Hashable, Sequence
from dataclasses import dataclass, field
from typing import Any

import ipywidgets as w
from ipywidgets.widgets.widget_string import HTMLStyle

from ..replay import Replay, state_at
from ..replay.narration import Narrator
from ..tree import GameTree
from ._panel import (
    FRAMES,
    INDEX_CHUNK,
    MAX_DRAWN_NODES,
    MAX_WIDTH_IN,
    PRERENDER_BUDGET,
    PRERENDER_LIMIT,
    Controls,
    Picture,
    frame_html,
    prerender_cost,
    schedule,
)
from .frames import DeltaEncoder, FrameStrip

__all__ = ["TracePanel", "PanelLook"]


@dataclass(frozen=True)
class PanelLook:
    """How a panel draws and words its trace: the picture's ``title``, ``labels``
    (``"auto"``...), ``dpi``, ``marks`` (path -> mark), ``compact`` (as low as its values
    allow: two pictures one above the other), ``legend``, ``bounds`` (False: no α and β in
    the words and the stack, for minimax before they are taught), ``extra`` HTML under
    every step's words, and ``notes``, HTML per step (the compare widget's)."""

    title: str | None = None
    labels: Any = "auto"
    dpi: float = 80
    marks: dict[Any, str] | None = None
    compact: bool = False
    legend: bool = True
    bounds: bool = True
    extra: str = ""
    notes: Sequence[str] = field(default_factory=tuple)


class TracePanel:
    """The tree pictures, boards (for games) and texts of one trace, one per step, as
    Stacks (pre-rendered) or single widgets updated by the kernel (live mode)."""

    def __init__(self, replay: Replay, look: PanelLook = PanelLook(), *,
                 prerender: bool | None = None, length: int | None = None) -> None:
        self.replay, self.look = replay, look
        self.bounds = look.bounds  # False: no α, β in the words and the stack (minimax)
        if not look.bounds:  # told what to leave out: the window each node is entered with
            replay.narrator = Narrator(replay, windows=False)
        self.game, self.state = replay.game, replay.root_state
        self.frames = n = len(replay)
        self.length = max(length or n, n)
        self.renderer: Any = None
        self.is_tree = isinstance(self.game, GameTree)
        self._plan_drawing(prerender)
        self._title, self._labels, self._dpi, self._marks = (look.title, look.labels, look.dpi,
                                                             look.marks)
        self.extra = look.extra
        self.notes = list(look.notes)  # per step, HTML under the explanation (compare)
        self.has_board = self.game is not None and not self.is_tree and hasattr(
            self.game, "board")
        # full PNGs of the steps drawn one at a time (live mode, and tree_png on demand)
        self.pngs: list[bytes | None] = [None] * n if self.draw else []
        self.encoder = FRAMES.get(self._key()) if self.draw and self.prerender \
            else DeltaEncoder()
        self.boards: dict[Any, bytes] = {}
        if self.prerender:
            self._build_stacks()
        else:
            self._build_live()
            self._index_ahead()

    def _plan_drawing(self, prerender: bool | None) -> None:
        """Whether the tree is drawn (decided from a count, before anything is laid out),
        whether every frame is rendered ahead (``prerender``: None decides by the cost),
        and the figure's size."""
        from ..draw.model import MAX_DRAWN, TreeModel
        from ..draw.tree import compact_figsize, figsize_for

        game, look = self.game, self.look
        self.nodes = (len(game.nodes()) if self.is_tree else
                      TreeModel.size_of_trace(self.replay.trace, MAX_DRAWN_NODES))
        # a tree is drawn up to the drawings' size limit; a game's reached part up to 250
        self.draw = draw = self.nodes <= (MAX_DRAWN if self.is_tree else MAX_DRAWN_NODES)
        self.prerender = (prerender_cost(self.length, self.nodes if draw else 0)
                          <= PRERENDER_BUDGET and self.length <= PRERENDER_LIMIT
                          if prerender is None else prerender)
        self.figsize = (0.0, 0.0)
        if draw:
            model = (TreeModel.of_tree(game) if self.is_tree
                     else TreeModel.of_trace(self.replay.trace, game, self.state))
            if look.compact:  # as low as the values its interior nodes show allow
                width, height = compact_figsize(model, title=bool(look.title), dpi=look.dpi,
                                                legend=look.legend, chars=self._inner_chars())
            else:
                width, height = figsize_for(model, title=bool(look.title), dpi=look.dpi,
                                            legend=look.legend)
            self.figsize = (min(width, MAX_WIDTH_IN), height)

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
                self.figsize, self.look.legend)

    # ----- rendering ----------------------------------------------------------------------
    def _renderer(self) -> Any:
        if self.renderer is None:
            from ..draw.render import FrameRenderer

            look, trace = self.look, self.replay.trace
            self.renderer = FrameRenderer(
                self.game if self.is_tree else trace, trace if self.is_tree else None,
                game=self.game, state=self.state, labels=look.labels, title=look.title,
                dpi=look.dpi, marks=look.marks, figsize=self.figsize, legend=look.legend)
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
