"""What a kit widget shows when the kernel that made it is not there: a notebook saved
without widget state says "run this cell" instead of the front end's "model not found"
(:class:`RerunHint`), and a widget that needs its kernel (the quiz, the play widget, a
live-mode step widget) says to run its cell again once the front end marks it
disconnected (:func:`needs_kernel`).
"""

from __future__ import annotations

import os

import ipywidgets as w

__all__ = ["RerunHint", "RERUN_TEXT", "RERUN_HTML", "needs_kernel", "NEEDS_KERNEL_TEXT"]


#: What a widget's output says where the front end cannot show it (no saved widget state and
#: no kernel that made it, or a page that cannot run widgets: nbconvert, GitHub, feedback).
RERUN_TEXT = "Run this cell to see the widget."
#: Shown above the widget's own output. Its CSS (``:has``) hides it as soon as the widget
#: beside it renders, and hides the widget output while it has no content: JupyterLab's and
#: Notebook 7's widget manager writes "Loading widget..." there, and, when the notebook was
#: saved without widget state, "Error displaying widget: model not found" (a fixed text in
#: @jupyter-widgets/jupyterlab-manager with no fallback to another MIME type).
RERUN_HTML = (
    '<div class="mmk-rerun" style="font-size:13px;color:#111111;padding:4px 8px;'
    'border-left:4px solid #0b4f8a;background:#eef4fa">▶ ' + RERUN_TEXT + " (This widget "
    "needs the kernel that made it: the notebook was saved without its widget state, or was "
    "opened somewhere that cannot show widgets.)</div>"
    "<style>.jp-OutputArea-child:has(.mmk-rerun):has(+ .jp-OutputArea-child "
    ".jp-OutputArea-output > *) {display: none;}"
    ".jp-OutputArea-child:has(.mmk-rerun) + .jp-OutputArea-child "
    '.jp-OutputArea-output[data-mime-type="application/vnd.jupyter.widget-view+json"]'
    ":not(:has(> *)) {display: none;}</style>")


#: Shown inside a widget that needs its kernel (the quiz, the play widget, a live-mode step
#: widget, the hand trace) when the front end has marked it disconnected: the kernel that
#: made it was restarted or shut down, or the notebook was reopened from its saved widget
#: state.
#: Hidden otherwise (CSS on the front end's ``jupyter-widgets-disconnected`` class).
NEEDS_KERNEL_TEXT = ("▶ Run this cell again to use the {what}: it needs the kernel that made "
                     "it (the kernel was restarted, or the notebook reopened), and until "
                     "then {until}.")
_NEEDS_KERNEL_UNTIL = {"quiz": "Check and New tree do nothing",
                       "play": "clicking a column or cell does nothing",
                       "step": "the steps not yet shown cannot be drawn",
                       "trace": "Check does nothing"}
NEEDS_KERNEL_CSS = (
    "<style>.jupyter-widgets.mmk-needs-kernel { display: none !important; }"
    ".jupyter-widgets.mmk-needs-kernel.jupyter-widgets-disconnected { display: flex "
    "!important; height: auto; }</style>")


def needs_kernel(what: str) -> w.HTML:
    """An HTML part for a widget that needs its kernel: hidden while the widget is
    connected; the "run this cell again" note once the front end marks it disconnected
    (its CSS applies though the part is hidden: a hidden element's ``<style>`` still counts).

    >>> "Check and New tree do nothing" in needs_kernel("quiz").value
    True
    """
    text = NEEDS_KERNEL_TEXT.format(what={"play": "game", "step": "widget",
                                          "trace": "hand trace"}.get(what, what),
                                    until=_NEEDS_KERNEL_UNTIL[what])
    note = w.HTML(NEEDS_KERNEL_CSS + '<div class="mmk-needs-kernel-note" role="status" '
                  'style="font-size:13px;line-height:1.4;color:#111111;padding:4px 8px;'
                  'margin:2px 0;'
                  f'border-left:4px solid #0b4f8a;background:#eef4fa">{text}</div>',
                  tooltip="")
    note.add_class("mmk-needs-kernel")
    return note


class RerunHint:
    """Mixin for the kit's widgets: displayed, a widget puts :data:`RERUN_HTML` out first
    (an output of its own, hidden while the widget shows) and says :data:`RERUN_TEXT` as its
    plain text, so a notebook reopened without widget state never reads "model not found".

    While nbgrader runs the notebook (``NBGRADER_EXECUTION`` set: autograde, validate) the
    widget puts out that hint only, as ``explore`` shows a picture there: no one can use a
    widget in the graded copy, and nbconvert writes a widget's output into the feedback page
    as a ``<script>`` (jQuery's ``$('#...')`` and the view's JSON) that a page without a
    kernel or widget manager cannot run."""

    def _ipython_display_(self) -> None:
        from IPython.display import display

        display({"text/html": RERUN_HTML, "text/plain": RERUN_TEXT}, raw=True)
        if os.environ.get("NBGRADER_EXECUTION"):
            return
        bundle = self._repr_mimebundle_()  # type: ignore[attr-defined]
        data = bundle[0] if isinstance(bundle, tuple) else bundle
        if data:
            data["text/plain"] = f"{type(self).__name__}: {RERUN_TEXT}"
            display(data, raw=True)


