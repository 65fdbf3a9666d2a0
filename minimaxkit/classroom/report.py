"""``python -m minimaxkit.grading.report ASSIGNMENT [--no-ids]``: what a class got wrong, from
what autograde recorded: the scores of the gradebook, and the verdict the trusted grader leaves
in each graded test cell (``cell.metadata["minimaxkit"]["verdict"]``) with its picture. Writes
``reports/ASSIGNMENT/index.html`` (static, no script) and ``report.csv`` beside it
(docs/grading.md, *The class report*).

It counts only what the grader knows: a bug is counted for a submission when it accounts for
every one of its trees (the verdict's "likely bug"); bugs that fit some trees only are listed
apart; submissions whose verdict names the same bugs together ("one of") are counted under one
heading; a submission whose function finished on no tree (a stub, one that raised or ran out
of time on every tree) is counted as not finished, never under a bug or a convention.
"""

from __future__ import annotations

import argparse
import csv
import math
import random
import sys
from collections import Counter, defaultdict
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from markupsafe import Markup

from ..draw.pages import Raw, bar_chart, page, table
from ..grading.api.pictures import svg_bundle
from ..grading.verdicts.bugs import BUGS
from ..grading.verdicts.records import TreeRecord, VerdictRecord
from ..support.csv_safe import csv_safe
from .autograde import course_converter, require_course

__all__ = ["Entry", "read_class", "write_report", "main", "NOT_FINISHED", "NOT_READ"]

#: the row of the submissions that finished on no tree, in the conventions' table
NOT_FINISHED = "did not finish (no tree ran to its end: a stub, or it raised or timed out)"
#: the row of the submissions whose convention neither their code nor their trees show
NOT_READ = "none read (compared with the lectures' convention)"


@dataclass
class Entry:
    """One student's graded test cell: its points in the gradebook, the verdict as stored (an
    empty dict where there is none), the picture."""

    student: str
    cell: str
    score: float
    max_score: float
    verdict: dict[str, Any]
    picture: str = ""  # the grader's SVG, as the cell shows it

    @property
    def record(self) -> VerdictRecord | None:
        """The verdict as a typed record (None where the grader left none, or for a5)."""
        if not self.verdict.get("trees"):
            return None
        return VerdictRecord.read(self.verdict)


def _verdicts(path: Path) -> dict[str, tuple[dict[str, Any], str]]:
    """grade id -> (verdict, picture) of an autograded notebook's test cells."""
    import nbformat

    found: dict[str, tuple[dict[str, Any], str]] = {}
    if not path.is_file():
        return found
    for cell in nbformat.read(str(path), as_version=4).cells:
        gid = cell.metadata.get("nbgrader", {}).get("grade_id")
        verdict = cell.metadata.get("minimaxkit", {}).get("verdict")
        if gid and isinstance(verdict, dict):
            svg = next((o["data"]["image/svg+xml"] for o in cell.get("outputs", [])
                        if "image/svg+xml" in o.get("data", {})), "")
            found[gid] = (verdict, svg)
    return found


def _require_gradebook(db_url: str, assignment: str) -> None:
    """LookupError when ``db_url`` names an SQLite file that is not there: opening it would
    create an empty gradebook."""
    prefix = "sqlite:///"
    if db_url.startswith(prefix) and not Path(db_url.removeprefix(prefix)).is_file():
        raise LookupError(
            f"the course has no gradebook yet ({db_url.removeprefix(prefix)}): run "
            f"`nbgrader generate_assignment {assignment} --force` and autograde the class "
            "first")


def read_class(root: str | Path, assignment: str) -> list[Entry]:
    """Every grade cell of every submission in the gradebook, with what its autograded notebook
    recorded (an empty verdict where there is none)."""
    from nbgrader.api import Gradebook, MissingEntry

    folder = require_course(root, f"python -m minimaxkit.grading.report {assignment}")
    cd = course_converter(folder, assignment).coursedir
    _require_gradebook(cd.db_url, assignment)
    out = []
    with Gradebook(cd.db_url, cd.course_id) as gb:
        try:
            subs = gb.assignment_submissions(assignment)
        except MissingEntry:
            raise LookupError(f"{assignment} is not in the gradebook {cd.db_url}") from None
        for sub in subs:
            folder = Path(cd.format_path(cd.autograded_directory, sub.student.id, assignment))
            for nb in sub.notebooks:
                found = _verdicts(folder / f"{nb.name}.ipynb")
                for g in nb.grades:
                    verdict, svg = found.get(g.name, ({}, ""))
                    out.append(Entry(sub.student.id, g.name, float(g.score or 0),
                                     float(g.max_score), verdict, svg))
    return sorted(out, key=lambda e: (e.cell, e.student))


def _item(label: str) -> str:  # an item's label without its figures
    return label.split(" (")[0].split(":")[0]


def _title(bug: str) -> str:
    """A bug's name in the students' words: its advice up to the colon."""
    return BUGS[bug].advice.split(":")[0] if bug in BUGS else bug


def _convention(record: VerdictRecord | None) -> str:
    """The convention a submission is counted under: its label, or why it has none."""
    if record is None:
        return ""
    if not record.finished:
        return NOT_FINISHED
    c = record.convention
    if c is None:
        return ""
    return c.label if c.claimed else NOT_READ


def _safe(row: list[Any]) -> list[Any]:
    """A CSV row no spreadsheet reads as a formula
    (:func:`~minimaxkit.support.csv_safe.csv_safe`)."""
    return [csv_safe(v) for v in row]


def _scores(cell: str, mine: list[Entry]) -> Raw:
    top = max(e.max_score for e in mine)
    # every score in a bar: half points when the scores are in halves, else whole points
    # (a5's play, in tenths, shown as the whole point it is within: 5.3 in "5 to 6")
    halves = all((2 * e.score).is_integer() for e in mine)
    step = 0.5 if halves else 1.0
    counts = Counter(min(math.floor(e.score / step) * step, top) for e in mine)
    bars = [(f"{p:g}" if halves or p + 1 > top else f"{p:g} to {p + 1:g}", counts.get(p, 0))
            for p in (i * step for i in range(int(top / step) + 1))
            if counts.get(p) or p.is_integer()]
    heading = Markup("<h3>{}</h3>").format(cell)
    return Raw(heading + Markup(bar_chart(
        bars, title=f"{cell}: students per score (of {top:g} points)", x_label="points",
        y_label="students")))


# ----- the bugs ------------------------------------------------------------------------------
@dataclass(frozen=True)
class _Shown:
    """One tree where a bug shows: whose, the tree, and the picture if the grader drew it."""

    entry: Entry
    tree: TreeRecord


def _example(graded: list[Entry], bugs: tuple[str, ...], ids: bool) -> Markup:
    """One submission where the bugs show (the grader's picture of it, if it drew one): its
    tree and where its search parted from the reference."""
    found = [_Shown(e, t) for e in graded if (r := e.record) is not None and
             set(bugs) == set(r.bugs) for t in r.trees if t.score < 1]
    if not found:
        return Markup("")
    shown = min(found, key=lambda s: (not (s.tree.pictured and s.entry.picture),
                                      s.entry.student))
    whose = shown.entry.student + "'s" if ids else "a"
    parted = f": the searches part {shown.tree.parted.text}." if shown.tree.parted else "."
    out = Markup("<p>{}</p>").format(f"It shows on {whose} {shown.tree.kind} tree "
                                     f"{shown.tree.name}{parted}")
    if shown.tree.pictured and shown.entry.picture:
        img = Markup(svg_bundle(shown.entry.picture)["text/html"])
        out += Markup("<figure>{}<figcaption>The grader's picture of that tree</figcaption>"
                      "</figure>").format(img)
    return out


def _bug_sets(cell: str, graded: list[Entry], ids: bool) -> Markup:
    """A heading per set of bugs the grader named for every tree of a submission (one bug,
    or several it could not tell apart), with how many submissions and which."""
    named: dict[tuple[str, ...], list[str]] = defaultdict(list)
    for e in graded:
        r = e.record
        if r is not None and r.finished and r.bugs:
            named[tuple(sorted(r.bugs, key=list(BUGS).index))].append(e.student)
    out = Markup("")
    for bugs, who in sorted(named.items(), key=lambda x: (-len(x[1]), x[0])):
        title = " or ".join(_title(b) for b in bugs)
        out += Markup("<h3>{}: {}, {} of {} ({:.0%})</h3>").format(
            cell, title, len(who), len(graded), len(who) / len(graded))
        for b in bugs:
            out += Markup("<p>{}</p>").format(BUGS[b].advice if b in BUGS else b)
        if ids:
            out += Markup("<p>Named for: {}</p>").format(", ".join(sorted(who)))
        out += _example(graded, bugs, ids)
    return out


def _fits_some(cell: str, graded: list[Entry], ids: bool) -> list[list[Any]]:
    """Per bug, the submissions where it fits some trees only (no bug fits them all)."""
    who: dict[str, list[str]] = defaultdict(list)
    for e in graded:
        r = e.record
        if r is not None and r.finished and not r.bugs:
            for b in r.fits_some:
                who[b].append(e.student)
    return [[cell, _title(b), len(names), *([", ".join(sorted(names))] if ids else [])]
            for b, names in sorted(who.items(), key=lambda x: (-len(x[1]), x[0]))]


def _bugs_section(cells: list[str], graded: dict[str, list[Entry]], ids: bool) -> Raw:
    out = Markup("")
    for c in cells:
        if graded[c]:
            out += _bug_sets(c, graded[c], ids)
    partial = [row for c in cells if graded[c] for row in _fits_some(c, graded[c], ids)]
    if not out:
        out = Markup("<p>None accounts for every tree of a submission.</p>")
    if partial:
        out += Markup("<h3>Fits some trees only</h3><p>{}</p>").format(
            "These bugs account for what some trees of a submission evaluated, not all of "
            "them: the submission may hold more than one mistake, or another. They are not "
            "counted above.") + Markup(table(
                ["question", "bug", "submissions", *(["which"] if ids else [])], partial))
    return Raw(out)


# ----- trees, conventions, games, students -------------------------------------------------
def _trees(cell: str, graded: list[Entry]) -> tuple[list[list[Any]], set[str]]:
    """Per tree: its kind, how many got it wrong, of them how many were right on every
    visible tree; and who was right on the visible trees and wrong on another."""
    records = {e.student: e.record for e in graded if e.record is not None}
    right = {s for s, r in records.items()
             if all(t.score == 1 for t in r.trees if t.kind == "visible")}
    kinds = {t.name: t.kind for r in records.values() for t in r.trees}
    wrong = {n: {s for s, r in records.items() for t in r.trees if t.name == n and t.score < 1}
             for n in kinds}
    rows = [[cell, n, k, f"{len(wrong[n])} of {len(graded)}",
             "" if k == "visible" else len(wrong[n] & right)] for n, k in kinds.items()]
    late = {s for n, k in kinds.items() if k != "visible" for s in wrong[n] & right}
    return sorted(rows, key=lambda r: -len(wrong[r[1]])), late


def _answers(graded: dict[str, list[Entry]]) -> str:
    """How many answers were graded on trees, an answer being one submission's answer to one
    question: "9 answers (3 submissions × 3 questions)"."""
    sizes = {len(g) for g in graded.values() if g}
    total = sum(map(len, graded.values()))
    if len(sizes) == 1:
        (each,) = sizes
        questions = sum(1 for g in graded.values() if g)
        return (f"{total} answers ({each} submission{'s' * (each != 1)} × {questions} "
                f"question{'s' * (questions != 1)})")
    return f"{total} answers (one per question a submission answered)"


def _conventions(cells: list[str], graded: dict[str, list[Entry]]) -> Raw | None:
    """Per question, how many submissions were graded under each convention; None when no
    submission was (a question with one way to be right, or nothing that finished)."""
    counts = Counter((c, _convention(e.record)) for c in cells for e in graded[c])
    if all(conv in ("", NOT_FINISHED) for _, conv in counts):
        return None
    return table(["question", "convention", "submissions"],
                 [[c, conv or "(none: the question has one way to be right)", n]
                  for (c, conv), n in sorted(counts.items())])


def _games(played: list[Entry]) -> list[tuple[str, Any]]:
    rungs: dict[tuple[str, str], Counter[str]] = defaultdict(Counter)
    for e in played:
        for rung, n in e.verdict.get("rungs", {}).items():
            rungs[(e.cell, rung)].update(n)
    rows = []
    for (cell, rung), n in sorted(rungs.items()):
        games = n["won"] + n["drawn"] + n["lost"]
        rows.append([cell, rung, games, n["won"], n["drawn"], n["lost"], n["forfeited"],
                     f"{(n['won'] + n['drawn'] / 2) / max(games, 1):.0%}"])
    failed = Counter((e.cell, _item(i["label"])) for e in played for i in e.verdict["items"]
                     if not i["passed"])
    return [("Games against each rung", table(
                ["question", "rung", "games", "won", "drawn", "lost", "forfeited",
                 "share of the points"], rows)),
            ("Items failed", table(["question", "item", "submissions that failed it"],
                                   [[c, i, n] for (c, i), n in sorted(failed.items())]))]


def _bugs_of(record: VerdictRecord | None) -> str:
    return "; ".join(_title(b) for b in record.bugs) if record and record.finished else ""


def _partial_of(record: VerdictRecord | None) -> str:
    if record is None or not record.finished or record.bugs:
        return ""
    return "; ".join(_title(b) for b in record.fits_some)


def _students(entries: list[Entry]) -> tuple[str, Raw]:
    """Each student's points per question, and for searches graded on trees (a1-a4) the
    convention, the bug and the bugs that fit some trees."""
    ordered = sorted(entries, key=lambda e: (e.student, e.cell))
    rows = [[e.student, e.cell, f"{e.score:g} of {e.max_score:g}"] for e in ordered]
    head = ["student", "question", "points"]
    if any(e.record is not None for e in entries):
        head += ["convention", "bug (every tree)", "fits some trees"]
        rows = [[*row, _convention(e.record), _bugs_of(e.record), _partial_of(e.record)]
                for row, e in zip(rows, ordered, strict=True)]
    return ("Students", table(head, rows))


def _sections(entries: list[Entry], ids: bool) -> list[tuple[str, Any]]:
    cells = sorted({e.cell for e in entries})
    per = {c: [e for e in entries if e.cell == c] for c in cells}
    graded = {c: [e for e in per[c] if e.record is not None] for c in cells}
    trees, late = [], set()
    for c in cells:
        rows, who = _trees(c, graded[c]) if graded[c] else ([], set())
        trees += rows
        late |= {(c, s) for s in who}
    out: list[tuple[str, Any]] = [
        ("Scores per question", Raw("".join(_scores(c, per[c]) for c in cells)))]
    if any(graded.values()):  # searches graded on trees (a1-a4; not a5's evaluation)
        out += [
            ("Bugs the grader named", _bugs_section(cells, graded, ids)),
            ("Trees most often wrong", Raw(Markup("<p>{}</p>").format(
                f"{len(late)} of {_answers(graded)} were right on every visible tree of their "
                "question and wrong on a hidden or seeded one.")
                + Markup(table(["question", "tree", "kind", "wrong", "wrong, though right on "
                                "every visible tree"], trees))))]
        if (conventions := _conventions(cells, graded)) is not None:
            out.append(("Conventions graded under", conventions))
    if played := [e for e in entries if e.verdict.get("items")]:
        out += _games(played)
    if ids:
        out.append(_students(entries))
    return out


def _write_csv(path: Path, entries: list[Entry], ids: bool, alias: dict[str, int]) -> None:
    with open(path, "w", newline="", encoding="utf-8") as f:
        w = csv.writer(f)
        w.writerow(["student", "cell", "score", "max_score", "question", "convention", "bugs",
                    "fits_some_trees", "finished", "trees_wrong", "items_failed"])
        for e in sorted(entries, key=lambda e: (e.student if ids else alias[e.student], e.cell)):
            r, v = e.record, e.verdict
            w.writerow(_safe([
                e.student if ids else f"student {alias[e.student]}", e.cell, e.score,
                e.max_score, v.get("question", ""), "" if r and not r.finished else _convention(r),
                ";".join(r.bugs) if r and r.finished else "",
                ";".join(r.fits_some) if r and r.finished and not r.bugs else "",
                "" if r is None else "yes" if r.finished else "no",
                ";".join(t.name for t in r.trees if t.score < 1) if r else "",
                ";".join(_item(i["label"]) for i in v.get("items", []) if not i["passed"])]))


def _intro(entries: list[Entry]) -> str:
    """The report's first paragraph: what it counts."""
    students = {e.student for e in entries}
    text = (f"{len(students)} submissions in the gradebook, "
            f"{len({e.student for e in entries if e.verdict})} with the grader's verdicts. "
            "Counts are of submissions.")
    if any(e.record is not None for e in entries):  # searches graded on trees (a1-a4)
        text += (" A bug is counted where it accounts for every tree of a submission; bugs "
                 "that fit some of its trees only are listed apart, and a submission whose "
                 "function finished on no tree is counted as not finished.")
    return text


def write_report(root: str | Path, assignment: str, *, ids: bool = True,
                 out: str | Path | None = None) -> Path:
    """Write the report of ``assignment`` (students named by id unless ``ids`` is False)."""
    entries = read_class(root, assignment)
    if not entries:
        raise LookupError(f"no graded submission of {assignment} in the gradebook: autograde "
                          "it first")
    folder = Path(out or Path(root) / "reports" / assignment)
    folder.mkdir(parents=True, exist_ok=True)
    students = sorted({e.student for e in entries})
    alias = dict(zip(students, random.Random(assignment).sample(range(1, len(students) + 1),
                                                                 len(students)), strict=True))
    _write_csv(folder / "report.csv", entries, ids, alias)
    intro = Raw(Markup("<p>{}</p>").format(_intro(entries)))
    (folder / "index.html").write_text(page(f"{assignment}: the class report",
                                            _sections(entries, ids), intro=intro),
                                       encoding="utf-8")
    return folder / "index.html"


def main(argv: list[str] | None = None) -> int:
    """``python -m minimaxkit.grading.report ASSIGNMENT``, in the course folder."""
    parser = argparse.ArgumentParser(prog="python -m minimaxkit.grading.report")
    parser.add_argument("assignment")
    parser.add_argument("--no-ids", action="store_true",
                        help="name no student (to show the page in class)")
    parser.add_argument("--out", help="the folder to write (default: reports/ASSIGNMENT)")
    args = parser.parse_args(argv)
    try:
        path = write_report(Path.cwd(), args.assignment, ids=not args.no_ids, out=args.out)
    except Exception as err:
        print(f"report {args.assignment}: {type(err).__name__}: {err}", file=sys.stderr)
        return 1
    print(f"wrote {path} and {path.parent / 'report.csv'}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
