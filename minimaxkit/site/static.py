"""An executed lecture readied for a page without a kernel.

* Only the widget models the outputs show are kept (the pre-save hook's rule,
  :func:`minimaxkit.widgets.savehook.keep_shown_widgets`).
* The "run this cell to see the widget" hint before each kit widget goes: on the site the
  widget itself shows, from its saved state.
* A widget that needs its kernel (the quiz, the play widget, lecture 3's hand trace,
  whose Check is answered by the kernel, a step widget whose trace was too long to
  pre-render) is replaced by a note that says so and links to where the lecture runs
  (Binder, the course's hub); its dead buttons are not shown.

>>> note = kernel_note("quiz", SiteLinks(binder_repo="me/course"), "03_alphabeta.ipynb")
>>> "mybinder.org/v2/gh/me/course/HEAD?urlpath=lab/tree/notebooks/03_alphabeta.ipynb" in note
True
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any
from urllib.parse import quote

from markupsafe import Markup, escape
from nbformat import NotebookNode
from nbformat.v4 import new_output

from ..widgets.disconnected import RERUN_TEXT
from ..widgets.savehook import STATE, VIEW, keep_shown_widgets

__all__ = ["SiteLinks", "ready_for_site", "kernel_note", "KERNEL_WIDGETS", "StaticCounts"]

#: The CSS classes of the kit's widgets that need a kernel to do anything, and what each is.
KERNEL_WIDGETS = {"mmk-quiz": "quiz", "mmk-play": "game",
                  "mmk-hand-trace": "hand-trace exercise"}


@dataclass(frozen=True)
class SiteLinks:
    """Where a reader can run a lecture: the students' copy on Binder (``OWNER/REPO`` on
    GitHub) and a JupyterHub with nbgitpuller (the hub's address and the students' copy's
    git address). Either may be missing."""

    binder_repo: str = ""
    hub_url: str = ""
    git_url: str = ""

    def binder(self, notebook: str) -> str:
        """The Binder link that opens ``notebook`` (a file in ``notebooks/``), or ""."""
        return self.binder_file(f"notebooks/{notebook}")

    def binder_file(self, path: str) -> str:
        """The Binder link that opens ``path`` (relative to the students' copy's top
        folder, e.g. ``assignments/a1_minimax/a1_minimax.ipynb``), or ""."""
        if not self.binder_repo:
            return ""
        return (f"https://mybinder.org/v2/gh/{self.binder_repo}/HEAD?urlpath="
                f"lab/tree/{quote(path)}")

    def hub(self, notebook: str) -> str:
        """The nbgitpuller link on the hub that opens ``notebook``, or ""."""
        return self.hub_file(f"notebooks/{notebook}")

    def hub_file(self, path: str) -> str:
        """The nbgitpuller link on the hub that opens ``path`` (relative to the students'
        copy's top folder), or ""."""
        if not (self.hub_url and self.git_url):
            return ""
        folder = self.git_url.rstrip("/").rsplit("/", 1)[-1].removesuffix(".git")
        urlpath = f"lab/tree/{folder}/{path}"
        return (f"{self.hub_url.rstrip('/')}/hub/user-redirect/git-pull?repo="
                f"{quote(self.git_url, safe='')}&branch=main&urlpath={quote(urlpath, safe='')}")

    def places(self, notebook: str) -> list[tuple[str, str]]:
        """(name, link) of each place that runs ``notebook`` (a file in ``notebooks/``)."""
        return self.places_of_file(f"notebooks/{notebook}")

    def places_of_file(self, path: str) -> list[tuple[str, str]]:
        """(name, link) of each place that opens ``path`` (relative to the students'
        copy's top folder)."""
        found = [("Binder", self.binder_file(path)),
                 ("the course's JupyterHub", self.hub_file(path))]
        return [(name, link) for name, link in found if link]


@dataclass(frozen=True)
class StaticCounts:
    """What :func:`ready_for_site` did to a lecture."""

    dropped_models: int
    dropped_hints: int
    kernel_notes: int


def kernel_note(what: str, links: SiteLinks, notebook: str) -> str:
    """The HTML that stands for a widget that needs a kernel, with links to where it runs."""
    places = links.places(notebook)
    if places:
        where = Markup(" or ").join(
            Markup('<a href="{}">{}</a>').format(link, name) for name, link in places)
        run = Markup("Open this lecture on {} and run the cell there.").format(where)
    else:
        run = Markup("Run the lecture in Jupyter (<code>make lab</code> in the course "
                     "folder) to use it.")
    return str(Markup(
        '<div class="mmk-site-kernel-note" role="note"><strong>This {} needs a running '
        "Python kernel</strong>, which this page does not have: its answers are computed "
        "as you click. {}</div>").format(escape(what), run))


def _root_classes(data: dict[str, Any], models: dict[str, Any]) -> list[str]:
    model = models.get(data[VIEW].get("model_id", ""), {})
    classes = model.get("state", {}).get("_dom_classes", [])
    return [c for c in classes if isinstance(c, str)]


def _kernel_widget(classes: list[str]) -> str:
    """What a widget with these classes is, if it needs a kernel; else ""."""
    for cls, what in KERNEL_WIDGETS.items():
        if cls in classes:
            return what
    if "mmk-step" in classes or "mmk-compare" in classes:
        return "" if "mmk-standalone" in classes else "step widget"
    return ""


def ready_for_site(nb: NotebookNode, links: SiteLinks, notebook: str) -> StaticCounts:
    """Change ``nb`` (an executed lecture, file name ``notebook``) in place for a static page,
    as the module's docstring says; return what was done."""
    dropped_models = keep_shown_widgets(nb)
    widgets = nb.metadata.get("widgets", {}).get(STATE, {})
    models = widgets.get("state", {}) if isinstance(widgets, dict) else {}
    hints = notes = 0
    for cell in nb.cells:
        outputs = []
        for output in cell.get("outputs", []):
            data = output.get("data", {})
            if data.get("text/plain") == RERUN_TEXT:
                hints += 1
                continue
            if VIEW in data and (what := _kernel_widget(_root_classes(data, models))):
                notes += 1
                output = new_output("display_data", data={
                    "text/html": kernel_note(what, links, notebook),
                    "text/plain": f"This {what} needs a running Python kernel."})
            outputs.append(output)
        if cell.cell_type == "code":
            cell.outputs = outputs
    # the models only the replaced widgets showed go too
    dropped_models += keep_shown_widgets(nb)
    return StaticCounts(dropped_models, hints, notes)
