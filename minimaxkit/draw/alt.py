"""Text alternatives of the kit's pictures: what a tree, a search step or a board shows, in
one or two sentences, for screen readers (``alt``, ``aria-label``, SVG ``<title>``) and for
readers of nbgrader feedback.

A search step's text reuses the replay's explanation (:attr:`~minimaxkit.replay.Frame.text`)
and adds what the picture holds beyond it: the current node, the call stack with α and β
at its top, and the subtrees cut so far. No matplotlib here.

>>> from minimaxkit import alphabeta
>>> from minimaxkit.examples import sheet_tree
>>> from minimaxkit.replay import Replay
>>> rp = Replay(alphabeta(sheet_tree()))
>>> print(frame_alt(rp.frame(10), rp.name))  # doctest: +NORMALIZE_WHITESPACE
Search tree at step 10 of 42. β-cut at F: v = 9 ≥ β = 8, its last 2 children (R, S) are
not searched. B (MIN) already has 8 (from E), so it will never choose F, which is worth
at least 9. Current node F; call stack A, B, F with α = −∞, β = 8 at F. Cut so far: R, S.
>>> print(tree_alt(sheet_tree()))  # doctest: +ELLIPSIS +NORMALIZE_WHITESPACE
Game tree: root A (MAX), 40 nodes, 3 levels below the root,
27 leaves valued 8, 7, 3, ... and 15 more.
"""

from __future__ import annotations

import html
from collections.abc import Callable, Iterable, Mapping, Sequence
from typing import Any

from ..replay import Frame, fmt
from ..trace import Path

__all__ = ["frame_alt", "tree_alt", "model_alt", "marks_alt", "board_alt", "result_alt",
           "img_html", "set_figure_alt", "figure_alt", "chart_alt", "figure_html",
           "register_figure_html"]

#: At most this many names or values are listed before "…".
MAX_LISTED = 8


def _listed(items: Sequence[str], limit: int = MAX_LISTED) -> str:
    shown = ", ".join(items[:limit])
    return shown + (f" and {len(items) - limit} more" if len(items) > limit else "")


def frame_alt(frame: Frame, name: Callable[[Path], str], *, title: str | None = None,
              windows: bool = True) -> str:
    """What the picture of a search at ``frame`` shows: the step, the replay's explanation,
    the current node, the call stack with the window at its top (``windows=False``: the
    nodes being searched, for minimax before α and β are taught), and the cuts so far."""
    head = f"Search tree at step {frame.step} of {frame.steps}"
    head += f" ({title})." if title else "."
    parts = [head, frame.text.strip()]
    if frame.current is not None and frame.stack and not windows:
        names = ", ".join(lv.name for lv in frame.stack)
        parts.append(f"Current node {name(frame.current)}; being searched: {names}.")
    elif frame.current is not None and frame.stack:
        top = frame.stack[-1]
        names = ", ".join(lv.name for lv in frame.stack)
        parts.append(f"Current node {name(frame.current)}; call stack {names} with "
                     f"α = {fmt(top.alpha)}, β = {fmt(top.beta)} at {top.name}.")
    elif frame.current is not None:
        parts.append(f"Current node {name(frame.current)}.")
    if frame.pruned:
        cut = sorted(frame.pruned)
        parts.append(f"Cut so far: {_listed([name(p) for p in cut])}.")
    elif frame.step and frame.done:
        parts.append("Nothing was cut.")
    return " ".join(p for p in parts if p)


def model_alt(model: Any, *, title: str | None = None) -> str:
    """What the drawing of a :class:`~minimaxkit.draw.model.TreeModel` shows, without a
    search: its root, size, depth and leaf values."""
    root = model.paths[0]
    player = "MAX" if model.is_max.get(root, True) else "MIN"
    leaves = [p for p in model.paths if p in model.leaves]
    values = [fmt(model.values[p]) for p in leaves if p in model.values]
    text = (f"Game tree{': ' + title if title else ''}: root {model.names[root]} ({player}), "
            f"{len(model)} nodes, {model.height} levels below the root, {len(leaves)} leaves")
    if values:
        text += " valued " + _listed(values, 12)
    return text + "."


def tree_alt(  # noqa: PLR0913 - the options are keyword-only, as draw_tree's
        tree: Any, trace: Any = None, *, step: int | None = None, title: str | None = None,
        game: Any = None, state: Any = None) -> str:
    """The text alternative of ``draw_tree(tree, trace, step=...)``'s picture (same
    arguments): the tree alone, or the search at ``step`` (default: its end)."""
    from .model import resolve

    model, rp = resolve(tree, trace, game, state, caller="tree_alt")
    if rp is None:
        return model_alt(model, title=title)
    n = len(rp) - 1
    frame = rp.frame(n if step is None else step)
    return frame_alt(frame, lambda p: model.names.get(p) or rp.name(p), title=title)


def marks_alt(marks: Mapping[Path, str], name: Callable[[Path], str]) -> str:
    """The marks on a picture in words, kind by kind (empty without marks).

    >>> marks_alt({(0, 1): "extra", (2,): "diverge"}, lambda p: {(0, 1): "F", (2,): "D"}[p])
    'Marked: evaluated, should have been cut: F; the two traces part here: D.'
    """
    from .style import MARKS

    if not marks:
        return ""
    groups: dict[str, list[str]] = {}
    for p, kind in sorted(marks.items()):
        groups.setdefault(kind, []).append(name(p))
    said = [f"{MARKS[k].label if k in MARKS else k}: {_listed(v)}" for k, v in groups.items()]
    return "Marked: " + "; ".join(said) + "."


def result_alt(result: Any, *, max_nodes: int = 800) -> str:
    """The text alternative of a search result's picture: the search's counts and value, and
    (for traces of at most ``max_nodes`` events) its last step in words and its cuts."""
    s = result.stats
    head = (f"{result.algorithm} search: value {fmt(result.value)}, {s.nodes} nodes, "
            f"{s.leaves} leaves evaluated, {s.cutoffs} cut-offs.")
    trace = result.trace
    from ..tree import GameTree

    if trace is None or (not isinstance(result.game, GameTree) and len(trace) > max_nodes):
        namer = getattr(result.game, "move_name", None)
        if result.move is not None:
            head += f" Best move {namer(result.move) if namer else result.move}."
        if trace is not None:
            head += " The picture shows the top levels of the tree."
        return head
    return head + " " + tree_alt(result)


def board_alt(game: Any, state: Any, *, move: Any = None, title: str | None = None) -> str:
    """The text alternative of ``draw_board(game, state)``: the rows, top first, and the
    move ringed."""
    board = getattr(game, "board", None)
    kind = type(game).__name__
    if board is None:
        render = getattr(game, "render", None)
        text = render(state) if render is not None else repr(state)
        return f"{kind} position{': ' + title if title else ''}: {' / '.join(str(text).split())}."
    rows = [" ".join(row) for row in board(state)]
    numbered = (f", columns numbered 0 to {len(rows[0].split()) - 1} from the left"
                if hasattr(game, "columns") else "")
    out = (f"{kind} board{' ' + title if title else ''}, rows from the top{numbered} "
           f"(X, O, . empty): {' / '.join(rows)}.")
    if move is not None:
        namer = getattr(game, "move_name", None)
        out += f" Last move {namer(move) if namer else move} is ringed."
    from .board_lines import WINNING_RUN, board_kind, lines_in_a_row

    cells = board(state)
    length = WINNING_RUN[board_kind(game, cells)]
    for piece, _, _ in lines_in_a_row(cells, length):
        out += f" {'Three' if length == 3 else 'Four'} in a row for {piece} is marked by a line."
    return out


def img_html(png: bytes, alt: str, *, width: float | None = None) -> str:
    """``<img>`` HTML of PNG bytes with ``alt`` text (a data URI, so it needs no file)."""
    import base64

    size = f' width="{int(width)}"' if width else ""
    data = base64.b64encode(png).decode("ascii")
    return (f'<img class="mmk-picture" alt="{html.escape(alt, quote=True)}"{size} '
            f'src="data:image/png;base64,{data}"/>')


# ----- matplotlib figures ---------------------------------------------------------------------
def set_figure_alt(fig: Any, text: str) -> None:
    """Add ``text`` to what ``fig`` shows (a figure may hold several kit drawings)."""
    texts = list(getattr(fig, "mmk_alt", ()))
    texts.append(text)
    fig.mmk_alt = texts


def figure_alt(fig: Any) -> str | None:
    """The text alternative of a figure the kit drew on, or None."""
    texts: Iterable[str] = getattr(fig, "mmk_alt", ())
    joined = " ".join(texts)
    return joined or None


def chart_alt(fig: Any) -> str | None:
    """A text alternative of a figure the kit did not draw (a lecture's chart), from what it
    labels: each panel's title, axes (and log scales) and legend. None if it labels
    nothing."""
    panels = []
    for ax in fig.get_axes():
        said = []
        title = ax.get_title()
        if title:
            said.append(title)
        for axis, label, scale in (("x", ax.get_xlabel(), ax.get_xscale()),
                                   ("y", ax.get_ylabel(), ax.get_yscale())):
            if label:
                said.append(f"{axis}: {label}" + (" (log scale)" if scale == "log" else ""))
        legend = ax.get_legend()
        names = [t.get_text() for t in legend.get_texts()] if legend is not None else []
        if names:
            said.append("showing " + _listed(names))
        if said:
            panels.append("; ".join(said))
    if not panels:
        return None
    head = "Chart" if len(panels) == 1 else f"{len(panels)} charts"
    return f"{head}: " + " | ".join(panels) + "."


def figure_html(fig: Any) -> str | None:
    """The notebook's HTML of a figure: its PNG as ``<img alt=...>`` (JupyterLab,
    Notebook 7 and nbconvert show this rather than the bare PNG), with the kit's text
    alternative for its drawings, or :func:`chart_alt` for other charts. None for a figure
    that says nothing about itself, which IPython then shows as before."""
    alt = figure_alt(fig) or chart_alt(fig)
    if alt is None:
        return None
    from IPython.core.pylabtools import print_figure

    png = print_figure(fig, "png", bbox_inches="tight")
    if not png:
        return None
    return img_html(png, alt)


def register_figure_html() -> bool:
    """Let IPython (if running) show the kit's matplotlib figures with their text
    alternative (:func:`figure_html`); True if registered. Safe to call again."""
    try:
        from IPython import get_ipython
    except ImportError:
        return False
    shell = get_ipython()
    if shell is None:
        return False
    # The mime-bundle formatter, not the text/html one: the inline backend clears every
    # mime type's Figure printer when it (re)configures itself, on the first figure of a
    # session; it leaves this one alone.
    formatter = shell.display_formatter.mimebundle_formatter
    formatter.for_type_by_name("matplotlib.figure", "Figure", _figure_bundle)
    return True


def _figure_bundle(fig: Any, include: Any = None, exclude: Any = None) -> dict[str, str]:
    page = figure_html(fig)
    return {} if page is None else {"text/html": page}
