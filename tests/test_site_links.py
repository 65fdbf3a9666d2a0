"""Every link between the pages of the course website leads to a file of the site
(docs/site.md, *Links*). The site is built (as ``make site`` builds it) from two lectures:
the glossary, which links to every lecture, and lecture 6, which links to lectures the
build leaves out and to its assignment; without a browser, every local ``href``/``src`` of
every page is resolved against the folder.

The rewriting of the links itself is checked on the lectures' own markdown, without a build.
"""

from __future__ import annotations

import re
import subprocess
import sys
from html.parser import HTMLParser
from pathlib import Path
from urllib.parse import unquote, urlsplit

import nbformat
import pytest

from minimaxkit.site.crosslinks import rewrite_markdown
from minimaxkit.site.static import SiteLinks

REPO = Path(__file__).resolve().parents[1]
LECTURES = sorted((REPO / "notebooks").glob("*.ipynb"))
BINDER = "OWNER/REPO"


class _Targets(HTMLParser):
    """The ``href`` and ``src`` of every element of a page."""

    def __init__(self) -> None:
        super().__init__()
        self.found: list[str] = []

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        self.found += [value for name, value in attrs if name in ("href", "src") and value]


def dead_links(site: Path) -> list[str]:
    """Every local href/src of every page of ``site`` that names no file of the site, as
    ``page: target``."""
    dead = []
    for page in sorted(site.rglob("*.html")):
        parser = _Targets()
        parser.feed(page.read_text(encoding="utf-8"))
        for target in parser.found:
            parts = urlsplit(target)
            if parts.scheme or parts.netloc or not parts.path:
                continue  # another host, mailto:, data:, or an anchor in the page
            if not (page.parent / unquote(parts.path)).resolve().is_file():
                dead.append(f"{page.relative_to(site)}: {target}")
    return dead


def _links(path: Path) -> list[str]:
    nb = nbformat.read(path, as_version=4)
    return [target for cell in nb.cells if cell.cell_type == "markdown"
            for target in re.findall(r"\]\(([^)\s]+)", cell.source)]


@pytest.mark.parametrize("lecture", LECTURES, ids=lambda p: p.stem)
def test_no_notebook_link_survives_on_a_page(lecture: Path) -> None:
    pages = {p.stem for p in LECTURES}
    nb = nbformat.read(lecture, as_version=4)
    for links in (SiteLinks(), SiteLinks(BINDER, "https://hub.example.edu",
                                         "https://github.com/OWNER/REPO")):
        for cell in nb.cells:
            if cell.cell_type != "markdown":
                continue
            targets = re.findall(r"\]\(([^)\s]+)", rewrite_markdown(cell.source, pages, links))
            local = [t for t in targets if not t.startswith(("http://", "https://", "#"))]
            assert all(re.fullmatch(r"[0-9a-z_]+\.html(#[\w-]+)?", t) for t in local), local


def test_lecture_and_assignment_links() -> None:
    pages = {"03_alphabeta", "glossary"}
    assert rewrite_markdown("the [glossary](glossary.ipynb#alpha-beta).", pages, SiteLinks()) \
        == "the [glossary](glossary.html#alpha-beta)."
    # a lecture the site left out, and an assignment: no Binder, so the text alone
    text = ("**Next:** [Assignment 2 · Alpha-beta](../assignments/a2_alphabeta/"
            "a2_alphabeta.ipynb) and [Lecture 4](04_move_ordering.ipynb).")
    assert rewrite_markdown(text, pages, SiteLinks()) == \
        "**Next:** Assignment 2 · Alpha-beta and Lecture 4."
    # with Binder and the hub: where the assignment opens
    both = rewrite_markdown(text, pages, SiteLinks(BINDER, "https://hub.example.edu",
                                                   "https://github.com/OWNER/REPO"))
    assert both.startswith(
        "**Next:** Assignment 2 · Alpha-beta (open it on [Binder](https://mybinder.org/v2/gh/"
        "OWNER/REPO/HEAD?urlpath=lab/tree/assignments/a2_alphabeta/a2_alphabeta.ipynb) or "
        "[the course's JupyterHub](https://hub.example.edu/hub/user-redirect/git-pull?repo="
        "https%3A%2F%2Fgithub.com%2FOWNER%2FREPO&branch=main&urlpath=lab%2Ftree%2FREPO%2F"
        "assignments%2Fa2_alphabeta%2Fa2_alphabeta.ipynb))"), both
    # other hosts and anchors in the page stay
    kept = "[x](https://example.org/a.ipynb) [y](#ply) [z](mailto:a@b.c)"
    assert rewrite_markdown(kept, pages, SiteLinks()) == kept


def test_the_lectures_link_to_an_assignment() -> None:
    """The case the rewriting is for is in the lectures (else the build test proves less)."""
    assert any(t.startswith("../assignments/") for t in _links(REPO / "notebooks" /
                                                                "06_evaluation.ipynb"))


@pytest.mark.slow
@pytest.mark.skipif(not (REPO / "node_modules" / "requirejs").is_dir(),
                    reason="the site copies its scripts from node_modules: run `npm ci`")
@pytest.mark.timeout(900)
@pytest.mark.parametrize("binder", ["", BINDER])
def test_every_local_link_of_the_site_resolves(binder: str, tmp_path: Path) -> None:
    out = tmp_path / "site"
    command = [sys.executable, "-m", "minimaxkit.site", str(out), "--only", "glossary", "06"]
    done = subprocess.run(command + (["--binder", binder] if binder else []), cwd=REPO,
                          capture_output=True, text=True, timeout=900)
    assert done.returncode == 0, done.stdout + done.stderr
    pages = sorted(p.relative_to(out).as_posix() for p in out.rglob("*.html"))
    assert pages == ["index.html", "lectures/06_evaluation.html", "lectures/glossary.html"]
    assert dead_links(out) == []
    glossary = (out / "lectures" / "glossary.html").read_text(encoding="utf-8")
    lecture6 = (out / "lectures" / "06_evaluation.html").read_text(encoding="utf-8")
    assert 'href="06_evaluation.html"' in glossary
    assert 'href="glossary.html"' in lecture6
    binder_a5 = ("https://mybinder.org/v2/gh/OWNER/REPO/HEAD?urlpath=lab/tree/assignments/"
                 "a5_evaluation/a5_evaluation.ipynb")
    assert (binder_a5 in lecture6) == bool(binder)
    assert "Assignment 5 · Evaluation" in lecture6
