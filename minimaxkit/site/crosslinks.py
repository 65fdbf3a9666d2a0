"""The links between a lecture and the rest of the course, rewritten for the site.

In the repository a lecture links to the others and to the glossary as ``NN_name.ipynb``
and to its assignment as ``../assignments/aN_name/aN_name.ipynb``. The site has an HTML
page for each lecture it built and no ``assignments/`` folder, so each link in a markdown
cell is rewritten:

* to another lecture the site has: its page (``03_alphabeta.html``), the anchor kept;
* to any other notebook of the course (an assignment, a lecture left out by ``--only``):
  the places that open it (Binder, the course's hub) when the site is built with them,
  else the link's text alone, so that no link leads nowhere;
* to any other file of the repository: the link's text alone (the site does not have it);
* to another host, a ``mailto:``, or an anchor in the same page: left as it is.

>>> links = SiteLinks(binder_repo="me/course")
>>> rewrite_markdown("[glossary](glossary.ipynb#ply)", {"glossary"}, links)
'[glossary](glossary.html#ply)'
>>> rewrite_markdown("[A1](../assignments/a1_minimax/a1_minimax.ipynb)", set(), SiteLinks())
'A1'
>>> print(rewrite_markdown("[A1](../assignments/a1/a1.ipynb)", set(), links))
A1 (open it on [Binder](https://mybinder.org/v2/gh/me/course/HEAD?urlpath=lab/tree/assignments/a1/a1.ipynb))
"""

from __future__ import annotations

import posixpath
import re
from dataclasses import dataclass

from nbformat import NotebookNode

from .static import SiteLinks

__all__ = ["rewrite_markdown", "rewrite_lecture_links", "CrossLink"]

#: An inline markdown link or picture: ``[text](target "title")``, the target maybe in <>.
_LINK = re.compile(r'(?P<bang>!?)\[(?P<text>[^\]]*)\]\(\s*<?(?P<target>[^)\s>]*)>?'
                   r'(?P<title>\s+"[^"]*")?\s*\)')
_SCHEME = re.compile(r"^[a-zA-Z][a-zA-Z0-9+.-]*:")


@dataclass(frozen=True)
class CrossLink:
    """A link's target read against the repository: the file (relative to the repository's
    top folder, "" when the target is outside it) and the anchor ("" or ``#name``)."""

    path: str
    anchor: str

    @classmethod
    def of(cls, target: str) -> CrossLink | None:
        """The target of a link in a lecture (a file of ``notebooks/``), or None when it is
        not a file of the course (another host, ``mailto:``, an anchor in the page)."""
        if not target or target.startswith(("#", "/")) or _SCHEME.match(target):
            return None
        path, _, anchor = target.partition("#")
        resolved = posixpath.normpath(posixpath.join("notebooks", path))
        return cls("" if resolved.startswith("..") else resolved, f"#{anchor}" if anchor else "")


def _rewritten(found: re.Match[str], pages: set[str], links: SiteLinks) -> str:
    link = CrossLink.of(found["target"])
    if link is None:
        return found[0]
    folder, name = posixpath.split(link.path)
    stem, suffix = posixpath.splitext(name)
    if folder == "notebooks" and suffix == ".ipynb" and stem in pages:
        return (f"{found['bang']}[{found['text']}]({stem}.html{link.anchor}"
                f"{found['title'] or ''})")
    places = links.places_of_file(link.path) if suffix == ".ipynb" and link.path else []
    if not places:
        return found["text"]
    where = " or ".join(f"[{place}]({url}{link.anchor})" for place, url in places)
    return f"{found['text']} (open it on {where})"


def rewrite_markdown(source: str, pages: set[str], links: SiteLinks) -> str:
    """``source`` (a markdown cell of a lecture) with its links rewritten as the module's
    docstring says; ``pages`` are the stems of the lectures the site has a page for."""
    return _LINK.sub(lambda found: _rewritten(found, pages, links), source)


def rewrite_lecture_links(nb: NotebookNode, pages: set[str], links: SiteLinks) -> int:
    """Rewrite the links of every markdown cell of ``nb`` in place; return how many cells
    changed."""
    changed = 0
    for cell in nb.cells:
        if cell.cell_type == "markdown":
            new = rewrite_markdown(cell.source, pages, links)
            changed += new != cell.source
            cell.source = new
    return changed
