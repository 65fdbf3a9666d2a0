"""A self-check on alpha-beta: a seeded random tree; mark the leaves alpha-beta never
evaluates (or enter the backed-up values), press Check, and see per node what was right or
wrong, and why. Marking too many leaves is wrong, not "close enough".

>>> q = QuizWidget(seed=3)
>>> never = sorted(q.answer_never)
>>> q.mark(*never)
>>> q.check_answers().correct
True
>>> q.mark(*q.leaf_paths)          # every leaf: too many
>>> r = q.check_answers(); r.correct, r.summary.startswith("Not quite")
(False, True)
"""

from __future__ import annotations

import html
from dataclasses import dataclass

import ipywidgets as w

from ..replay import Replay, fmt
from ..search import alphabeta, minimax
from ..trace import Leaf, Path
from ..tree import GameTree
from ._panel import MAX_DRAWN_NODES, Picture, RerunHint, needs_kernel
from .leaf_toggles import TOGGLE_COLORS, LeafToggles
from .quiz_words import unknown_summary, wrong_count

__all__ = ["QuizWidget", "Verdict", "QuizResult", "LeafToggles", "TOGGLE_COLORS",
           "PICTURE_MARKS"]

#: Up to this many answers each has its own button (or box); a larger quiz takes its
#: answers as text, names (and values) in one box, which builds and syncs in a moment.
MAX_ANSWER_WIDGETS = 200
#: Check lists at most this many verdicts (wrong ones first); ``check_answers()`` has all.
MAX_LISTED = 100
#: How the quiz draws a verdict on the searched tree: in the quiz's own words ("never
#: evaluated, not selected"), not the grader's ("evaluated, should have been cut"), which
#: read as the opposite of the pruned leaf they sat on.
PICTURE_MARKS = {"extra": "unselected", "missing": "overselected", "right": "right",
                 "wrong": "wrong"}

@dataclass(frozen=True)
class Verdict:
    """One node's verdict: ``kind`` is ``"right"``, ``"extra"`` (not marked, but alpha-beta
    cuts it), ``"missing"`` (marked, but alpha-beta evaluates it) or ``"wrong"`` (a wrong
    value); ``reason`` says why."""

    path: Path
    name: str
    ok: bool
    kind: str
    reason: str


@dataclass(frozen=True)
class QuizResult:
    """All verdicts, whether the whole answer is right, and a one-line summary."""

    verdicts: tuple[Verdict, ...]
    correct: bool
    summary: str

    @property
    def marks(self) -> dict[Path, str]:
        """The verdicts as ``draw_tree`` marks."""
        return {v.path: v.kind for v in self.verdicts}


class QuizWidget(RerunHint, w.VBox):
    """A quiz on a seeded random tree (``GameTree.random(depth, branching, values, seed)``)
    or on ``tree``. ``mode="leaves"``: mark the leaves alpha-beta never evaluates;
    ``mode="values"``: enter every interior node's backed-up (minimax) value.
    ``prune_on_equal`` is the cut rule of the alpha-beta the answers are checked against.
    """

    def __init__(  # noqa: PLR0913 - keyword-only, as lectures and notebooks call it
            self, seed: int | None = None, *, depth: int = 3,
            branching: int | tuple[int, int] = (2, 3), values: tuple[int, int] = (0, 9),
            mode: str = "leaves", prune_on_equal: bool = True, tree: GameTree | None = None,
            dpi: float = 80) -> None:
        if mode not in ("leaves", "values"):
            raise ValueError(f"mode must be 'leaves' or 'values', got {mode!r}")
        self.mode, self.seed, self.dpi = mode, seed, dpi
        self._spec = {"depth": depth, "branching": branching, "values": values}
        self.prune_on_equal = prune_on_equal
        self.picture = Picture(format="png", layout=w.Layout(align_self="flex-start",
                                                             max_width="100%"))
        # (an empty tooltip: ipywidgets titles a description widget's label "null" without)
        self.feedback = w.HTML(tooltip="")
        self.check = w.Button(description="Check", button_style="primary",
                              tooltip="check your answer: how many are wrong, and a hint")
        self.check.add_class("mmk-check")
        self.new = w.Button(description="New tree", tooltip="another random tree")
        self.solution = w.Button(description="Show the solution",
                                 tooltip="every verdict with its reason, drawn on the search",
                                 layout=w.Layout(display="none"))
        self.solution.add_class("mmk-solution")
        self.check.on_click(lambda _: self.show_check())
        self.new.on_click(lambda _: self.new_tree())
        self.solution.on_click(lambda _: self.show_solution())
        self.checks = 0
        self.answers = w.HBox(layout=w.Layout(flex_flow="row wrap"))
        self.intro = w.HTML(tooltip="")
        self.kernel_note = needs_kernel("quiz")
        super().__init__()
        self.add_class("mmk-quiz")
        self._start(tree)

    # ----- set-up -----------------------------------------------------------------------------
    def _start(self, tree: GameTree | None) -> None:
        """Set the quiz on ``tree`` (None: a new random tree from the seed): search it, make
        the answer widgets, say the task, draw the tree."""
        if tree is None:
            tree = GameTree.random(seed=self.seed, **self._spec)  # type: ignore[arg-type]
        self._search(tree)
        asked = self.leaf_paths if self.mode == "leaves" else self.inner
        task = self._answer_widgets(asked)
        self.drawn = len(self.by_name) <= MAX_DRAWN_NODES
        task = self._place_answers(task, asked)
        if not self.drawn:
            task += self._leaf_list()
        self._reset(task)

    def _search(self, tree: GameTree) -> None:
        """The answers: alpha-beta's search of ``tree`` (the leaves it never evaluates) and
        minimax's (every backed-up value); and, read once so that Check is linear in the
        tree, the step (1-based) of the first cut-off pruning each subtree root and the
        event of each leaf evaluated."""
        self.tree = tree
        self.result = alphabeta(tree, prune_on_equal=self.prune_on_equal)
        assert self.result.trace is not None
        self.replay = Replay(self.result)
        self._pruned_at: dict[Path, int] = {}
        self._leaf_at: dict[Path, int] = {}
        self._reasons: dict[int, str] = {}
        self._cut_memo: dict[Path, int | None] = {(): self._pruned_at.get(())}
        for i, r in enumerate(self.result.trace.raw):
            if r[0] == "cutoff":
                for c in r[5]:
                    self._pruned_at.setdefault(r[1] + (c,), i + 1)
            elif r[0] == "leaf":
                self._leaf_at.setdefault(r[1], i)
        self.leaf_paths: list[Path] = [n.path for n in tree.leaves()]
        self.leaf_paths_set = set(self.leaf_paths)
        evaluated = set(self.result.trace.leaves)
        self.answer_never = {p for p in self.leaf_paths if p not in evaluated}
        self.full = minimax(tree)  # what values mode asks for: every node's backed-up value
        self.true_values = self.full.trace.values  # type: ignore[union-attr]
        self.inner = [n.path for n in tree.nodes() if n.children]
        self.by_name = {n.name: n.path for n in tree.nodes()}

    def _answer_widgets(self, asked: list[Path]) -> str:
        """Make the widgets that take the answers about ``asked``: a toggle per leaf (leaves
        mode) or a box per interior node (values mode), up to ``MAX_ANSWER_WIDGETS``, and
        the text box used beyond that; return the task in words."""
        tree = self.tree
        rule = "v ≥ β / v ≤ α" if self.prune_on_equal else "v > β / v < α (strict)"
        # Typed answers reach the kernel when the box loses focus (pressing Check does that),
        # in one message ahead of the click. Sent on every key, they are held back while the
        # kernel is busy and the click overtook them: Check judged "N" of "NOPE, " (seen in
        # the browser test on a loaded machine).
        self.typed = w.Textarea(layout=w.Layout(width="100%", height="6em"),
                                continuous_update=False, tooltip="")
        self.toggles: LeafToggles | None = None
        self.entries: dict[Path, w.Text] = {}
        if self.mode == "leaves":
            task = ("Select the leaves that alpha-beta (children left to right, cut on "
                    f"{rule}) <b>never evaluates</b>, then press Check.")
            if len(asked) <= MAX_ANSWER_WIDGETS:
                self.toggles = LeafToggles(
                    [(f"{tree.node(p).name} {fmt(tree.node(p).value)}",
                      f"leaf {tree.node(p).name}, value {fmt(tree.node(p).value)}")
                     for p in asked],
                    label="Leaves: select those alpha-beta never evaluates")
        else:
            task = "Enter the backed-up (minimax) value of every interior node, then press Check."
            if len(asked) <= MAX_ANSWER_WIDGETS:
                self.entries = {p: w.Text(description=tree.node(p).name, placeholder="?",
                                          continuous_update=False,
                                          tooltip=f"backed-up value of {tree.node(p).name}",
                                          layout=w.Layout(width="120px"),
                                          style={"description_width": "30px"})
                                for p in asked}
        return task

    def _place_answers(self, task: str, asked: list[Path]) -> str:
        """Show the answer widgets (the toggles, the boxes, or, for too many answers, the one
        text box, with the task's words changed to say so); return the task."""
        if self.toggles is not None:
            self.answers.children = [self.toggles]
        elif self.entries:
            self.answers.children = list(self.entries.values())
        else:  # too many answers for a widget each: one box of text
            task = task.replace("Select the leaves", "Type the names of the leaves").replace(
                "Enter the backed-up", "Type a line <code>name value</code> for the backed-up")
            self.typed.placeholder = ("names, e.g. " if self.mode == "leaves" else
                                      "lines of name and value, e.g. ") + " ".join(
                self.tree.node(p).name + ("" if self.mode == "leaves" else " 5\n")
                for p in asked[:2])
            self.typed.description = "answer"
            self.typed.add_class("mmk-typed")
            self.answers.children = [self.typed]
        return task

    def _leaf_list(self) -> str:
        """For a tree too large to draw: the words, and a scrolling list of its leaves with
        their values, that stand in for the picture."""
        tree = self.tree
        leaves = ", ".join(f"{tree.node(p).name} {fmt(tree.node(p).value)}"
                           for p in self.leaf_paths)
        return (f" The tree has {len(self.by_name):,} nodes, too many to draw legibly; "
                f"its {len(self.leaf_paths):,} leaves, left to right, with their values:"
                "<div tabindex='0' role='region' aria-label='the leaves and their values' "
                "style='max-height:8em;overflow-y:auto;font-family:monospace;"
                f"font-size:12px;border:1px solid #ccc;padding:2px 4px'>{leaves}</div>")

    def _reset(self, task: str) -> None:
        """Show ``task`` and the unmarked picture, with no feedback and no solution yet."""
        self.picture.layout.display = None if self.drawn else "none"
        self.intro.value = f"<div style='font-size:13px'>{task}</div>"
        self.feedback.value = ""
        self.checks = 0
        self.solution.layout.display = "none"
        self._picture()
        self.children = [self.kernel_note, self.intro, self.picture, self.answers,
                         w.HBox([self.check, self.solution, self.new]), self.feedback]

    def _picture(self, marks: dict[Path, str] | None = None, solved: bool = False) -> None:
        from ..draw.alt import marks_alt, tree_alt
        from ..draw.render import tree_png

        if not self.drawn:  # too large to draw legibly: the intro says so and lists leaves
            self.picture.value, self.picture.tooltip = b"", ""
            return
        if solved:  # the search the question is about: alpha-beta's cuts, or minimax's values
            searched = self.result if self.mode == "leaves" else self.full
            title = ("alpha-beta, with your answer marked" if self.mode == "leaves" else
                     "minimax (every backed-up value), with your answers marked")
            marks = {p: PICTURE_MARKS[k] for p, k in (marks or {}).items()}
            self.picture.value = tree_png(searched, dpi=self.dpi, marks=marks, title=title)
            alt = tree_alt(searched, title=title)
        else:
            self.picture.value = tree_png(self.tree, dpi=self.dpi, marks=marks)
            alt = tree_alt(self.tree) + (
                " Which leaves does alpha-beta never evaluate?" if self.mode == "leaves" else
                " What is the backed-up value of each interior node?")
        names = {p: n for n, p in self.by_name.items()}
        self.picture.tooltip = f"{alt} {marks_alt(marks or {}, names.__getitem__)}".strip()

    def new_tree(self) -> None:
        """A new random tree (the next seed)."""
        self.seed = None if self.seed is None else self.seed + 1
        self._start(None)

    # ----- answers ---------------------------------------------------------------------------
    def _path(self, p: Path | str) -> Path:
        return self.tree.by_name(p).path if isinstance(p, str) else tuple(p)

    def mark(self, *leaves: Path | str) -> None:
        """Select exactly these leaves (paths or names) as "never evaluated"."""
        chosen = {self._path(p) for p in leaves}
        if self.toggles is None:
            self.typed.value = " ".join(self.tree.node(p).name for p in self.leaf_paths
                                        if p in chosen)
        else:
            self.toggles.selected = [i for i, p in enumerate(self.leaf_paths) if p in chosen]

    @property
    def marked(self) -> set[Path]:
        """The leaves selected as never evaluated (typed names that are no leaf's are
        left out here; Check names them)."""
        if self.toggles is None:
            leaves = set(self.leaf_paths)
            return {p for p in map(self.by_name.get, self._typed_words()) if p in leaves}
        n = len(self.leaf_paths)
        return {self.leaf_paths[i] for i in self.toggles.selected if 0 <= i < n}

    def enter(self, values: dict[Path | str, float]) -> None:
        """Fill in backed-up values (values mode), by path or name."""
        if not self.entries:  # the typed lines, these values changed or added
            given, bad = self._typed_values()
            given.update({self._path(p): str(v) for p, v in values.items()})
            self.typed.value = "\n".join([*(f"{self.tree.node(p).name} {given[p]}"
                                            for p in self.inner if p in given), *bad])
            return
        for p, v in values.items():
            self.entries[self._path(p)].value = str(v)

    def _typed_words(self) -> list[str]:
        return self.typed.value.replace(",", " ").split()

    def _typed_values(self) -> tuple[dict[Path, str], list[str]]:
        """The typed ``name value`` pairs by path, and the lines that are not one."""
        given: dict[Path, str] = {}
        bad = []
        for line in self.typed.value.replace(",", "\n").splitlines():
            words = line.replace("=", " ").split()
            if not words:
                continue
            path = self.by_name.get(words[0])
            if len(words) != 2 or path is None or path not in self.true_values \
                    or path in self.leaf_paths_set:
                bad.append(line.strip())
            else:
                given[path] = words[1]
        return given, bad

    def _unknown(self) -> list[str]:
        """Typed words (leaves mode) or lines (values mode) that name no answer."""
        if self.mode == "leaves":
            if self.toggles is not None:
                return []
            return [x for x in self._typed_words() if self.by_name.get(x) not in
                    self.leaf_paths_set]
        return [] if self.entries else self._typed_values()[1]

    def _cut_reason(self, leaf: Path) -> str:
        """Why ``leaf`` is never evaluated: the first cut-off that pruned it or an
        ancestor, in the replay's words."""
        step = self._cut_step(leaf)
        if step is None:
            return "it is cut off"  # pragma: no cover
        if step not in self._reasons:  # one cut-off prunes many leaves: say it once
            self._reasons[step] = self.replay.explain(step).split(". ")[0]
        return self._reasons[step]

    def _cut_step(self, p: Path) -> int | None:
        """The first step that pruned ``p`` or an ancestor: each node is worked out once,
        from its parent's answer (Check stays linear in the tree)."""
        memo = self._cut_memo
        chain = []
        while p not in memo:
            chain.append(p)
            p = p[:-1]
        step = memo[p]
        for q in reversed(chain):
            own = self._pruned_at.get(q)
            if own is not None and (step is None or own < step):
                step = own
            memo[q] = step
        return step

    def _open_reason(self, leaf: Path) -> str:
        """Why ``leaf`` is evaluated: the window it was reached with."""
        i = self._leaf_at.get(leaf)
        if i is None:
            return "it is evaluated"  # pragma: no cover
        e = self.replay.events[i]
        assert isinstance(e, Leaf)
        parent = self.tree.node(leaf[:-1]).name if leaf else "the root"
        return (f"when the search reaches it, the window at {parent} is "
                f"α = {fmt(e.alpha)}, β = {fmt(e.beta)}: still open, nothing cuts it")

    def check_answers(self) -> QuizResult:
        """Judge the current answers (without changing the display)."""
        return self._check_leaves() if self.mode == "leaves" else self._check_values()

    def _check_leaves(self) -> QuizResult:
        verdicts = []
        marked = self.marked
        for p in self.leaf_paths:
            name = self.tree.node(p).name
            never = p in self.answer_never
            if never and p in marked:
                verdicts.append(Verdict(p, name, True, "right",
                                        f"right: never evaluated ({self._cut_reason(p)})"))
            elif never:
                verdicts.append(Verdict(p, name, False, "extra",
                                        f"never evaluated, but not selected: "
                                        f"{self._cut_reason(p)}"))
            elif p in marked:
                verdicts.append(Verdict(p, name, False, "missing",
                                        f"selected, but alpha-beta evaluates it: "
                                        f"{self._open_reason(p)}"))
            else:
                verdicts.append(Verdict(p, name, True, "right", "right: evaluated"))
        wrong = [v for v in verdicts if not v.ok]
        too_many = sum(1 for v in verdicts if v.kind == "missing")
        unknown = self._unknown()
        if unknown:
            return QuizResult(tuple(verdicts), False, unknown_summary(unknown, "leaf"))
        if not wrong:
            summary = (f"Correct: alpha-beta never evaluates {len(self.answer_never)} of "
                       f"{len(self.leaf_paths)} leaves, and you found exactly those.")
        else:
            counted = wrong_count(len(wrong), len(self.leaf_paths), "leaf", "leaves")
            summary = f"Not quite: {counted}."
            if too_many:
                summary += (f" {too_many} of the leaves you selected "
                            f"{'is' if too_many == 1 else 'are'} evaluated: selecting too many "
                            "is wrong too.")
        return QuizResult(tuple(verdicts), not wrong, summary)

    def _check_values(self) -> QuizResult:
        verdicts = []
        typed = {} if self.entries else self._typed_values()[0]
        for p in self.inner:
            node = self.tree.node(p)
            true = self.true_values[p]
            kids = [self.true_values[c.path] for c in node.children]
            how = ("max" if node.is_max else "min")
            why = (f"{node.name} = {how}({', '.join(c.name for c in node.children)}) = "
                   f"{how}({', '.join(fmt(v) for v in kids)}) = {fmt(true)}")
            text = (self.entries[p].value if self.entries else typed.get(p, "")).strip()
            try:
                given: float | None = float(text)
            except ValueError:
                given = None
            if given is not None and given == true:
                verdicts.append(Verdict(p, node.name, True, "right", f"right: {why}"))
            else:
                got = "nothing" if not text else text
                verdicts.append(Verdict(p, node.name, False, "wrong", f"you wrote {got}; {why}"))
        wrong = [v for v in verdicts if not v.ok]
        unknown = self._unknown()
        if unknown:
            return QuizResult(tuple(verdicts), False,
                              unknown_summary(unknown, "interior node with a value"))
        summary = ("Correct: every backed-up value is right." if not wrong else
                   f"Not quite: {wrong_count(len(wrong), len(verdicts), 'value', 'values')}.")
        return QuizResult(tuple(verdicts), not wrong, summary)

    def hint(self, result: QuizResult) -> str:
        """One hint toward the first wrong answer (left to right), without giving it away:
        which node to look at again and what to ask there; empty when all is right."""
        wrong = [v for v in result.verdicts if not v.ok]
        if not wrong:
            return ""
        v = wrong[0]
        if v.kind == "extra":  # never evaluated, not selected: where is it cut off?
            step = self._cut_step(v.path)
            at = self.replay.events[step - 1].path if step else v.path[:-1]
            return (f"At least one leaf you did not select is never evaluated. Follow the "
                    f"search to {self.tree.node(at).name}: once a child of it has returned, "
                    "is its window (α, β) still open?")
        if v.kind == "missing":  # selected, but evaluated
            parent = self.tree.node(v.path[:-1]).name
            return (f"At least one leaf you selected is evaluated. Look at {parent}: when the "
                    "search reaches its children, is its window (α, β) already closed?")
        node = self.tree.node(v.path)
        how = ("largest", "MAX") if node.is_max else ("smallest", "MIN")
        return (f"Look again at {node.name}, a {how[1]} node: its value is the {how[0]} of "
                f"its children's values ({', '.join(c.name for c in node.children)}).")

    def show_check(self) -> QuizResult:
        """Check: right, or how many are wrong and one hint (the picture unchanged, so the
        next try is the reader's own); "Show the solution" then has every verdict."""
        result = self.check_answers()
        self.checks += 1
        if result.correct:
            return self.show_solution(result)
        color = "#b34700"
        hint = self.hint(result)
        self.feedback.value = (
            f"<div class='mmk-verdict' role='status' style='font-size:13px'>"
            f"<b style='color:{color}'>{html.escape(result.summary)}</b>"
            + (f"<p class='mmk-hint' style='margin:4px 0'><b>Hint:</b> {html.escape(hint)}</p>"
               if hint else "")
            + "<p style='margin:4px 0;color:#555555'>Change your answer and press Check "
              "again, or press Show the solution.</p></div>")
        self.solution.layout.display = None
        return result

    def show_solution(self, result: QuizResult | None = None) -> QuizResult:
        """Show every verdict: as marks on the searched tree and as a list with reasons."""
        result = result if result is not None else self.check_answers()
        self.solution.layout.display = "none"
        self._picture(result.marks, solved=True)
        shown = [v for v in result.verdicts if not v.ok]  # wrong first, then right ones
        shown += [v for v in result.verdicts if v.ok and (self.mode == "values" or
                                                          v.path in self.answer_never)]
        rows = "".join(
            f"<li style='color:{'#006d4f' if v.ok else '#b34700'}'><b>{html.escape(v.name)}"
            f"</b> {'✓' if v.ok else '✗'} {html.escape(v.reason)}</li>"
            for v in shown[:MAX_LISTED])
        if len(shown) > MAX_LISTED:
            rows += (f"<li style='color:#555'>… and {len(shown) - MAX_LISTED:,} more "
                     "(all of them: <code>check_answers().verdicts</code>)</li>")
        color = "#006d4f" if result.correct else "#b34700"
        self.feedback.value = (f"<div class='mmk-verdict' role='status' style='font-size:13px'>"
                               f"<b style='color:{color}'>{html.escape(result.summary)}</b>"
                               f"<ul style='margin:4px 0'>{rows}</ul></div>")
        return result
