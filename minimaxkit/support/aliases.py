"""The old import paths of modules that moved when the kit was laid out by concern: a notebook,
a configuration or a script written before still imports ``minimaxkit.table`` or
``minimaxkit.matches`` and gets the module that now holds it (the same module object, so
``minimaxkit.table.TranspositionTable is minimaxkit.search.transposition.TranspositionTable``).
The instructors' commands (``python -m minimaxkit.grading.report`` and the others) are real
modules of their own, since ``python -m`` needs a file.

>>> import minimaxkit.table, minimaxkit.search.transposition
>>> minimaxkit.table is minimaxkit.search.transposition
True
"""

from __future__ import annotations

import importlib
import importlib.abc
import importlib.util
import sys
from collections.abc import Sequence
from importlib.machinery import ModuleSpec
from types import ModuleType

__all__ = ["OLD_PATHS", "install"]

#: old module path -> the module that holds it now
OLD_PATHS: dict[str, str] = {
    "minimaxkit.table": "minimaxkit.search.transposition",
    "minimaxkit.bounds": "minimaxkit.search.knuth_moore",
    "minimaxkit._trace_json": "minimaxkit.trace.codec",
    "minimaxkit._trace_paths": "minimaxkit.trace.paths",
    "minimaxkit._replay_views": "minimaxkit.replay.views",
    "minimaxkit.narration": "minimaxkit.replay.narration",
    "minimaxkit.matches": "minimaxkit.arena.matches",
    "minimaxkit.ratings": "minimaxkit.arena.ratings",
    "minimaxkit.swiss": "minimaxkit.arena.swiss",
    "minimaxkit.standings": "minimaxkit.arena.standings",
    "minimaxkit.class_autograde": "minimaxkit.classroom.autograde",
    "minimaxkit.workers": "minimaxkit.classroom.workers",
    "minimaxkit._lazy": "minimaxkit.support.lazy",
    "minimaxkit._gc": "minimaxkit.support.gc_pause",
    "minimaxkit.games.samples": "minimaxkit.grading.evaluation.boards",
    "minimaxkit.grading.course": "minimaxkit.classroom.trial",
    "minimaxkit.grading.play": "minimaxkit.grading.evaluation",
    "minimaxkit.grading.play.checks": "minimaxkit.grading.evaluation.play_check",
    "minimaxkit.grading.play.childside": "minimaxkit.grading.evaluation.childside",
    "minimaxkit.grading.play.evaluators": "minimaxkit.grading.evaluation.evaluators",
    "minimaxkit.grading.play.notebook": "minimaxkit.grading.evaluation.notebook",
    "minimaxkit.grading.play.playgrade": "minimaxkit.grading.evaluation.ladder",
    "minimaxkit.grading.play.report": "minimaxkit.grading.evaluation.feedback",
    "minimaxkit.grading.play.tournament": "minimaxkit.classroom.tournament",
    "minimaxkit.grading.verdicts.checks": "minimaxkit.grading.verdicts.scoring",
    "minimaxkit.grading.verdicts.report": "minimaxkit.grading.verdicts.feedback",
    "minimaxkit.isolation.kernelbox": "minimaxkit.isolation.sandboxed_kernel",
    "minimaxkit.lecture.checks": "minimaxkit.lecture.search_checks",
    "minimaxkit.lecture.checks45": "minimaxkit.lecture.ordering_checks",
    "minimaxkit.widgets._kernel": "minimaxkit.widgets.disconnected",
    "minimaxkit.draw.game_pages": "minimaxkit.arena.game_pages",
}


class _OldPathFinder(importlib.abc.MetaPathFinder, importlib.abc.Loader):
    """Finds an old path of :data:`OLD_PATHS` and loads it as the module that holds it now."""

    def find_spec(self, fullname: str, path: Sequence[str] | None,
                  target: ModuleType | None = None) -> ModuleSpec | None:
        if fullname not in OLD_PATHS:
            return None
        return importlib.util.spec_from_loader(fullname, self)

    def create_module(self, spec: ModuleSpec) -> ModuleType:
        return importlib.import_module(OLD_PATHS[spec.name])

    def exec_module(self, module: ModuleType) -> None:
        """Nothing to run: the module was imported under its new path."""


_FINDER = _OldPathFinder()


def install() -> None:
    """Let the old paths be imported (once; importing the kit does it)."""
    if _FINDER not in sys.meta_path:
        sys.meta_path.append(_FINDER)
