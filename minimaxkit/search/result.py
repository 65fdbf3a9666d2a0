"""What a search returns: :class:`SearchResult`.

>>> from minimaxkit.examples import sheet_tree
>>> from minimaxkit.search import alphabeta
>>> r = alphabeta(sheet_tree())
>>> r.value, r.move, r.pv, r.stats
(5, 1, (1, 0, 2), Stats(nodes=27, leaves=16, expanded=11, cutoffs=4, tt_hits=0))
>>> dict(r.options)["fail"], r.algorithm
('soft', 'alphabeta')
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from types import MappingProxyType
from typing import Any

from ..trace import Stats, Trace

__all__ = ["SearchResult"]


@dataclass(frozen=True)
class SearchResult:
    """What a search found and how: ``value`` and ``move`` at the root, the principal
    variation ``pv`` (move labels), the ``trace`` (None when ``trace=False``) and ``stats``;
    the ``algorithm`` that ran with its ``options`` (read-only), and the ``game`` and start
    ``state`` it searched (for drawing and replaying it)."""

    value: float
    move: Any
    pv: tuple[Any, ...]
    trace: Trace | None
    stats: Stats
    algorithm: str
    options: Mapping[str, Any] = field(default_factory=dict)
    game: Any = field(default=None, repr=False, compare=False)
    state: Any = field(default=None, repr=False, compare=False)

    def __post_init__(self) -> None:
        # a result is a record of what happened: its options are read-only
        object.__setattr__(self, "options", MappingProxyType(dict(self.options)))

    def __reduce__(self) -> Any:
        fields = [getattr(self, f) for f in ("value", "move", "pv", "trace", "stats",
                                              "algorithm")]
        return (SearchResult, (*fields, dict(self.options), self.game, self.state))

    def _repr_png_(self) -> bytes | None:
        try:
            from ..draw import result_png
        except ImportError:
            return None
        return result_png(self)

    def _repr_mimebundle_(self, include: Any = None, exclude: Any = None
                          ) -> tuple[dict[str, Any], dict[str, Any]] | None:
        """The picture as PNG, and as HTML ``<img>`` with its text alternative (drawn once)."""
        try:
            from ..draw.render import result_bundle
        except ImportError:
            return None
        return result_bundle(self)
