"""Alpha-beta traced by hand, in a widget: the tree drawn above a row per interior node,
where the reader types the window (α, β) the search enters the node with and the value it
returns (or ticks "never entered"), and marks as pruned the edges below it that a cut-off
skips. Check marks each wrong entry with ✗ and says why, without the right value; every
correct convention is accepted, as :class:`~minimaxkit.lecture.hand_trace.HandTrace`
accepts it (the widget is a front for its judge).

Built from ipywidgets pieces (``Text``, ``Checkbox``, ``Button``, ``HTML``), the quiz's
accessible toggle buttons for the edges and the kit's tree picture.

>>> from minimaxkit import GameTree
>>> quiz = HandTraceWidget(GameTree.from_nested([[3, 5], [2, 9]]))
>>> [row.name for row in quiz.rows]
['A', 'B', 'C']
>>> quiz.fill({"A": ("-inf", "inf", 3), "B": ("-inf", "inf", 3), "C": (3, "∞", 9)}, set())
>>> for line in quiz.check().wrong:
...     print(line)
C: the value it returns is wrong
the pruned edges: the edge to G is pruned but not marked
>>> [row.name for row in quiz.rows if "mmk-wrong" in row.value._dom_classes]
['C']
>>> quiz.fill({"C": (3, "∞", 2)}, {"G"}); quiz.check().ok
True
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import Any

import ipywidgets as w
from markupsafe import Markup, escape

from ..draw.pages import Raw
from ..tree import GameTree, Node
from ..widgets._panel import Picture, RerunHint, needs_kernel
from ..widgets.leaf_toggles import LeafToggles
from .hand_trace import ENTRY_FIELDS, HandTrace, Mistake, TraceVerdict

__all__ = ["HandTraceWidget", "TraceRow", "WRONG_COLORS"]

#: What a wrong edge button says after its ✗: pressed (marked, but the edge is searched,
#: or it lies below a pruned edge, where only the cut's own edge is marked: "marked pruned,
#: it is not" contradicted the reasons of the second kind, outside student pass 9), and not
#: pressed (pruned, but not marked); the two also keep their fills.
EDGE_WRONG_WORDS = ("marked, should not be", "pruned, not marked")

#: A wrong box: its border and fill (the ✗ in its label says it without colour too); the
#: text stays #111 on the fill (4.5:1 or more).
WRONG_COLORS = {"border": "#b34700", "fill": "#fff1e8", "text": "#111111",
                "wrong": "#b34700", "right": "#006d4f"}

#: (``mmk-prose``: ipywidgets gives an HTML widget's text a one-line control's height, 28 px, as
#: its line height, and prose of several lines read double-spaced: outside student pass 7)
CSS = """<style>
.mmk-hand-trace .mmk-sr {{ position: absolute; width: 1px; height: 1px; overflow: hidden;
  clip: rect(0 0 0 0); white-space: nowrap; }}
.mmk-hand-trace .mmk-wrong input {{ border: 2px solid {border}; background: {fill};
  color: {text}; }}
.mmk-hand-trace .mmk-wrong .widget-label {{ color: {wrong}; font-weight: bold; }}
.mmk-hand-trace .mmk-row-name {{ font-size: 13px; }}
.mmk-hand-trace .mmk-prose {{ line-height: 1.45; }}
</style>""".format(**WRONG_COLORS)

#: The words under the tree: what to fill in and how.
TASK = ("Trace alpha-beta by hand (children left to right, {rule}). For every interior "
        "node write the window (α, β) the search enters it with and the value it returns, "
        "or tick <i>never entered</i>; below each node press the edges a cut-off "
        "<b>prunes</b> (only where the cut happens, not the edges under them). Write ∞ as "
        "<code>inf</code> or <code>∞</code>. Check marks each wrong entry ✗ and says why.")

#: The fields of a mistake that are about a node's own entry (not an edge below it).
ENTRY_KEYS = frozenset({"alpha", "beta", "value", "entered", "entry"})
#: The fields of a mistake about one edge below a node: marked but not pruned ("edge"), or
#: pruned but not marked ("edges"); said in the row of the node above it and at its button.
EDGE_KEYS = frozenset({"edge", "edges"})

#: The widths that line the rows up: the name, each box with its label, the tick.
NAME_WIDTH, BOX_WIDTH, VALUE_WIDTH, TICK_WIDTH = "56px", "116px", "150px", "128px"
#: the row's mark (✓ or ✗) comes first, before the node's name: after the "never entered"
#: tick it read as that tick's mark (outside student pass 7); the reasons under a row start
#: where its α box does
MARK_WIDTH, REASONS_MARGIN = "20px", "76px"
#: The edge buttons: the rest of the row's line (at least room for two buttons)
EDGES_FLEX, EDGES_MIN_WIDTH = "1 1 0%", "140px"


class TraceRow:
    """One interior node's row: its three boxes, "never entered", a ✓ / ✗ for the entry
    after Check, the toggles of the edges to its children, and the reasons under it."""

    def __init__(self, node: Node) -> None:
        self.node, self.name = node, node.name
        self.children = [c.name for c in node.children]
        self.alpha = self._box("α", BOX_WIDTH, "36px")
        self.beta = self._box("β", BOX_WIDTH, "36px")
        self.value = self._box("returns", VALUE_WIDTH, "70px")
        self.skipped = w.Checkbox(description="never entered", indent=False,
                                  layout=w.Layout(width=TICK_WIDTH))
        self.skipped.observe(self._skip, names="value")
        self.edges = LeafToggles([(f"→{c}", f"the edge from {node.name} to {c} is pruned")
                                  for c in self.children],
                                 label=f"pruned edges below {node.name}",
                                 wrong_words=EDGE_WRONG_WORDS)
        # the edges take the rest of the line and wrap inside it: a button that grows with
        # its ✗ and words after Check moved the whole group to a line of its own, out of
        # line with the other rows' edges (outside student pass 6)
        self.edges.layout = w.Layout(flex=EDGES_FLEX, min_width=EDGES_MIN_WIDTH)
        self.mark = w.HTML("", layout=w.Layout(width=MARK_WIDTH))
        who = "▲" if node.is_max else "▼"
        label = w.HTML(f"<span class='mmk-row-name'><b>{who} {escape(node.name)}</b> "
                       f"<span class='mmk-sr'>({'MAX' if node.is_max else 'MIN'})</span></span>",
                       layout=w.Layout(width=NAME_WIDTH))
        self.reasons = w.HTML("")
        line = w.HBox([self.mark, label, self.alpha, self.beta, self.value, self.skipped,
                       self.edges], layout=w.Layout(align_items="center", flex_flow="row wrap"))
        self.box = w.VBox([line, self.reasons])
        self.box.add_class("mmk-trace-row")

    def _box(self, field: str, width: str, label_width: str) -> w.Text:
        return w.Text(placeholder="?", continuous_update=False, tooltip="",
                      description=self._label(field, wrong=False), description_allow_html=True,
                      layout=w.Layout(width=width), style={"description_width": label_width})

    def _label(self, field: str, *, wrong: bool) -> str:
        """A box's label: its field, after ✗ when it is wrong; a screen reader hears the
        node's name first ("B β")."""
        return f"<span class='mmk-sr'>{self.name} </span>{'✗ ' if wrong else ''}{field}"

    @property
    def boxes(self) -> tuple[w.Text, w.Text, w.Text]:
        """The α, β and returns boxes."""
        return self.alpha, self.beta, self.value

    def _skip(self, change: dict[str, Any]) -> None:
        for box in self.boxes:
            box.disabled = bool(change["new"])

    def entry(self) -> Any:
        """The row as the judge reads it: None when ticked "never entered", else the three
        texts (an empty box is ``...``: not filled in)."""
        if self.skipped.value:
            return None
        return tuple(b.value.strip() or ... for b in self.boxes)

    def fill(self, entry: Any) -> None:
        """Set the row from an entry (None: never entered; else α, β and the value)."""
        self.skipped.value = entry is None
        if entry is not None:
            for box, x in zip(self.boxes, entry, strict=True):
                box.value = "" if x is Ellipsis else str(x)

    def show(self, mistakes: list[Mistake] | None) -> None:
        """After Check: mark the wrong boxes ✗ and say why under the row (None: clear)."""
        wrong = {m.field for m in mistakes or []}
        entered = "entered" in wrong or "entry" in wrong
        for (key, field, _), box in zip(ENTRY_FIELDS, self.boxes, strict=True):
            bad = key in wrong or (entered and not self.skipped.value)
            (box.add_class if bad else box.remove_class)("mmk-wrong")
            box.description = self._label(field, wrong=bad)
        tick_wrong = entered and self.skipped.value
        (self.skipped.add_class if tick_wrong else self.skipped.remove_class)("mmk-wrong")
        self.skipped.description = ("✗ " if tick_wrong else "") + "never entered"
        self.edges.wrong = sorted(
            {self.children.index(m.node) for m in mistakes or []
             if m.field in EDGE_KEYS and m.node in self.children})
        if mistakes is None:
            self.mark.value = self.reasons.value = ""
            return
        # the mark before the row's name is the whole row's: ✓ only when nothing in it is wrong (a
        # green ✓ beside an edge button's ✗ read as a contradiction)
        title = _row_mark_title(mistakes)
        color, said = ((WRONG_COLORS["right"], "✓") if title == ROW_RIGHT else
                       (WRONG_COLORS["wrong"], "✗"))
        self.mark.value = f"<b style='color:{color}' title='{title}'>{said}</b>"
        self.reasons.value = str(_reasons_html(mistakes))


#: The title of a row's ✓: its entry and the edges below it are right.
ROW_RIGHT = "the entry and the pruned edges below it are right"


def _row_mark_title(mistakes: list[Mistake]) -> str:
    """What the row's mark says (its title): which part of the row is wrong, or
    :data:`ROW_RIGHT`."""
    entry = any(m.field in ENTRY_KEYS for m in mistakes)
    edges = any(m.field in EDGE_KEYS for m in mistakes)
    if entry and edges:
        return "the entry and a pruned edge below it are wrong"
    if entry:
        return "the entry is wrong"
    if edges:
        return "the entry is right, a pruned edge below it is wrong (its button says which)"
    return ROW_RIGHT


def _reasons_html(mistakes: list[Mistake]) -> Markup:
    if not mistakes:
        return Markup("")
    items = Markup("").join(Markup("<li><b>{}</b>: {}</li>").format(m.says, m.why)
                            for m in mistakes)
    return Markup("<ul class='mmk-reasons mmk-prose' style='margin:0 0 4px {};font-size:13px;"
                  "color:{}'>{}</ul>").format(REASONS_MARGIN, WRONG_COLORS["text"], items)


class HandTraceWidget(RerunHint, w.VBox):
    """A hand trace of alpha-beta on ``tree`` to fill in and check, entry by entry."""

    def __init__(self, tree: GameTree, *, dpi: float = 80) -> None:
        self.tree, self.dpi = tree, dpi
        self.judge = HandTrace(tree)
        self.verdict: TraceVerdict | None = None
        self.rows = [TraceRow(n) for n in tree.nodes() if n.children]
        self._row_of = {r.name: r for r in self.rows}
        self._parent_row = {c: r for r in self.rows for c in r.children}
        self.picture = Picture(format="png", layout=w.Layout(align_self="flex-start",
                                                             max_width="100%"))
        self.check_button = w.Button(description="Check", button_style="primary",
                                     tooltip="mark each wrong entry and say why")
        self.check_button.add_class("mmk-check")
        self.check_button.on_click(lambda _: self.check())
        self.summary = w.HTML("")
        intro = w.HTML(CSS + "<div class='mmk-prose' style='font-size:13px'>" + TASK.format(
            rule="cutting on equality, fail-soft, as the course does; every correct "
                 "convention is accepted") + "</div>")
        super().__init__([needs_kernel("trace"), intro, self.picture,
                          *(r.box for r in self.rows), self.check_button, self.summary])
        self.add_class("mmk-hand-trace")
        self._draw({})

    @classmethod
    def random(cls, seed: int) -> HandTraceWidget:
        """A small random tree to practise on, as :meth:`HandTrace.random` draws it."""
        return cls(HandTrace.random(seed).tree)

    def _draw(self, marks: Mapping[tuple[int, ...], str]) -> None:
        from ..draw.alt import marks_alt, tree_alt
        from ..draw.render import tree_png

        self.picture.value = tree_png(self.tree, dpi=self.dpi, marks=dict(marks))
        named = {n.path: n.name for n in self.tree.nodes()}
        self.picture.tooltip = (f"{tree_alt(self.tree)} Trace alpha-beta on it by hand. "
                                f"{marks_alt(marks, named.__getitem__)}").strip()

    # ----- the answer ---------------------------------------------------------------------
    def fill(self, answer: Mapping[str, Any], pruned: Iterable[str] | None = None) -> None:
        """Set rows from ``answer`` (name -> (α, β, value), or None: never entered) and,
        when given, the pruned edges from ``pruned`` (names of the nodes they lead to)."""
        for name, entry in answer.items():
            self._row_of[name].fill(entry)
        if pruned is not None:
            chosen = set(pruned)
            for row in self.rows:
                row.edges.selected = [i for i, c in enumerate(row.children) if c in chosen]

    @property
    def answer(self) -> tuple[dict[str, Any], set[str]]:
        """What is filled in, as :meth:`HandTrace.judge` takes it: (entries, pruned)."""
        entries = {r.name: r.entry() for r in self.rows}
        pruned = {r.children[i] for r in self.rows for i in r.edges.selected
                  if 0 <= i < len(r.children)}
        return entries, pruned

    # ----- the check ----------------------------------------------------------------------
    def check(self) -> TraceVerdict:
        """Judge what is filled in; mark each wrong entry ✗ in its row with why, say the
        mistakes that belong to no row in the summary, and mark the nodes concerned on the
        tree (◆). Returns the verdict."""
        verdict = self.verdict = self.judge.judge(*self.answer)
        by_row: dict[str, list[Mistake]] = {r.name: [] for r in self.rows}
        loose: list[Mistake] = []
        for m in verdict.mistakes:
            row = self._row_of.get(m.node or "") if m.field not in EDGE_KEYS else \
                self._parent_row.get(m.node or "")
            (by_row[row.name] if row is not None else loose).append(m)
        for row in self.rows:
            row.show(by_row[row.name])
        self.summary.value = str(self._summary(verdict, loose))
        # the nodes whose entry is wrong (an edge's mistake is said in words: a mark on
        # the node it leads to would read as that node's own)
        self._draw({self._row_of[m.node].node.path: "wrong" for m in verdict.mistakes
                    if m.field in ENTRY_KEYS and m.node in self._row_of})
        return verdict

    def _summary(self, verdict: TraceVerdict, loose: list[Mistake]) -> Raw:
        if verdict.ok:
            return Raw(Markup("<div class='mmk-verdict mmk-prose' role='status' "
                              "style='font-size:13px'>"
                              "<b style='color:{}'>✓ Every window, value and pruned edge is "
                              "right.</b> {}</div>").format(WRONG_COLORS["right"],
                                                            verdict.note))
        n = len(verdict.mistakes)
        head = (f"✗ {n} {'entry is' if n == 1 else 'entries are'} wrong"
                + (", each marked ✗ in its row with why" if n > len(loose) else "") + ".")
        return Raw(Markup(
            "<div class='mmk-verdict mmk-prose' role='status' style='font-size:13px'>"
            "<b style='color:{}'>{}</b>{}<p style='margin:4px 0;color:#555555'>Change them "
            "and press Check again.</p></div>").format(
                WRONG_COLORS["wrong"], head, _reasons_html(loose)))
