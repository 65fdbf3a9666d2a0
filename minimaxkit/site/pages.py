"""The site's pages, from jinja2 templates: each lecture through nbconvert's HTML exporter
with the kit's template (``templates/minimaxkit_lecture``, which extends nbconvert's ``lab``
page), and the index.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import jinja2
from nbformat import NotebookNode

__all__ = ["TEMPLATES", "PageLink", "lecture_title", "lecture_summary", "has_math",
           "render_lecture", "render_index", "IndexEntry", "BundledScripts"]

TEMPLATES = Path(__file__).parent / "templates"
_HEADING = re.compile(r"^#\s+(.+?)\s*$", re.M)
_MATH = re.compile(r"\$[^$\n]+\$|\\\(|\\\[")


@dataclass(frozen=True)
class PageLink:
    """A link to another page of the site: where, and its title."""

    href: str
    title: str


@dataclass(frozen=True)
class IndexEntry:
    """One lecture on the index page."""

    href: str
    title: str
    summary: str
    widgets: int
    places: list[tuple[str, str]] = field(default_factory=list)


def _plain(markdown: str) -> str:
    """``markdown`` without its links' targets, emphasis and code marks."""
    text = re.sub(r"!?\[([^\]]*)\]\([^)]*\)", r"\1", markdown)
    return re.sub(r"[*_`]+", "", text).strip()


def lecture_title(nb: NotebookNode, fallback: str) -> str:
    """The lecture's first ``#`` heading, as plain text (``fallback`` when it has none)."""
    for cell in nb.cells:
        if cell.cell_type == "markdown" and (found := _HEADING.search(cell.source)):
            return _plain(found.group(1))
    return fallback


def lecture_summary(nb: NotebookNode, limit: int = 320) -> str:
    """The first paragraph of prose after the title, cut at a sentence within ``limit``."""
    for cell in nb.cells:
        if cell.cell_type != "markdown":
            continue
        for para in re.split(r"\n\s*\n", cell.source):
            para = para.strip()
            if para and not para.startswith(("#", "|", "-", "*", ">", "<", "```")):
                text = " ".join(_plain(para).split())
                if len(text) <= limit:
                    return text
                cut = text[:limit]
                return cut[: cut.rfind(". ") + 1] if ". " in cut else cut.rsplit(" ", 1)[0] + "…"
    return ""


def has_math(nb: NotebookNode) -> bool:
    """Whether a markdown cell holds TeX (``$...$``, ``\\(``, ``\\[``): its page loads MathJax."""
    return any(cell.cell_type == "markdown" and _MATH.search(cell.source) for cell in nb.cells)


def render_lecture(nb: NotebookNode, *, name: str, site: dict[str, Any]) -> str:
    """The HTML page of ``nb`` (executed and readied), ``site`` being what the template
    reads (``root``: the way up to the site's top folder, ``previous``/``next``:
    :class:`PageLink` or None, ``places``: (name, link) pairs, ``math``)."""
    from nbconvert import HTMLExporter

    exporter = HTMLExporter(template_name="minimaxkit_lecture",
                            extra_template_basedirs=[str(TEMPLATES)])
    body, _ = exporter.from_notebook_node(nb, resources={"metadata": {"name": name},
                                                         "site": site})
    return str(body)


@dataclass(frozen=True)
class BundledScripts:
    """The npm packages the site serves: each one's version, and the licence files copied
    beside them (names in ``js/licenses/``)."""

    versions: dict[str, str]
    licences: tuple[str, ...] = ()


def render_index(*, title: str, summary: str, lectures: list[IndexEntry],
                 places: list[str], scripts: BundledScripts) -> str:
    """The site's index page."""
    env = jinja2.Environment(loader=jinja2.FileSystemLoader(TEMPLATES),
                             autoescape=True, undefined=jinja2.StrictUndefined)
    return env.get_template("index.html.j2").render(
        title=title, summary=summary, lectures=lectures, places=places, versions=scripts.versions,
        licences=scripts.licences)
