"""Widgets for JupyterLab, Notebook 7 and Binder, built from ipywidgets only: step through a
search, compare two searches, quiz yourself on alpha-beta, play against a search.

Importing this package imports matplotlib (through :mod:`minimaxkit.draw`), so that the
cell that shows a widget does not pay for it.
"""

from .. import draw as _draw  # noqa: F401  (import cost paid here, not when a widget shows)
from .play import PlayWidget, evaluation_search
from .quiz import QuizWidget, Verdict
from .step import CompareWidget, StepWidget

__all__ = ["StepWidget", "CompareWidget", "QuizWidget", "Verdict", "PlayWidget",
           "evaluation_search"]
