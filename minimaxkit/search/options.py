"""The searches' options, checked before a search starts, and the record a checked set of
options travels in (:class:`SearchOptions`).

Every public search first calls :func:`prepare` (the game, the start state, the depth limit,
the order); a wrong option is an :class:`~minimaxkit.errors.OptionError` naming it, a wrong
tree a :class:`~minimaxkit.errors.TreeError` naming the node, before anything is searched.

>>> from minimaxkit.examples import sheet_tree
>>> start = prepare(sheet_tree().with_static(), None, 2, None)
>>> start.state.name, start.depth
('A', 2)
>>> try:
...     prepare(sheet_tree(), None, 2, None)  # E, two moves down, has no static value
... except TreeError as err:
...     print(err.path)
(0, 0)
>>> try:
...     check_window((0, "9"))
... except OptionError as err:
...     print(err.option, "-", err.problem)
window - must be a pair (alpha, beta) with alpha < beta, got (0, '9')
"""

from __future__ import annotations

import difflib
import math
import numbers
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from ..errors import OptionError, TreeError
from ..game import Game
from ..tree import GameTree
from .ordering import Order, check_order
from .transposition import TranspositionTable

__all__ = ["INF", "Window", "FAIL_MODES", "MAX_TREE_DEPTH", "SearchOptions", "Start", "check_game",
           "check_depth", "reject_unknown", "check_conventions", "check_table", "check_window",
           "prepare"]

INF = math.inf
#: A node's window (α, β), from MAX's view.
Window = tuple[float, float]

#: What a node returns (docs/design.md, *Return conventions*): "soft" the best value found,
#: "hard" that value clamped into the node's window [α, β], "one-sided" the value of a search
#: that starts at the node's own bound (α at MAX, β at MIN) and is never clamped at the other.
FAIL_MODES = ("soft", "hard", "one-sided")

#: The deepest tree a search will recurse into (one Python frame per level; the recursion
#: limit is raised for the search's duration). Deeper trees get a TreeError before the search.
MAX_TREE_DEPTH = 50_000


@dataclass(frozen=True)
class SearchOptions:
    """How one search goes, its options already checked. ``algorithm`` names it in the
    result; ``depth`` is its depth limit (None: to the end of the game); ``prune`` stops a
    node as soon as its value reaches the far end of its window (simple pruning and
    alpha-beta), with ``prune_on_equal`` deciding whether reaching it is enough or the value
    must pass it; ``narrow`` narrows the children's window as values come in (alpha-beta);
    ``window`` is the root's (α, β); ``fail`` what a node returns (:data:`FAIL_MODES`);
    ``order`` the children's order; ``trace`` whether the events are recorded; ``shown`` the
    options as the result reports them.

    >>> options = SearchOptions("minimax", depth=2)
    >>> options.prune, options.window, options.limit, SearchOptions("minimax").limit
    (False, (-inf, inf), 2, -1)
    """

    algorithm: str
    depth: int | None = None
    prune: bool = False
    narrow: bool = False
    window: tuple[float, float] = (-INF, INF)
    prune_on_equal: bool = True
    fail: str = "soft"
    order: Order = None
    trace: bool = True
    shown: Mapping[str, Any] = field(default_factory=dict, repr=False)

    @property
    def limit(self) -> int:
        """The depth limit as the searches count it: -1 for none."""
        return -1 if self.depth is None else self.depth


@dataclass(frozen=True)
class Start:
    """Where a search starts, checked: the ``game``, the start ``state`` (the game's initial
    state when none was given) and the depth limit ``depth``."""

    game: Game
    state: Any
    depth: int | None


def check_game(game: Any) -> Game:
    """``game`` as given, after checking it follows the protocol (an :class:`OptionError`
    saying what it lacks, or that a nested list must be made a tree first)."""
    if isinstance(game, (list, tuple)):
        raise OptionError("game", "got a nested list; make a tree first with "
                                  "GameTree.from_nested(...)")
    if not isinstance(game, Game):
        missing = [m for m in ("initial_state", "moves", "play", "is_max", "evaluate",
                               "value_range") if not hasattr(game, m)]
        raise OptionError("game", f"{type(game).__name__} is not a game: it lacks {missing}")
    return game


def check_depth(depth: Any, name: str = "depth") -> int | None:
    """``depth`` as given, after checking it is None or a whole number >= 0.

    >>> check_depth(3), check_depth(None)
    (3, None)
    """
    if depth is not None and (isinstance(depth, bool) or not isinstance(depth, int)
                              or depth < 0):
        raise OptionError(name, f"must be None or a whole number >= 0, got {depth!r}")
    return depth  # type: ignore[no-any-return,unused-ignore]


def reject_unknown(unknown: dict[str, Any], known: Sequence[str]) -> None:
    """Raise :class:`OptionError` for the first unknown keyword, suggesting a near name.

    >>> try:
    ...     reject_unknown({"dept": 2}, ("depth", "trace"))
    ... except OptionError as err:
    ...     print(err.problem)
    unknown option; did you mean 'depth'? The options are ['depth', 'trace']
    """
    for name in unknown:
        near = difflib.get_close_matches(name, known, n=1)
        hint = f"; did you mean {near[0]!r}?" if near else ""
        raise OptionError(name, f"unknown option{hint} The options are {sorted(known)}")


def check_conventions(prune_on_equal: Any, fail: Any) -> None:
    """Raise :class:`OptionError` unless the cut rule and the fail mode are ones the kit has."""
    if not isinstance(prune_on_equal, bool):
        raise OptionError("prune_on_equal", f"must be True or False, got {prune_on_equal!r}")
    if fail not in FAIL_MODES:
        raise OptionError("fail", f"must be 'soft', 'hard' (clamped into [alpha, beta]) or "
                                  f"'one-sided' (the example sheet's form), got {fail!r}")


def check_table(table: Any, tt: Any = False) -> None:
    """Raise :class:`OptionError` unless ``table`` is None or a TranspositionTable (and
    ``tt`` is not also asked for: one table at a time)."""
    if table is not None and not isinstance(table, TranspositionTable):
        raise OptionError("table", f"must be None or a TranspositionTable() (from "
                                   f"minimaxkit.search.transposition), got {table!r}")
    if table is not None and tt:
        raise OptionError("table", "give tt=True or a table, not both")


def check_window(window: Any) -> tuple[float, float]:
    """``window`` as the pair (alpha, beta), after checking it is two real numbers (not
    booleans) with alpha < beta."""
    try:
        lo, hi = window
        ok = all(isinstance(x, numbers.Real) and not isinstance(x, bool) for x in (lo, hi)) \
            and lo < hi
    except (TypeError, ValueError):
        ok = False
    if not ok:
        raise OptionError("window", f"must be a pair (alpha, beta) with alpha < beta, "
                                    f"got {window!r}")
    return lo, hi


def prepare(game: Any, state: Any, depth: Any, order: Any) -> Start:
    """Check where a search starts and how deep it goes, before it starts: the game, the
    depth limit, the start state (the initial state when None; on a tree, a node of that
    tree, at most :data:`MAX_TREE_DEPTH` levels above its deepest leaf unless the depth limit
    is smaller, with a static value at every interior node the depth limit stops at) and the
    order."""
    game = check_game(game)
    depth = check_depth(depth)
    state = game.initial_state() if state is None else state
    if isinstance(game, GameTree):
        _check_tree_start(game, state, depth)
    check_order(game, order, depth, state if isinstance(game, GameTree) else None)
    return Start(game, state, depth)


def _check_tree_start(tree: GameTree, state: Any, depth: int | None) -> None:
    if not tree.contains(state):
        raise TreeError(getattr(state, "path", ()),
                        f"the start state {state!r} is not a node of the tree being "
                        "searched (a node of another tree?); pass tree.node(path)")
    height = tree.height - len(state.path)
    if height > MAX_TREE_DEPTH and (depth is None or depth > MAX_TREE_DEPTH):
        raise TreeError(state.path, f"the tree is {height} levels deep below the start; "
                                    f"searches go at most {MAX_TREE_DEPTH} levels deep "
                                    "(give a smaller depth)")
    tree.check_static(depth, state)
