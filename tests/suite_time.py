"""How long the whole suite takes, measured by each whole run, and the README's sentence kept
honest with it (docs/benchmarks.md, *The test suite*).

A whole run (``make test``, or ``pytest`` with no paths, ``-k`` or ``-m``) records in
``.test-cache/last-run.json`` its wall time, the processor seconds of every process it
started (the xdist workers and what they ran, waited for), its test counts, whether the
graded class (tests/grading/graded_class.py) was built in it, and the seconds of each test
file (``.test-cache/file-times.json``; ``tests/file_times.json`` is a committed copy, by which
the longest files are scheduled first).

The README states the time of ``make test`` on a quiet 2-core machine, in a fresh clone (the
graded class built) and, optionally, with the graded class cached::

    about 9 minutes on a 2-core machine (1,400 tests; about 6 minutes when ...cached...)

A whole run checks that figure (:func:`check`) in both directions that load cannot excuse:
the processor time over two cores is at most :data:`FACTOR` times the figure (a machine's
load stretches the wall, not the processor seconds), and the wall time is at least the
figure over :data:`FACTOR` (no load makes a run faster than the quiet machine's).

>>> stated_minutes("It takes about 9 minutes on a 2-core machine (1,317 tests; about 6 "
...                "minutes when the graded class is cached).")
(9.0, 6.0)
>>> check(wall=500, processor=1000, fresh=True, stated=(9.0, 6.0))
[]
>>> check(wall=500, processor=2500, fresh=True, stated=(9.0, 6.0))  # doctest: +ELLIPSIS
['...20.8 processor-minutes over 2 cores...']
>>> check(wall=150, processor=700, fresh=False, stated=(9.0, 6.0))  # doctest: +ELLIPSIS
['...took 2.5 minutes on the wall...']
"""

from __future__ import annotations

import re
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
README = REPO / "README.md"
#: how far the README's figure may be from a run's measure, either way
FACTOR = 2.0
CORES = 2

_FRESH = re.compile(r"about (\d+(?:\.\d+)?) minutes on a 2-core machine")
_CACHED = re.compile(r"about (\d+(?:\.\d+)?) minutes when the graded class is cached")


def stated_minutes(text: str) -> tuple[float | None, float | None]:
    """The README's minutes for ``make test`` in a fresh clone and with the graded class
    cached (``None`` where it states none)."""
    fresh, cached = _FRESH.search(text), _CACHED.search(text)
    return (float(fresh.group(1)) if fresh else None,
            float(cached.group(1)) if cached else None)


def check(*, wall: float, processor: float, fresh: bool,
          stated: tuple[float | None, float | None]) -> list[str]:
    """What is wrong with the README's figure for a whole run of ``wall`` seconds and
    ``processor`` processor-seconds (the graded class built in it if ``fresh``)."""
    figure = stated[0] if fresh or stated[1] is None else stated[1]
    which = "in a fresh clone" if fresh or stated[1] is None else "with the graded class cached"
    if figure is None:
        return ["README.md states no time for `make test` (\"about N minutes on a 2-core "
                "machine\"): see docs/benchmarks.md, *The test suite*"]
    wrong = []
    over_cores = processor / CORES / 60
    if over_cores > FACTOR * figure:
        wrong.append(f"README.md says `make test` takes about {figure:g} minutes {which}; this "
                     f"run used {processor / 60:.1f} processor-minutes, "
                     f"{over_cores:.1f} processor-minutes over {CORES} cores: more than "
                     f"{FACTOR:g} times the figure. Measure it again (docs/benchmarks.md).")
    if wall / 60 < figure / FACTOR:
        wrong.append(f"README.md says `make test` takes about {figure:g} minutes {which}; this "
                     f"run took {wall / 60:.1f} minutes on the wall, less than 1/{FACTOR:g} of "
                     f"the figure. Measure it again (docs/benchmarks.md).")
    return wrong
