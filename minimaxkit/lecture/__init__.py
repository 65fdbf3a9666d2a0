"""Helpers for the lecture notebooks: exercise checks, worked answers, matches.

* ``check(name, ...)`` tests a reader's answer to exercise ``name`` and returns a
  :class:`Verdict` (shown as a green or red note). A wrong or missing answer is reported,
  never raised, so a notebook still runs top to bottom before its exercises are done.
* ``show_answer(name)`` returns the worked answer as an :class:`Answer`, which JupyterLab
  shows folded (an HTML ``<details>`` element): it stays hidden until the reader opens it.
* ``player(search, **options)`` and ``play_game(game, x, o)`` play a match between searches.
* ``forest(n, ...)`` and ``mean_leaves(trees, ...)`` measure searches over random trees.
* ``hand_table(result)`` writes an alpha-beta run as a hand-trace table (α and β per level).

Modules for one job each: ``hand_trace`` (a trace to fill in by hand, judged entry by
entry), ``conventions`` (the correct ways to write alpha-beta, as the checks accept them),
``check_trees`` (the trees the checks run searches on), ``opponents`` (expectimax, faster
wins), ``timing`` (the lecture time model behind the README's minutes).

>>> check("km_4_5", 79)
✓ km_4_5: 4^3 + 4^2 - 1 = 79.
>>> check("km_4_5", 80).ok
False
>>> "79" in show_answer("km_4_5").text
True
"""

from __future__ import annotations

import html
import inspect
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

from ..search import alphabeta
from ..tree import GameTree
from ._reader import NoResult
from .exercises import EXERCISES, Exercise
from .handtable import HandTable, hand_table
from .search_checks import Failed

__all__ = ["Verdict", "Answer", "Exercise", "check", "show_answer", "player", "play_game",
           "forest", "mean_leaves", "hand_table", "HandTable", "EXERCISES"]


@dataclass(frozen=True)
class Verdict:
    """The outcome of :func:`check`: ``ok`` and a message saying why."""

    exercise: str
    ok: bool
    message: str

    def __bool__(self) -> bool:
        return self.ok

    def __repr__(self) -> str:
        return f"{'✓' if self.ok else '✗ not yet'} {self.exercise}: {self.message}"

    def _repr_html_(self) -> str:
        color, mark = ("#1a7f37", "✓") if self.ok else ("#b35900", "✗ not yet")
        # a message may end in a board drawn on several lines: that part as it is typed;
        # or in a list ("- " lines), wrapped between words as prose (a list in <pre> broke
        # inside words: "your o|ther", outside student pass 8)
        words, _, drawn = self.message.partition("\n")
        lines = drawn.splitlines()
        if lines and all(line.startswith("- ") for line in lines):
            items = "".join(f"<li>{html.escape(line[2:])}</li>" for line in lines)
            board = f'<ul style="margin:2px 0;line-height:1.45">{items}</ul>'
        else:
            board = (f'<pre style="margin:2px 0;line-height:1.2">{html.escape(drawn)}</pre>'
                     if drawn else "")
        return (f'<div style="border-left:4px solid {color};padding:2px 8px">'
                f'<b style="color:{color}">{mark}</b> <code>{self.exercise}</code>: '
                f"{html.escape(words)}{board}</div>")


@dataclass(frozen=True)
class Answer:
    """A worked answer: explanation ``text`` and, for coding exercises, ``code``."""

    exercise: str
    text: str
    code: str = ""

    def __repr__(self) -> str:
        return f"Worked answer to {self.exercise}:\n{self.text}\n\n{self.code}".rstrip()

    def _repr_html_(self) -> str:
        paragraphs = "".join(f"<p>{html.escape(p)}</p>" for p in self.text.split("\n\n"))
        code = f"<pre>{html.escape(self.code)}</pre>" if self.code else ""
        return (f"<details><summary><b>Worked answer: {self.exercise}</b> "
                f"(click to open)</summary>{paragraphs}{code}</details>")



def check(name: str, *args: Any, **kwargs: Any) -> Verdict:
    """Check the answer to exercise ``name``: a verdict for every answer, right or wrong,
    of any kind (a wrong one is reported, never raised).

    >>> check("maxmin", lambda x: 0).message
    "check('maxmin', ...) takes 2 answers (max_min, min_max), given 1: two functions, \
max_min(x) and min_max(x), each returning a node's value: check('maxmin', max_min, min_max)"
    """
    if name not in EXERCISES:
        return Verdict(str(name), False,
                       f"no exercise {name!r}; the exercises are {sorted(EXERCISES)}")
    ex = EXERCISES[name]
    given = [*args, *kwargs.values()]
    if not given or all(a is None or a is Ellipsis for a in given):
        return Verdict(name, False, "no answer yet: replace the None above with yours")
    signature = inspect.signature(ex.check)
    try:
        signature.bind(*args, **kwargs)
    except TypeError:
        takes = [p for p in signature.parameters if p not in ("want", "what")]
        if unknown := [k for k in kwargs if k not in takes]:
            return Verdict(name, False, (
                f"check({name!r}, ...) has no answer called {', '.join(map(repr, unknown))}: "
                f"its answers are {', '.join(takes)}; {ex.expects}"))
        return Verdict(name, False, (
            f"check({name!r}, ...) takes {len(takes)} answer{'s' * (len(takes) != 1)} "
            f"({', '.join(takes)}), given {len(given)}: {ex.expects}"))
    try:
        ok, message = ex.check(*args, **kwargs)
    except NoResult as failed:  # it raised, looped, returned None: say what was expected
        ok, message = False, _expecting(str(failed), ex.expects)
    except Failed as failed:  # a diagnosis of the answer's own
        ok, message = False, str(failed)
    except KeyboardInterrupt:
        ok, message = False, f"interrupted before the check finished; expected {ex.expects}"
    except Exception as err:  # an answer no check foresaw: still a verdict, not a traceback
        ok, message = False, (f"this answer cannot be checked ({type(err).__name__}: "
                              f"{err}); expected {ex.expects}")
    return Verdict(name, ok, message)


def _expecting(message: str, expects: str) -> str:
    """``message`` with what the check takes, said before a board drawn below it.

    >>> _expecting("it raised ValueError: boom", "a number")
    'it raised ValueError: boom; expected a number'
    >>> _expecting("is it one step too soon?\\nX..", "a number")
    'is it one step too soon? Expected a number.\\nX..'
    """
    words, newline, drawn = message.partition("\n")
    if not expects or expects in words:
        return message
    words = (f"{words} Expected {expects}." if words.endswith((".", "?"))
             else f"{words}; expected {expects}")
    return words + newline + drawn


def show_answer(name: str) -> Answer:
    """The worked answer to exercise ``name``, folded until opened."""
    if name not in EXERCISES:
        raise KeyError(f"no exercise {name!r}; the exercises are {sorted(EXERCISES)}")
    ex = EXERCISES[name]
    return Answer(name, ex.text, ex.code)


# ----- matches -------------------------------------------------------------------------------
Player = Callable[[Any, Any], Any]


def player(search: Callable[..., Any], **options: Any) -> Player:
    """A player that moves where ``search(game, state, **options)`` says (its ``.move``).

    >>> from minimaxkit import minimax
    >>> from minimaxkit.games import TicTacToe
    >>> player(minimax, depth=1)(TicTacToe(), 0)
    4
    """
    if "trace" in inspect.signature(search).parameters:
        options.setdefault("trace", False)

    def move(game: Any, state: Any) -> Any:
        return search(game, state, **options).move

    move.__name__ = f"{search.__name__}({', '.join(f'{k}={v!r}' for k, v in options.items())})"
    return move


def play_game(game: Any, max_player: Player, min_player: Player,
              state: Any = None) -> Sequence[Any]:
    """Play to the end; return the states from ``state`` (the start by default) to the last.

    >>> from minimaxkit.games import TicTacToe
    >>> perfect = player(alphabeta)
    >>> TicTacToe().evaluate(play_game(TicTacToe(), perfect, perfect)[-1]) == 0  # a draw
    True
    """
    states = [game.initial_state() if state is None else state]
    while game.moves(states[-1]):
        mover = max_player if game.is_max(states[-1]) else min_player
        states.append(game.play(states[-1], mover(game, states[-1])))
    return states


# ----- measuring over random trees ---------------------------------------------------------------
def forest(n: int, *, depth: int, branching: int | tuple[int, int] = 2,
           noise: float | None = None, values: tuple[int, int] = (0, 9999)) -> list[GameTree]:
    """``n`` random trees (seeds 0 .. n-1) with distinct leaf values drawn from ``values``;
    with ``noise`` given, interior nodes carry static values (``with_static(noise=...)``).

    >>> [len(t.leaves()) for t in forest(2, depth=3, branching=2)]
    [8, 8]
    """
    trees = [GameTree.random(depth=depth, branching=branching, values=values, ties=False,
                             seed=seed) for seed in range(n)]
    if noise is None:
        return trees
    return [t.with_static(noise=noise, seed=seed) for seed, t in enumerate(trees)]


def mean_leaves(trees: Sequence[Any], search: Callable[..., Any] = alphabeta,
                **options: Any) -> float:
    """The mean number of leaves ``search(tree, **options)`` evaluates over ``trees``.

    >>> from minimaxkit.examples import aima_5_2, sheet_tree
    >>> mean_leaves([sheet_tree(), aima_5_2()])
    11.5
    """
    return sum(search(t, trace=False, **options).stats.leaves for t in trees) / len(trees)
