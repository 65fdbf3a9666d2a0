"""Step through a search: the tree at each event, the event in words, the call stack with α
and β; and two searches of one tree side by side.

>>> from minimaxkit import alphabeta
>>> from minimaxkit.examples import sheet_tree
>>> sw = StepWidget(alphabeta(sheet_tree()))
>>> sw.value = 10
>>> sw.explanation.split(",")[0]
'β-cut at F: v = 9 ≥ β = 8'
>>> [lv.name for lv in sw.frame.stack]
['A', 'B', 'F']
>>> sw.controls.next(); sw.value
11
"""

from __future__ import annotations

import html
import re
from typing import Any

import ipywidgets as w
import traitlets

from ..replay import Frame, Replay, first_divergence, fmt
from ._panel import Controls, RerunHint, needs_kernel, schedule
from .trace_panel import PanelLook, TracePanel

__all__ = ["StepWidget", "CompareWidget", "describe", "window_differences"]


def describe(result: Any) -> str:
    """A short title for a search result: the algorithm and the options that matter.

    >>> from minimaxkit import alphabeta
    >>> from minimaxkit.examples import sheet_tree
    >>> describe(alphabeta(sheet_tree(), fail="one-sided", order="perfect"))
    'alphabeta (one-sided fail-hard, order=perfect): value 5, 11 leaves evaluated'
    """
    algorithm = getattr(result, "algorithm", None)
    if algorithm is None:
        return "search trace"
    opts = getattr(result, "options", {}) or {}
    notes = []
    if opts.get("prune_on_equal") is False:
        notes.append("strict cuts")
    if opts.get("fail") == "hard":
        notes.append("fail-hard")
    elif opts.get("fail") == "one-sided":
        notes.append("one-sided fail-hard")
    if opts.get("order"):
        notes.append(f"order={opts['order']}")
    if opts.get("depth") is not None:
        notes.append(f"depth={opts['depth']}")
    if opts.get("tt"):
        notes.append("table")
    head = algorithm + (f" ({', '.join(notes)})" if notes else "")
    return f"{head}: value {fmt(result.value)}, {result.stats.leaves} leaves evaluated"


def window_differences(a: Frame, b: Frame) -> list[tuple[str, str]]:
    """Where two frames of searches that have done the same so far hold different windows:
    for each node on both call stacks whose α or β differs, how each side reads, as
    ``("α = 9 at F", "α = −∞")``: the explanations are the same words there, the searches
    are not (fail-hard raises α before a cut, fail-soft does not).

    >>> from minimaxkit import alphabeta
    >>> from minimaxkit.examples import sheet_tree
    >>> t = sheet_tree()
    >>> hard, soft = Replay(alphabeta(t, fail="one-sided")), Replay(alphabeta(t))
    >>> window_differences(hard.frame(10), soft.frame(10))
    [('α = 9 at F', 'α = −∞')]
    >>> window_differences(hard.frame(8), soft.frame(8))
    []
    """
    theirs = {lv.path: lv for lv in b.stack}
    out = []
    for lv in a.stack:
        other = theirs.get(lv.path)
        if other is None:
            continue
        for sign, mine, there in (("α", lv.alpha, other.alpha), ("β", lv.beta, other.beta)):
            if mine != there:
                out.append((f"{sign} = {fmt(mine)} at {lv.name}", f"{sign} = {fmt(there)}"))
    return out


def _difference_notes(ra: Replay, rb: Replay, labels: tuple[str, str], steps: int,
                      until: int | None) -> tuple[list[str], list[str]]:
    """Per step, for each side, how its windows differ from the other side's, as HTML
    under the explanation; empty where they agree, and after the step where the traces
    part (their explanations differ from there on)."""
    notes: tuple[list[str], list[str]] = ([], [])
    for step in range(steps):
        fa = ra.frame(min(step, len(ra) - 1))
        fb = rb.frame(min(step, len(rb) - 1))
        found = window_differences(fa, fb) if until is None or step <= until else []
        for side in (0, 1):
            if not found:
                notes[side].append(_NO_DIFFERENCE)
                continue
            pairs = found if side == 0 else window_differences(fb, fa)
            said = "; ".join(f"{here} (there {there})" for here, there in pairs)
            notes[side].append(
                f"<div class='mmk-differs' style='margin:2px 0'><b>Unlike "
                f"{html.escape(labels[1 - side])} here:</b> {html.escape(said)}.</div>")
    if not any(n != _NO_DIFFERENCE for n in notes[0]):
        return [], []  # nothing to say at any step: no room kept for it
    return notes


#: The empty note of a step where nothing differs, as tall as a note: the text below does
#: not jump up and down while stepping.
_NO_DIFFERENCE = "<div class='mmk-differs' style='margin:2px 0;min-height:1.4em'></div>"


def _mark_ready(widget: w.DOMWidget, standalone: bool) -> None:
    """Mark ``widget`` ready (every frame rendered); ``standalone`` if its frames are all in
    the page, so that it steps without a kernel (a saved page does not show the front end's
    lost-kernel marks on it)."""
    widget.add_class("mmk-ready")
    if standalone:
        widget.add_class("mmk-standalone")


class StepWidget(RerunHint, w.VBox):
    """Step through the trace of ``result`` (a search result), or of ``trace`` on ``tree``
    (a GameTree or a game; ``state`` is the root state of a game search).

    ``bounds=False`` leaves α and β out of the words and the stack panel (for minimax before
    alpha-beta is taught). Pictures are rendered once and switched in the browser; ``value``
    is the step shown
    (0 = before the first event). Traces of more than ``PRERENDER_LIMIT`` frames, or with
    ``prerender=False``, render the shown step in the kernel instead.
    """

    value = traitlets.Int(0)

    def __init__(  # noqa: PLR0913 - keyword-only, as lectures call it; inward as a PanelLook
            self, result: Any = None, *, trace: Any = None, tree: Any = None,
            state: Any = None, title: str | None = None, labels: Any = "auto",
            dpi: float = 80, interval: int = 800, prerender: bool | None = None,
            marks: dict[Any, str] | None = None, bounds: bool = True) -> None:
        if result is None and trace is None:
            raise TypeError("StepWidget needs a search result, or trace=... and tree=...")
        if result is not None and getattr(result, "trace", 1) is None:
            raise ValueError("this result has no trace: search with trace=True")
        if title is None:
            title = describe(result) if result is not None else None
        replay = Replay(trace if trace is not None else result, tree=tree, state=state)
        self.panel = TracePanel(replay, PanelLook(title=title, labels=labels, dpi=dpi,
                                                  marks=marks, bounds=bounds),
                                prerender=prerender)
        texts = ([self.panel.announcement(i) for i in range(self.panel.frames)]
                 if self.panel.prerender else [])
        self.controls = Controls(self.panel.frames - 1, interval=interval, texts=texts)
        self.links = self.panel.link(self.controls)
        traitlets.link((self, "value"), (self.controls, "value"))
        if not self.panel.prerender:
            self.controls.status = self.panel.announcement(0)
        picture, info = self.panel.widgets()
        # live mode draws each step in the kernel: without it, the note says to run the cell
        live = [] if self.panel.prerender else [needs_kernel("step")]
        super().__init__([*live, picture, self.controls, info])
        self.add_class("mmk-step")
        if not schedule(self._work):
            self._ready()

    def _work(self) -> bool:
        more = self.panel.fill_one()
        if not more:
            self._ready()
        return more

    def _ready(self) -> None:
        _mark_ready(self, self.panel.prerender)

    @traitlets.validate("value")
    def _clamp(self, proposal: dict[str, Any]) -> int:
        return int(min(max(proposal["value"], 0), self.panel.frames - 1))

    @traitlets.observe("value")
    def _show(self, change: dict[str, Any]) -> None:
        self.panel.show(change["new"])
        if not self.panel.prerender:
            self.controls.status = self.panel.announcement(change["new"])

    @property
    def frame(self) -> Frame:
        """The replayed frame of the step shown."""
        return self.panel.replay.frame(self.value)

    @property
    def explanation(self) -> str:
        """The explanation of the step shown, in words."""
        return self.frame.text

    @property
    def steps(self) -> int:
        """The number of events (the last step)."""
        return self.panel.frames - 1

    @property
    def ready(self) -> bool:
        """True once every frame is rendered."""
        return self.panel.ready

    @classmethod
    def compare(cls, a: Any, b: Any, **options: Any) -> CompareWidget:
        """Two searches of one tree side by side: see :class:`CompareWidget`."""
        return CompareWidget(a, b, **options)


def _event_at(trace: Any, i: int) -> tuple[Any, ...] | None:
    """The raw event ``i`` of ``trace`` (None past its end)."""
    return trace.raw[i] if i < len(trace.raw) else None


#: What each kind of event does to its node, in the words of :func:`_parting_words`.
_DOES = {"enter": "enters", "leaf": "evaluates", "cutoff": "cuts off at",
         "tt": "finds in the table"}


def _parting_words(part: tuple[int, Any] | None, parted: list[Any], panels: list[Any],
                   labels: tuple[str, str]) -> str:
    """Where two traces part, in words: the step, and what each search does there (each
    picture marks its own node with ★)."""
    if part is None:
        return "The two traces are the same."
    said = []
    for ev, panel, label in zip(parted, panels, labels, strict=True):
        if ev is None:
            said.append(f"{label} has ended")
        elif ev[0] == "exit":  # the same node may return different values: say them
            said.append(f"{label} returns {fmt(ev[2])} from {panel.replay.name(ev[1])}")
        else:
            said.append(f"{label} {_DOES.get(ev[0], ev[0])} {panel.replay.name(ev[1])}")
    return f"The traces part at step {part[0] + 1}: {' while '.join(said)} (marked ★)."


class CompareWidget(RerunHint, w.VBox):
    """Two traces of the same tree side by side, stepped together (event ``k`` of each):
    natural vs ordered, strict vs on-equality cuts, a student's vs the reference. At the
    step where they first part, each picture marks (``diverge``, ★) the node its own search
    goes to, and the note under them says both.

    >>> from minimaxkit import alphabeta
    >>> from minimaxkit.examples import sheet_tree
    >>> cw = CompareWidget(alphabeta(sheet_tree()), alphabeta(sheet_tree(), order="perfect"),
    ...                    labels=("natural", "perfect order"))
    >>> cw.divergence, cw.steps
    (1, 42)
    >>> import re
    >>> re.sub("<[^>]+>", "", cw.note.value)
    'The traces part at step 2: natural enters B while perfect order enters C (marked ★).'
    >>> cw.value = 30; [f.step for f in cw.frames]
    [30, 30]
    """

    value = traitlets.Int(0)

    def __init__(  # noqa: PLR0913 - keyword-only, as lectures call it; inward as PanelLooks
            self, a: Any, b: Any, *, labels: tuple[str, str] = ("A", "B"),
            tree: Any = None, state: Any = None, dpi: float = 80,
            interval: int = 800, prerender: bool | None = None,
            label_style: Any = "auto") -> None:
        ta, tb = getattr(a, "trace", a), getattr(b, "trace", b)
        if ta is None or tb is None:
            raise ValueError("both results need traces: search with trace=True")
        part = first_divergence(ta, tb)
        self.divergence: int | None = part[0] if part else None
        # each picture marks where its own search goes at the step where they part (the
        # natural order enters B, the best-first order C: not one node for both)
        parted = [_event_at(t, part[0]) if part else None for t in (ta, tb)]
        marks = [{ev[1]: "diverge"} if ev is not None else None for ev in parted]
        length = max(len(ta), len(tb)) + 1
        # what the same words hide: where the two searches hold different windows
        self.notes = _difference_notes(Replay(a, tree=tree, state=state),
                                       Replay(b, tree=tree, state=state), labels, length,
                                       self.divergence)
        self.panels = []
        # one screen (1,280 × 800 with the file browser open): the two pictures one above
        # the other, each as small as its 11 px labels allow, one legend under both
        for i, (src, label) in enumerate(((a, labels[0]), (b, labels[1]))):
            title = label if not hasattr(src, "algorithm") else f"{label}: {describe(src)}"
            look = PanelLook(title=title, labels=label_style, dpi=dpi, marks=marks[i],
                             compact=True, legend=i == 1, notes=self.notes[i])
            self.panels.append(TracePanel(Replay(src, tree=tree, state=state), look,
                                          prerender=prerender, length=length))
        self.labels = labels
        self._prerendered = prerendered = all(p.prerender for p in self.panels)
        texts = [self._announcement(i) for i in range(length)] if prerendered else []
        self.controls = Controls(length - 1, interval=interval, texts=texts,
                                 label="Step through both searches")
        for p in self.panels:
            p.link(self.controls)
        if not prerendered:
            self.controls.status = self._announcement(0)
        traitlets.link((self, "value"), (self.controls, "value"))
        note = html.escape(_parting_words(part, parted, self.panels, labels))
        self.note = w.HTML(f"<div style='font-size:13px'>{note}</div>", tooltip="")
        pics = [p.widgets()[0] for p in self.panels]
        infos = [w.Box([p.info], layout=w.Layout(flex="1 1 300px", min_width="300px"))
                 for p in self.panels]
        live = [] if prerendered else [needs_kernel("step")]
        super().__init__([
            *live, w.VBox(pics), self.note, self.controls,
            w.HBox(infos, layout=w.Layout(flex_flow="row wrap", grid_gap="0 16px")),
        ])
        self.add_class("mmk-compare")
        if not schedule(self._work):
            _mark_ready(self, prerendered)

    def _work(self) -> bool:
        more = [p.fill_one() for p in self.panels]
        if not any(more):
            _mark_ready(self, self._prerendered)
        return any(more)

    @traitlets.validate("value")
    def _clamp(self, proposal: dict[str, Any]) -> int:
        return int(min(max(proposal["value"], 0), self.steps))

    def _announcement(self, step: int) -> str:
        said = []
        for label, p, notes in zip(self.labels, self.panels, self.notes, strict=True):
            note = html.unescape(re.sub(r"<[^>]+>", "", notes[step])) \
                if step < len(notes) else ""
            said.append(f"{label}: {p.announcement(step)}{' ' + note if note else ''}")
        return " ".join(said)

    @traitlets.observe("value")
    def _show(self, change: dict[str, Any]) -> None:
        for p in self.panels:
            p.show(change["new"])
        if not all(p.prerender for p in self.panels):
            self.controls.status = self._announcement(change["new"])

    @property
    def steps(self) -> int:
        """The last step (the longer trace's length)."""
        return self.controls.steps

    @property
    def frames(self) -> list[Frame]:
        """The two frames shown (a trace that has ended stays at its last frame)."""
        return [p.replay.frame(min(self.value, p.frames - 1)) for p in self.panels]
