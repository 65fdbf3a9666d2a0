"""Pictures as bytes: PNG and SVG of trees and results, files for slides and exams, and the
fast frame renderer behind the step widget.

A full matplotlib redraw of the example sheet's tree with its ~80 labels costs tens of milliseconds,
almost all of it text. :class:`FrameRenderer` draws the tree once, rasterises the labels
that never change (names, leaf values, legend, title) into one RGBA layer, and then per
frame only recolours the collections in place, draws the few labels that change (backed-up
values, α-β windows) and blends the label layer back in with numpy (fading the labels of
pruned nodes).

>>> from minimaxkit import alphabeta
>>> from minimaxkit.examples import sheet_tree
>>> r = FrameRenderer(alphabeta(sheet_tree()), dpi=60)
>>> len(r), r.png(10)[:8] == b"\\x89PNG\\r\\n\\x1a\\n"
(43, True)
>>> tree_svg(sheet_tree()).lstrip().startswith("<?xml")
True
"""

from __future__ import annotations

import io
from collections.abc import Mapping
from collections.abc import Set as AbstractSet
from pathlib import Path as FilePath
from typing import Any

import numpy as np
from matplotlib.backends.backend_agg import FigureCanvasAgg
from PIL import Image

from ..replay import Frame, Replay, fmt
from ..trace import Path
from ..tree import GameTree
from .alt import img_html, result_alt, tree_alt
from .model import TooLargeToDraw, TreeModel
from .tree import tree_figure

__all__ = ["FrameRenderer", "tree_png", "tree_svg", "result_png", "result_svg", "save_tree",
           "png_bytes", "result_title", "tree_bundle", "result_bundle"]

#: Labels of pruned nodes are blended at this opacity: they read as grey, and still have a
#: contrast of 4.5:1 (tests/test_contrast.py).
PRUNED_OPACITY = 0.82
#: Game traces with more nodes than this are drawn two levels deep in result pictures.
MAX_RESULT_NODES = 400


def png_bytes(rgb: np.ndarray, *, palette: bool = False) -> bytes:
    """An RGB array as PNG bytes. ``palette=True`` reduces it to 64 colours first (a third
    of the bytes, no slower; the step widget's frames are sent and saved this way)."""
    buf = io.BytesIO()
    image = Image.fromarray(rgb)
    if palette:
        image = image.quantize(colors=64, method=Image.Quantize.FASTOCTREE)
        image.save(buf, format="png", compress_level=6)
    else:
        image.save(buf, format="png", compress_level=1)
    return buf.getvalue()


class FrameRenderer:
    """Renders the frames of one search (or a plain tree) fast; see the module docstring.

    ``source`` and the keywords are as for :func:`~minimaxkit.draw.draw_tree`.
    """

    def __init__(  # noqa: PLR0913 - the options are keyword-only, as draw_tree's
            self, source: Any, trace: Any = None, *, game: Any = None, state: Any = None,
            labels: Any = "auto", title: str | None = None, dpi: float = 80,
            legend: bool = True, marks: Mapping[Path, str] | None = None,
            figsize: tuple[float, float] | None = None) -> None:
        self.fig, art = tree_figure(source, trace, step=0 if _has_trace(source, trace) else None,
                                    labels=labels, title=title, game=game, state=state,
                                    legend=legend, dpi=dpi, figsize=figsize, marks=marks,
                                    graph=False, every_step=True)
        self.view = art["view"]
        self.replay: Replay | None = art["replay"]
        self.marks = dict(marks or {})
        canvas = self.fig.canvas
        assert isinstance(canvas, FigureCanvasAgg)
        self.canvas = canvas
        self._static = [*self.view.names.values(), *self.view.statics.values(),
                        *(t for p, t in self.view.values.items() if p in self.view.model.leaves)]
        self._others = [a for a in (art["legend"], art["title"]) if a is not None]
        self._flatten()

    def __len__(self) -> int:
        """The number of frames (events + 1; 1 for a plain tree)."""
        return len(self.replay) if self.replay is not None else 1

    @property
    def size(self) -> tuple[int, int]:
        """(width, height) of the frames in pixels."""
        w, h = self.canvas.get_width_height()
        return int(w), int(h)

    def _flatten(self) -> None:
        view, fig = self.view, self.fig
        dynamic = [*view.nodes.values(), view.edges, view.current, *view.marks.values(),
                   *(t for p, t in view.values.items() if p not in view.model.leaves),
                   *view.windows]
        shown = {id(a): a.get_visible() for a in dynamic}
        for a in dynamic:
            a.set_visible(False)
        face = fig.get_facecolor()
        fig.patch.set_alpha(0.0)
        self.canvas.draw()
        layer = np.array(self.canvas.buffer_rgba())
        renderer = self.canvas.get_renderer()
        height = layer.shape[0]
        owner = np.full(layer.shape[:2], -1, dtype=np.int32)
        self._owners: list[Path] = []
        for p, texts in self._texts_by_node().items():
            k = len(self._owners)
            self._owners.append(p)
            for t in texts:
                box = t.get_bbox_patch()  # a static value's dashed box fades with it
                bb = (box.get_window_extent(renderer) if box is not None
                      else t.get_window_extent(renderer))
                x0, x1 = max(int(bb.x0) - 1, 0), int(bb.x1) + 2
                y0, y1 = max(height - int(bb.y1) - 2, 0), height - int(bb.y0) + 1
                owner[y0:y1, x0:x1] = k
        fig.patch.set_facecolor(face)
        fig.patch.set_alpha(None)
        for a in dynamic:
            a.set_visible(shown[id(a)])
        for a in [*self._static, *self._others]:
            a.set_visible(False)
        alpha = layer[..., 3].reshape(-1)
        self._idx = np.flatnonzero(alpha)
        self._alpha = (alpha[self._idx].astype(np.float32) / 255.0)[:, None]
        self._rgb = layer.reshape(-1, 4)[self._idx, :3].astype(np.float32)
        self._owner = owner.reshape(-1)[self._idx]

    def _texts_by_node(self) -> dict[Path, list[Any]]:
        out: dict[Path, list[Any]] = {}
        for p, t in [*self.view.names.items(), *self.view.statics.items()]:
            out.setdefault(p, []).append(t)
        for p, t in self.view.values.items():
            if p in self.view.model.leaves:
                out.setdefault(p, []).append(t)
        return out

    def frame(self, step: int) -> Frame | None:
        """The replayed frame of ``step`` (None for a plain tree)."""
        return self.replay.frame(step) if self.replay is not None else None

    def rgb(self, step: int = 0, *, frame: Frame | None = None,
            marks: Mapping[Path, str] | None = None) -> np.ndarray:
        """Frame ``step`` as an (height, width, 3) uint8 array."""
        if frame is None and self.replay is not None:
            frame = self.replay.frame(step)
        self.view.show(frame, self.marks if marks is None else marks)
        self.canvas.draw()
        buf = np.asarray(self.canvas.buffer_rgba())
        out = buf[..., :3].copy()
        flat = out.reshape(-1, 3)
        status = self.view.status
        faded = np.array([status.get(p) == "pruned" for p in self._owners] + [False])
        scale = self._alpha * np.where(faded[self._owner], PRUNED_OPACITY, 1.0)[:, None]
        base = flat[self._idx].astype(np.float32)
        flat[self._idx] = (base * (1.0 - scale) + self._rgb * scale + 0.5).astype(np.uint8)
        return out

    def png(self, step: int = 0, *, frame: Frame | None = None,
            marks: Mapping[Path, str] | None = None) -> bytes:
        """Frame ``step`` as PNG bytes."""
        return png_bytes(self.rgb(step, frame=frame, marks=marks))


def _has_trace(source: Any, trace: Any) -> bool:
    if trace is not None:
        return True
    return not isinstance(source, GameTree) and getattr(source, "trace", source) is not None


# ----- whole pictures ------------------------------------------------------------------------
def _figure_bytes(fig: Any, fmt_: str, dpi: float | None = None) -> bytes:
    buf = io.BytesIO()
    fig.savefig(buf, format=fmt_, dpi=dpi, bbox_inches="tight", pad_inches=0.05)
    return buf.getvalue()


def result_title(result: Any) -> str:
    """A one-line summary of a search result for a picture's title."""
    s = result.stats
    return (f"{result.algorithm}: value {fmt(result.value)}, {s.nodes:,} nodes "
            f"({s.leaves:,} evaluated, {s.cutoffs:,} cut-offs)")


def _result_figure(result: Any, dpi: float, **kw: Any) -> Any:
    kw.setdefault("title", result_title(result))
    if result.trace is None:
        if isinstance(result.game, GameTree):
            return tree_figure(result.game, dpi=dpi, **kw)[0]
        raise ValueError("this result has no trace (searched with trace=False): nothing to "
                         "draw")
    if not isinstance(result.game, GameTree) and len(result.trace) > 2 * MAX_RESULT_NODES:
        model = TreeModel.of_trace(result.trace, result.game, result.state, max_depth=2)
        top = model.paths
        if len(top) > MAX_RESULT_NODES:
            top = [p for p in model.paths if len(p) <= 1]
        keep = set(top)
        small = TreeModel(top, {p: [c for c in model.children.get(p, []) if c in keep]
                                for p in top}, {p: model.names[p] for p in top},
                          {p: model.is_max[p] for p in top}, model.leaves & keep,
                          {p: v for p, v in model.values.items() if p in keep})
        from matplotlib.figure import Figure

        from .tree import DrawingOptions, _draw, _layout_figure, figsize_for

        fig = Figure(figsize=figsize_for(small, title=True, dpi=dpi), dpi=dpi)
        FigureCanvasAgg(fig)
        ax = _layout_figure(fig, small, legend=True, title=True)
        top_levels = DrawingOptions(labels=kw.get("labels", "auto"),
                                    title=kw["title"] + " (top levels)", legend=True)
        art = _draw(ax, small, Replay(result), None, top_levels)
        crowded = hide_crowded_values(art["view"])
        if crowded and art["title"] is not None:
            art["title"].set_text(f"{kw['title']} (top levels; values down to level "
                                  f"{min(crowded) - 1}: too many below to label)")
        return fig
    fig, art = tree_figure(result, dpi=dpi, **kw)
    frame = art["frame"]
    best = set(frame.pv) if frame is not None else set()
    crowded = hide_crowded_values(art["view"], keep=best)
    if crowded and art["title"] is not None:
        art["title"].set_text(f"{kw['title']}; values below level {min(crowded) - 1} too "
                              f"crowded to read: shown on the best line only")
    return fig


def hide_crowded_values(view: Any, keep: AbstractSet[Path] = frozenset()) -> set[int]:
    """Hide the values of every level where a node's value is wider than the room between
    it and its neighbours (they would run into each other), except those of the nodes in
    ``keep`` (the best line); return those levels.

    >>> from minimaxkit import alphabeta
    >>> from minimaxkit.games import ConnectFour
    >>> ax = _result_figure(alphabeta(ConnectFour(), depth=4), 80).axes[0]
    >>> ax.get_title().endswith("(top levels; values down to level 1: too many below to label)")
    True
    >>> [t.get_text() for t in ax.texts if t.get_visible()][:6]   # the root and each column
    ['0', 'root', '-0.231', '0', '-0.167', '1']
    """
    from .style import text_width

    crowded = set()
    for p, t in view.values.items():
        depth = len(p)
        room = view.gap.get(depth, 1e9) * view.xpt
        if depth and t.get_text() and text_width(t.get_text(), t.get_fontsize()) + 2 > room:
            crowded.add(depth)
    for p, t in [*view.values.items(), *view.statics.items()]:
        if len(p) in crowded and p not in keep:
            t.set_visible(False)
    return crowded


def tree_png(tree: Any, *, dpi: float = 100, **kw: Any) -> bytes:
    """A tree (or anything :func:`~minimaxkit.draw.draw_tree` takes) as PNG bytes."""
    return _figure_bytes(tree_figure(tree, dpi=dpi, **kw)[0], "png")


def tree_svg(tree: Any, **kw: Any) -> str:
    """A tree (or anything :func:`~minimaxkit.draw.draw_tree` takes) as SVG text."""
    return _figure_bytes(tree_figure(tree, **kw)[0], "svg").decode()


def result_png(result: Any, *, dpi: float = 100, **kw: Any) -> bytes:
    """A search result as PNG bytes: its tree after the search (pruned subtrees grey, the
    principal variation in blue) titled with the value and the counts. A large game search
    is drawn two levels deep."""
    return _figure_bytes(_result_figure(result, dpi, **kw), "png")


def result_svg(result: Any, **kw: Any) -> str:
    """A search result as SVG text (see :func:`result_png`)."""
    return _figure_bytes(_result_figure(result, 100, **kw), "svg").decode()


def _bundle(png: bytes, alt: str) -> tuple[dict[str, Any], dict[str, Any]]:
    return ({"image/png": png, "text/html": img_html(png, alt)},
            {"image/png": {"alt": alt}})


def tree_bundle(tree: Any) -> tuple[dict[str, Any], dict[str, Any]]:
    """A notebook's display bundle of a tree: PNG (with ``alt`` in its metadata) and HTML
    ``<img alt=...>``, drawn once.

    >>> from minimaxkit.examples import sheet_tree
    >>> data, meta = tree_bundle(sheet_tree())
    >>> meta["image/png"]["alt"][:38], 'alt="Game tree: root A' in data["text/html"]
    ('Game tree: root A (MAX), 40 nodes, 3 l', True)
    """
    try:
        return _bundle(tree_png(tree), tree_alt(tree))
    except TooLargeToDraw as err:  # a cell ending in a huge tree shows its summary
        return {"text/plain": f"{tree!r}\n(not drawn: {err})"}, {}


def result_bundle(result: Any) -> tuple[dict[str, Any], dict[str, Any]]:
    """A notebook's display bundle of a search result (see :func:`tree_bundle`)."""
    if result.trace is None and not isinstance(result.game, GameTree):
        return {}, {}  # nothing to draw: IPython shows the repr
    try:
        return _bundle(result_png(result),
                       result_alt(result, max_nodes=2 * MAX_RESULT_NODES))
    except TooLargeToDraw as err:
        return {"text/plain": f"{result!r}\n(not drawn: {err})"}, {}


def save_tree(path: str | FilePath, tree: Any, trace: Any = None, *, dpi: float = 200,
              **kw: Any) -> FilePath:
    """Save a drawing (``draw_tree``'s arguments) to ``path``; the format follows the
    suffix: ``.png``, ``.svg`` or ``.pdf``. Returns the path.

    >>> import tempfile, pathlib
    >>> from minimaxkit import alphabeta
    >>> from minimaxkit.examples import sheet_tree
    >>> out = pathlib.Path(tempfile.mkdtemp()) / "step10.svg"
    >>> save_tree(out, alphabeta(sheet_tree()), step=10, title="β-cut at F").stat().st_size > 0
    True
    """
    path = FilePath(path)
    suffix = path.suffix.lower().lstrip(".")
    if suffix not in ("png", "svg", "pdf"):
        raise ValueError(f"save_tree writes .png, .svg or .pdf files, got {path.name!r}")
    if trace is None and hasattr(tree, "stats") and "title" not in kw:
        kw["title"] = result_title(tree)
    fig, _ = tree_figure(tree, trace, dpi=dpi, **kw)
    fig.savefig(path, format=suffix, dpi=dpi)
    return path
