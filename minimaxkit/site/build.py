"""``python -m minimaxkit.site [OUT]``: the course's static website (``make site``,
docs/site.md). Each lecture of ``notebooks/`` is executed headless with every widget's
frames, readied for a page without a kernel and rendered; the index lists them; the npm
files the pages load are copied in. ``OUT/build-report.json`` says what each lecture took
and how large the site is.
"""

from __future__ import annotations

import json
import shutil
import sys
import time
from concurrent.futures import ProcessPoolExecutor
from dataclasses import asdict, dataclass, field
from pathlib import Path

from .assets import copy_assets
from .crosslinks import rewrite_lecture_links
from .execute import ExecutedLecture, SiteBuildError, execute_lecture
from .pages import (
    BundledScripts,
    IndexEntry,
    PageLink,
    has_math,
    lecture_summary,
    lecture_title,
    render_index,
    render_lecture,
)
from .static import SiteLinks, StaticCounts, ready_for_site

__all__ = ["build_site", "SiteReport", "LectureReport", "folder_bytes", "main"]

TITLE = "Game-tree search: minimax, alpha-beta, move ordering, progressive deepening"
SUMMARY = ("The lectures of minimaxkit, an open course kit on game-tree search, as they "
           "ran: every search traced step by step.")


@dataclass(frozen=True)
class LectureReport:
    """One lecture's page: its file, the seconds it ran, its step and compare widgets, the
    widgets replaced by a note (they need a kernel), and the page's size in bytes."""

    page: str
    seconds: float
    stepping: int
    kernel_notes: int
    bytes: int


@dataclass
class SiteReport:
    """What :func:`build_site` made: each lecture, the npm versions copied, the site's size
    in bytes and the seconds the build took."""

    lectures: list[LectureReport] = field(default_factory=list)
    versions: dict[str, str] = field(default_factory=dict)
    bytes: int = 0
    seconds: float = 0.0


def folder_bytes(folder: Path) -> int:
    """The bytes of every file under ``folder``."""
    return sum(p.stat().st_size for p in folder.rglob("*") if p.is_file())


def _stepping(nb: object) -> int:
    from ..widgets.savehook import STATE

    models = getattr(nb, "metadata", {}).get("widgets", {}).get(STATE, {}).get("state", {})
    return sum(1 for m in models.values()
               if {"mmk-step", "mmk-compare"} & set(m["state"].get("_dom_classes", [])))


def _run(paths: list[Path], jobs: int) -> list[ExecutedLecture]:
    if jobs <= 1 or len(paths) <= 1:
        return [execute_lecture(p) for p in paths]
    with ProcessPoolExecutor(max_workers=jobs) as pool:
        return list(pool.map(execute_lecture, paths))


def build_site(repo: Path, out: Path, *, links: SiteLinks | None = None,
               only: tuple[str, ...] = (), jobs: int = 1) -> SiteReport:
    """Build the site of the course in ``repo`` into ``out`` (emptied first). ``only`` keeps
    the lectures whose file names start with one of its entries."""
    start = time.perf_counter()
    links = links or SiteLinks()
    paths = sorted((repo / "notebooks").glob("*.ipynb"))
    if only:
        paths = [p for p in paths if p.name.startswith(only)]
    if not paths:
        raise SiteBuildError(f"no lecture in {repo / 'notebooks'} matches {only or '*.ipynb'}")
    if out.exists():
        shutil.rmtree(out)
    (out / "lectures").mkdir(parents=True)
    report = SiteReport(versions=copy_assets(repo, out))
    executed = _run(paths, jobs)
    titles = [lecture_title(e.notebook, e.path.stem) for e in executed]
    entries = []
    pages = {e.path.stem for e in executed}
    for i, lecture in enumerate(executed):
        name = lecture.path.name
        counts: StaticCounts = ready_for_site(lecture.notebook, links, name)
        rewrite_lecture_links(lecture.notebook, pages, links)
        page = f"{lecture.path.stem}.html"
        near = [PageLink(f"{executed[j].path.stem}.html", titles[j]) if 0 <= j < len(executed)
                else None for j in (i - 1, i + 1)]
        html = render_lecture(lecture.notebook, name=titles[i], site={
            "root": "../", "previous": near[0], "next": near[1],
            "places": links.places(name), "math": has_math(lecture.notebook)})
        (out / "lectures" / page).write_text(html, encoding="utf-8")
        stepping = _stepping(lecture.notebook)
        report.lectures.append(LectureReport(f"lectures/{page}", round(lecture.seconds, 1),
                                             stepping, counts.kernel_notes, len(html.encode())))
        entries.append(IndexEntry(f"lectures/{page}", titles[i],
                                  lecture_summary(lecture.notebook), stepping,
                                  links.places(name)))
    places = [name for name, _ in links.places("x.ipynb")]
    scripts = BundledScripts(report.versions, tuple(
        sorted(p.name for p in (out / "js" / "licenses").glob("*.txt"))))
    (out / "index.html").write_text(render_index(title=TITLE, summary=SUMMARY, lectures=entries,
                                                 places=places, scripts=scripts),
                                    encoding="utf-8")
    report.seconds = round(time.perf_counter() - start, 1)
    report.bytes = folder_bytes(out)
    (out / "build-report.json").write_text(json.dumps(asdict(report), indent=1) + "\n")
    return report


def main(argv: list[str] | None = None) -> int:
    """The command line: ``python -m minimaxkit.site [OUT] [--binder OWNER/REPO] [--hub URL
    --git URL] [--only PREFIX ...] [--jobs N] [--budget-mb MB]``."""
    import argparse

    parser = argparse.ArgumentParser(prog="python -m minimaxkit.site",
                                     description="the course as a static website")
    parser.add_argument("out", nargs="?", default="build/site", type=Path)
    parser.add_argument("--repo", default=".", type=Path, help="the course repository [.]")
    parser.add_argument("--binder", default="", metavar="OWNER/REPO",
                        help="the students' copy on GitHub, for Binder links")
    parser.add_argument("--hub", default="", metavar="URL", help="a JupyterHub with "
                        "nbgitpuller (needs --git)")
    parser.add_argument("--git", default="", metavar="URL",
                        help="the students' copy's git address, for the hub's links")
    parser.add_argument("--only", nargs="+", default=[], metavar="PREFIX",
                        help="only the lectures whose file names start so")
    parser.add_argument("--jobs", type=int, default=1, help="lectures executed at once [1]")
    parser.add_argument("--budget-mb", type=float, default=0.0,
                        help="fail when the site is larger than this many MB (10^6 bytes)")
    args = parser.parse_args(argv)
    if bool(args.hub) != bool(args.git):
        parser.error("--hub and --git go together (the hub's address and the students' copy)")
    if args.binder and args.binder.count("/") != 1:
        parser.error(f"--binder takes OWNER/REPO, not {args.binder!r}")
    try:
        report = build_site(args.repo.resolve(), args.out,
                            links=SiteLinks(args.binder, args.hub, args.git),
                            only=tuple(args.only), jobs=args.jobs)
    except Exception as err:
        print(f"make site: {type(err).__name__}: {err}", file=sys.stderr)
        return 1
    for lec in report.lectures:
        print(f"{lec.page}: {lec.bytes / 1e6:.2f} MB, step widgets: {lec.stepping}, "
              f"needing a kernel: {lec.kernel_notes}, ran {lec.seconds:.0f} s")
    print(f"{args.out}: {report.bytes / 1e6:.2f} MB in all, built in {report.seconds:.0f} s")
    if args.budget_mb and report.bytes > args.budget_mb * 1e6:
        print(f"the site is over its budget of {args.budget_mb:g} MB", file=sys.stderr)
        return 1
    return 0
