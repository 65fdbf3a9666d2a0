"""``python -m minimaxkit.grading.report ASSIGNMENT [--no-ids]``: what a class got wrong, from
what autograde recorded: the scores of the gradebook, and the verdict the trusted grader leaves
in each graded test cell (``cell.metadata["minimaxkit"]["verdict"]``) with its picture. Writes
``reports/ASSIGNMENT/index.html`` (static, no script) and ``report.csv`` beside it
(docs/grading.md, *The class report*)."""

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

from ..draw.pages import Raw, bar_chart, esc, page, table
from ..grading.api.pictures import svg_bundle
from ..grading.verdicts.bugs import BUGS
from ..support.csv_safe import csv_safe
from .autograde import course_converter

__all__ = ["Entry", "read_class", "write_report", "main"]


@dataclass
class Entry:
    """One student's graded test cell: its points in the gradebook, the verdict, the picture."""

    student: str
    cell: str
    score: float
    max_score: float
    verdict: dict[str, Any]
    picture: str = ""  # the grader's SVG, as the cell shows it


def read_class(root: str | Path, assignment: str) -> list[Entry]:
    """Every grade cell of every submission in the gradebook, with what its autograded notebook
    recorded (an empty verdict where there is none)."""
    import nbformat
    from nbgrader.api import Gradebook, MissingEntry

    cd = course_converter(Path(root).resolve(), assignment).coursedir
    out = []
    with Gradebook(cd.db_url, cd.course_id) as gb:
        try:
            subs = gb.assignment_submissions(assignment)
        except MissingEntry:
            raise LookupError(f"{assignment} is not in the gradebook {cd.db_url}") from None
        for sub in subs:
            folder = Path(cd.format_path(cd.autograded_directory, sub.student.id, assignment))
            for nb in sub.notebooks:
                path, found = folder / f"{nb.name}.ipynb", {}
                if path.is_file():
                    for cell in nbformat.read(str(path), as_version=4).cells:
                        gid = cell.metadata.get("nbgrader", {}).get("grade_id")
                        verdict = cell.metadata.get("minimaxkit", {}).get("verdict")
                        if gid and isinstance(verdict, dict):
                            svg = next((o["data"]["image/svg+xml"] for o in cell.get("outputs", [])
                                        if "image/svg+xml" in o.get("data", {})), "")
                            found[gid] = (verdict, svg)
                for g in nb.grades:
                    verdict, svg = found.get(g.name, ({}, ""))
                    out.append(Entry(sub.student.id, g.name, float(g.score or 0),
                                     float(g.max_score), verdict, svg))
    return sorted(out, key=lambda e: (e.cell, e.student))


def _named(v: dict[str, Any]) -> set[str]:
    return set(v.get("bugs", [])) | {b for t in v.get("trees", []) for b in t["bugs"]}


def _item(label: str) -> str:  # an item's label without its figures
    return label.split(" (")[0].split(":")[0]


def _convention(v: dict[str, Any]) -> str:
    return str((v.get("convention") or {}).get("label", ""))


def _example(entries: list[Entry], bug: str, ids: bool) -> str:
    """One submission where ``bug`` shows (the grader's picture of it, if it drew one): its
    tree and where its search parted from the reference."""
    found = [(not (t["pictured"] and e.picture), e.student, e, t) for e in entries
             for t in e.verdict["trees"] if t["score"] < 1 and
             (bug in t["bugs"] or bug in e.verdict.get("bugs", []))]
    if not found:
        return ""
    _, _, e, t = min(found, key=lambda f: f[:2])
    text = f"It shows on {e.student + chr(39) + 's' if ids else 'a'} {t['kind']} tree " \
           f"{t['name']}" + (f": the searches part {t['parted']['text']}." if t["parted"] else ".")
    img = svg_bundle(e.picture)["text/html"] if t["pictured"] and e.picture else ""
    return f"<p>{esc(text)}</p>" + (f"<figure>{img}<figcaption>The grader's picture of that "
                                    "tree</figcaption></figure>" if img else "")


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
    return Raw(f"<h3>{esc(cell)}</h3>" + bar_chart(
        bars, title=f"{cell}: students per score (of {top:g} points)", x_label="points",
        y_label="students"))


def _bugs(cell: str, graded: list[Entry], ids: bool) -> str:
    """The bugs named in ``cell``, those named together (the grader's "one of") as one."""
    named: dict[tuple[str, ...], list[str]] = defaultdict(list)
    for b in BUGS:
        if who := tuple(sorted(e.student for e in graded if b in _named(e.verdict))):
            named[who].append(b)
    out = []
    for who, bs in sorted(named.items(), key=lambda x: -len(x[0])):
        title = " or ".join(BUGS[b].advice.split(":")[0] for b in bs)
        out.append(f"<h3>{esc(cell)}: {esc(title)}, {len(who)} of {len(graded)} "
                   f"({len(who) / len(graded):.0%})</h3>"
                   + "".join(f"<p>{esc(BUGS[b].advice)}</p>" for b in bs)
                   + (f"<p>Named for: {esc(', '.join(who))}</p>" if ids else "")
                   + _example(graded, bs[0], ids))
    return "".join(out)


def _trees(cell: str, graded: list[Entry]) -> tuple[list[list[Any]], set[str]]:
    """Per tree: its kind, how many got it wrong, of them how many were right on every
    visible tree; and who was right on the visible trees and wrong on another."""
    right = {e.student for e in graded if all(t["score"] == 1 for t in e.verdict["trees"]
                                              if t["kind"] == "visible")}
    kinds = {t["name"]: t["kind"] for e in graded for t in e.verdict["trees"]}
    wrong = {n: {e.student for e in graded for t in e.verdict["trees"] if t["name"] == n and
                 t["score"] < 1} for n in kinds}
    rows = [[cell, n, k, f"{len(wrong[n])} of {len(graded)}",
             "" if k == "visible" else len(wrong[n] & right)] for n, k in kinds.items()]
    late = {s for n, k in kinds.items() if k != "visible" for s in wrong[n] & right}
    return sorted(rows, key=lambda r: -len(wrong[r[1]])), late


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


def _sections(entries: list[Entry], ids: bool) -> list[tuple[str, Any]]:
    cells = sorted({e.cell for e in entries})
    per = {c: [e for e in entries if e.cell == c] for c in cells}
    graded = {c: [e for e in per[c] if e.verdict.get("trees")] for c in cells}
    trees, late = [], set()
    for c in cells:
        rows, who = _trees(c, graded[c]) if graded[c] else ([], set())
        trees += rows
        late |= {(c, s) for s in who}
    out: list[tuple[str, Any]] = [
        ("Scores per question", Raw("".join(_scores(c, per[c]) for c in cells)))]
    if any(graded.values()):  # searches graded on trees (a1-a4; not a5's evaluation)
        out += [
            ("Bugs the grader named", Raw("".join(_bugs(c, graded[c], ids) for c in cells
                                                  if graded[c]) or "<p>None.</p>")),
            ("Trees most often wrong", Raw(
                f"<p>{len(late)} of {sum(map(len, graded.values()))} submissions were right on "
                "every visible tree of a question and wrong on a hidden or seeded one.</p>"
                + table(["question", "tree", "kind", "wrong", "wrong, though right on every "
                         "visible tree"], trees))),
            ("Conventions graded under", table(["question", "convention", "submissions"], [
                [c, conv, n] for (c, conv), n in sorted(Counter(
                    (e.cell, _convention(e.verdict) or "(none)") for c in cells
                    for e in graded[c]).items())]))]
    if played := [e for e in entries if e.verdict.get("items")]:
        out += _games(played)
    if ids:
        out.append(("Students", table(["student", "question", "points", "convention", "bugs"], [
            [e.student, e.cell, f"{e.score:g} of {e.max_score:g}", _convention(e.verdict),
             ", ".join(sorted(_named(e.verdict)))]
            for e in sorted(entries, key=lambda e: (e.student, e.cell))])))
    return out


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
    with open(folder / "report.csv", "w", newline="", encoding="utf-8") as f:
        w = csv.writer(f)
        w.writerow(["student", "cell", "score", "max_score", "question", "convention", "bugs",
                    "trees_wrong", "items_failed"])
        for e in sorted(entries, key=lambda e: (e.student if ids else alias[e.student], e.cell)):
            v = e.verdict
            w.writerow(_safe([
                e.student if ids else f"student {alias[e.student]}", e.cell, e.score,
                e.max_score, v.get("question", ""), _convention(v), ";".join(sorted(_named(v))),
                ";".join(t["name"] for t in v.get("trees", []) if t["score"] < 1),
                ";".join(_item(i["label"]) for i in v.get("items", []) if not i["passed"])]))
    intro = Raw(f"<p>{len(students)} submissions in the gradebook, "
                f"{len({e.student for e in entries if e.verdict})} with the grader's verdicts. "
                "Counts are of submissions; a bug is counted where the grader named it, on "
                "every tree or on one.</p>")
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
