"""Assignment 5's play grade: the class's openings drawn from a public book with the course's
secret, and points on a scale stated with their uncertainty.

The games at a node budget are deterministic, so a grade played from openings a student
can see could be tuned to them. Here the graded openings come from :data:`BOOK` (every
2- and 3-move opening, up to mirror image, that the kit's evaluation judges balanced;
the openings ever released are left out), one draw for the whole class
(:func:`draw_openings`, from a seed the grading layer derives from the course's secret);
:data:`PRACTICE` is only for the student's own runs. Each rung of :data:`LADDER` plays the
first ``openings`` of the draw, each opening once as X and once as O, and earns points on a
straight line from its ``zero`` share to its ``full`` share (:class:`Rung`), the share
counted against the reference solution's share of the same games
(:meth:`Rung.scale_for`). :func:`rung_result` states the share with a 95% interval over the
draw of openings (``benchmarks/bench_a5_play_grade.py`` measures how often it holds, and
how often the points are those of an evaluation 10 points of share away).

>>> draw_openings(7, 3) == draw_openings(7, 3), draw_openings(7, 3) == draw_openings(8, 3)
(True, False)
>>> kit = Rung("kit", openings=4, zero=0.3, full=0.6)
>>> r = rung_result(kit, [(1, 0), (1, 1), (0.5, 1), (1, 0.5)])
>>> r.share, r.earned
(0.75, 2.0)
>>> print(r.text())
won 75% ± 20% of the points in 8 games against the kit (5 won, 2 drawn, 1 lost): 2 of 2 points
"""

from __future__ import annotations

import hashlib
import itertools
import math
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

__all__ = ["BOOK", "PRACTICE", "RETIRED", "LADDER", "Rung", "RungResult", "mirror_opening",
           "balanced_openings", "draw_openings", "share_interval", "rung_result",
           "ladder_of", "practice_of"]

#: The opening a student's own runs play (in the released notebook); never graded.
PRACTICE: tuple[str, ...] = ("33",)
#: Openings graded, and so released, before: out of the book, and so are their mirror
#: images.
RETIRED: tuple[str, ...] = ("33", "32", "34", "23")

#: Every opening of 2 or 3 moves, one of each mirror pair, that :func:`balanced_openings`
#: keeps, less :data:`PRACTICE` and :data:`RETIRED` (137; a test recomputes it).
BOOK: tuple[str, ...] = (
    "00", "01", "02", "03", "04", "05", "06", "10", "11", "12", "13", "14", "15", "16",
    "20", "21", "22", "24", "25", "31",
    "000", "001", "002", "005", "006", "010", "011", "012", "014", "015", "016", "020",
    "021", "022", "023", "024", "025", "026", "030", "031", "032", "033", "034", "035",
    "036", "040", "041", "042", "043", "044", "045", "046", "050", "051", "052", "054",
    "055", "056", "060", "061", "062", "064", "065", "066", "100", "102", "106", "110",
    "111", "112", "114", "115", "116", "120", "121", "122", "123", "124", "125", "126",
    "130", "131", "132", "133", "134", "135", "136", "140", "141", "142", "144", "145",
    "146", "150", "151", "152", "155", "156", "160", "162", "164", "166", "200", "201",
    "205", "206", "210", "212", "216", "220", "221", "224", "225", "226", "230", "231",
    "232", "233", "234", "235", "236", "240", "241", "245", "246", "250", "251", "256",
    "260", "261", "266", "300", "320", "321", "326", "330", "331",
)


@dataclass(frozen=True)
class Rung:
    """One rung of the ladder: the reference player ``name`` (``random``, ``weak`` or
    ``kit``), how many openings of the student's draw it plays (each twice: as X and as
    O), and its ``points`` earned on a straight line between the share of the games'
    points ``zero`` (nothing) and ``full`` (all), to a tenth of a point.

    >>> rung = Rung("kit", openings=40, zero=0.3, full=0.6)
    >>> [rung.earned(s) for s in (0.25, 0.5, 0.58, 0.7)]
    [0.0, 1.3, 1.9, 2.0]
    """

    name: str
    openings: int
    zero: float
    full: float
    points: float = 2.0

    def __post_init__(self) -> None:
        if not 0 <= self.zero < self.full <= 1:
            raise ValueError(f"rung {self.name!r}: need 0 <= zero < full <= 1, got zero="
                             f"{self.zero!r}, full={self.full!r}")
        if isinstance(self.openings, bool) or not isinstance(self.openings, int) \
                or self.openings < 1:
            raise ValueError(f"rung {self.name!r}: openings must be a whole number >= 1, "
                             f"got {self.openings!r}")

    @property
    def who(self) -> str:
        """The opponent in words: ``the kit``, ``random``, ``weak``."""
        return "the kit" if self.name == "kit" else self.name

    def earned(self, share: float, scale: float = 1.0) -> float:
        """The points for a share of the games' points (a win 1, a draw ½), counted
        ``scale`` times (see :meth:`scale_for`).

        >>> Rung("kit", openings=40, zero=0.3, full=0.6).earned(0.5, scale=0.6 / 0.55)
        1.6
        """
        part = min(max((share * scale - self.zero) / (self.full - self.zero), 0.0), 1.0)
        return round(self.points * part, 1) + 0.0

    def scale_for(self, reference: float | None) -> float:
        """How a share counts on games where the reference solution won only the share
        ``reference`` of the points, less than :attr:`full`: ``full / reference`` times, so
        that the reference earns all the rung's points, and so does any evaluation that does
        as well on the same games, and a share of 0 still earns none. 1 where the reference
        reached ``full``, won nothing, or is not known.

        >>> kit = Rung("kit", openings=40, zero=0.3, full=0.6)
        >>> round(kit.scale_for(0.5), 4), kit.scale_for(0.7), kit.scale_for(None)
        (1.2, 1.0, 1.0)
        """
        if reference is None or reference <= 0 or reference >= self.full:
            return 1.0
        return self.full / reference


#: The chosen design (see docs/grading.md, *Assignment 5*, for its measured error rates).
LADDER: tuple[Rung, ...] = (
    Rung("random", openings=4, zero=0.75, full=0.95),
    Rung("weak", openings=20, zero=0.5, full=0.85),
    Rung("kit", openings=40, zero=0.3, full=0.6),
)


@dataclass(frozen=True)
class RungResult:
    """What a rung's games came to: the game points won of ``games``, the share with the
    half-width of its 95% interval, the games won, drawn and lost, and the points
    earned."""

    rung: Rung
    won_points: float
    games: int
    share: float
    half_width: float
    won: int
    drawn: int
    lost: int
    #: the reference solution's share of the points of the same games (None: not known)
    reference: float | None = None

    @property
    def scale(self) -> float:
        """How the share counts on these games (:meth:`Rung.scale_for`)."""
        return self.rung.scale_for(self.reference)

    @property
    def earned(self) -> float:
        """The rung's points for :attr:`share` (:meth:`Rung.earned`), counted
        :attr:`scale` times."""
        return self.rung.earned(self.share, self.scale)

    def _spread(self) -> str:
        """The 95% interval after the share: `` ± 9%``, or, where that would reach past 0%
        or 100% (few games, or a share at either end), the interval itself (a student read
        "won 100% ± 98%" of two practice games).

        >>> rung = LADDER[0]
        >>> RungResult(rung, 7.5, 8, 0.9375, 0.12, 7, 1, 0)._spread()
        ' (95% interval: 82% to 100%)'
        >>> RungResult(rung, 4.0, 8, 0.5, 0.3, 3, 2, 3)._spread()
        ' ± 30%'
        """
        low, high = self.share - self.half_width, self.share + self.half_width
        if low >= 0 and high <= 1:
            return f" ± {self.half_width:.0%}"
        return f" (95% interval: {max(low, 0.0):.0%} to {min(high, 1.0):.0%})"

    def text(self, *, opponent: bool = True) -> str:
        """One line for the feedback, e.g. ``won 58% ± 9% of the points in 80 games
        against the kit (...): 1.9 of 2 points`` (without ``against ...`` if not
        ``opponent``); where the scale moved down, what the reference solution won."""
        who = f" against {self.rung.who}" if opponent else ""
        line = (f"won {self.share:.0%}{self._spread()} of the points in {self.games} "
                f"games{who} ({self.won} won, {self.drawn} drawn, {self.lost} lost): "
                f"{self.earned:g} of {self.rung.points:g} points")
        if self.scale > 1:
            line += (f" (the reference solution won {self.reference:.0%} of these games' "
                     f"points: that share earns all {self.rung.points:g})")
        return line


def mirror_opening(opening: str, columns: int = 7) -> str:
    """The opening reflected left to right.

    >>> mirror_opening("024")
    '642'
    """
    return "".join(str(columns - 1 - int(c)) for c in opening)


def balanced_openings(plies: Sequence[int] = (2, 3), *, depth: int = 6,
                      margin: float = 200.0) -> list[str]:
    """Every opening of ``plies`` moves, one of each mirror pair (the smaller string), whose
    minimax value at ``depth`` more moves with the kit's evaluation is within ``margin``
    of 0 (200: no side ahead by more than an open three's worth, ``E = 5`` of the kit's
    evaluation); shortest first. A fixed-depth minimax value, so it depends on no search
    order or budget. (About 20 s for the default.)

    >>> balanced_openings((1,), depth=2)   # after 3, X is ahead by more
    ['0', '1', '2']
    """
    from ...arena.matches import GAME
    from ...search import alphabeta

    out = []
    for n in plies:
        for moves in itertools.product("0123456", repeat=n):
            opening = "".join(moves)
            if opening > mirror_opening(opening):
                continue
            state = GAME.state_from_moves(opening)
            value = alphabeta(GAME, state, depth=depth, order="static", trace=False).value
            if abs(value) <= margin:
                out.append(opening)
    return out


def draw_openings(seed: int, n: int, book: Sequence[str] = BOOK) -> list[str]:
    """``n`` different openings of ``book`` for the draw whose seed is ``seed`` (the grading
    layer derives the class's from the course's secret): the book ordered by a hash of the
    seed and each opening, so the same on every machine and Python version.

    >>> draw_openings(1, 4)
    ['051', '200', '054', '256']
    """
    if isinstance(n, bool) or not isinstance(n, int) or not 0 <= n <= len(book):
        raise ValueError(f"cannot draw {n!r} openings from a book of {len(book)}")
    if len(set(book)) != len(book):
        raise ValueError("the book holds an opening twice")

    def key(opening: str) -> bytes:
        return hashlib.sha256(f"{seed}\0{opening}".encode()).digest()

    return sorted(book, key=key)[:n]


def share_interval(pairs: Sequence[tuple[float, float]], book_size: int | None = None
                   ) -> tuple[float, float]:
    """The share of the points in ``pairs`` (the points of the two games of each opening:
    as X, as O) and the half-width of its 95% interval, the openings being the sample: the
    spread of the pairs' shares (at least a quarter of that of two independent games at
    the share, so that a clean sweep does not claim certainty), less the part of the book
    drawn (``book_size``, drawn without replacement).

    >>> share, half = share_interval([(1, 0)] * 3 + [(1, 1)] * 5)
    >>> round(share, 4), round(half, 3)
    (0.8125, 0.179)
    """
    n = len(pairs)
    if n == 0:
        raise ValueError("no games to state a share of")
    means = [(x + o) / 2 for x, o in pairs]
    share = sum(means) / n
    spread = sum((m - share) ** 2 for m in means) / (n - 1) if n > 1 else 0.25
    shrunk = (2 * n * share + 1) / (2 * n + 2)  # never 0 or 1
    var = max(spread, shrunk * (1 - shrunk) / 8) / n
    if book_size is not None and book_size > 1:
        var *= max(book_size - n, 0) / (book_size - 1)
    return share, 1.96 * math.sqrt(var)


def rung_result(rung: Rung, pairs: Sequence[tuple[float, float]],
                book_size: int | None = None, *, reference: float | None = None) -> RungResult:
    """The result of ``rung`` from the student's points in each opening's two games;
    ``reference``: the reference solution's share of the points of the same games."""
    for x, o in pairs:
        for v in (x, o):
            if v not in (0, 0.5, 1):
                raise ValueError(f"a game's points are 0, 0.5 or 1, got {v!r}")
    share, half = share_interval(pairs, book_size)
    games = [v for pair in pairs for v in pair]
    return RungResult(rung, sum(games), len(games), share, half, games.count(1),
                      games.count(0.5), games.count(0), reference)


_RUNG_KEYS = {"name", "openings", "zero", "full", "points"}


def ladder_of(spec: dict[str, Any]) -> tuple[Rung, ...]:
    """The rungs of a play question of ``tests.json`` (``"ladder"``: a list of ``{"name",
    "openings", "zero", "full"}``, ``"points"`` optional); a malformed one is the
    instructor's error, named with the rung.

    >>> ladder_of({"ladder": [{"name": "kit", "openings": 40, "zero": 0.3, "full": 0.6}]})
    (Rung(name='kit', openings=40, zero=0.3, full=0.6, points=2.0),)
    >>> ladder_of({"ladder": [{"name": "kit", "margin": 0.6}]})
    Traceback (most recent call last):
    ...
    ValueError: tests.json, play ladder, rung 1: needs the keys full, name, openings, zero \
(and may have points), got margin, name
    """
    rungs = spec.get("ladder")
    if not isinstance(rungs, list) or not rungs:
        raise ValueError("tests.json, play: 'ladder' must be a list of rungs")
    out = []
    for i, r in enumerate(rungs, 1):
        where = f"tests.json, play ladder, rung {i}"
        if not isinstance(r, dict) or not {"name", "openings", "zero", "full"} <= set(r) \
                or not set(r) <= _RUNG_KEYS:
            got = ", ".join(sorted(r)) if isinstance(r, dict) else repr(r)
            raise ValueError(f"{where}: needs the keys full, name, openings, zero (and may "
                             f"have points), got {got}")
        if r["name"] not in ("random", "weak", "kit"):
            raise ValueError(f"{where}: unknown opponent {r['name']!r} (random, weak or kit)")
        try:
            out.append(Rung(r["name"], r["openings"], float(r["zero"]), float(r["full"]),
                            float(r.get("points", 2.0))))
        except (TypeError, ValueError) as err:
            raise ValueError(f"{where}: {err}") from None
        if r["openings"] > len(BOOK):
            raise ValueError(f"{where}: {r['openings']} openings, the book holds {len(BOOK)}")
    return tuple(out)


def practice_of(spec: dict[str, Any]) -> tuple[str, ...]:
    """The openings a student's own runs play (``"practice"``, default :data:`PRACTICE`);
    one of the book's would tell the student part of a draw.

    >>> practice_of({}), practice_of({"practice": ["33", "32"]})
    (('33',), ('33', '32'))
    """
    got = tuple(spec.get("practice", PRACTICE))
    seen = set(BOOK) | {mirror_opening(o) for o in BOOK}
    if not got or not all(isinstance(o, str) for o in got) or seen & set(got):
        raise ValueError(f"tests.json, play: 'practice' must be openings outside the book, "
                         f"got {list(got)!r}")
    return got
