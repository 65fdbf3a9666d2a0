"""How a tree drawing of a game's search letters its nodes (the play widget's search
picture): each node's name, the move that reached it, written right above the node where
the edge from its parent arrives (beside the node, in the gap between two, it read as
either's); and a bound that every value meets (``≥`` the game's lowest value, ``≤`` its
highest) drawn as :data:`NOTHING_KNOWN`, not as news.

>>> Lettering(value_range=(-1, 1)).said("≥-1"), Lettering(value_range=(-1, 1)).said("≥0")
('?', '≥0')
>>> Lettering().said("≥-1")                 # (no value range known: drawn as it is)
'≥-1'
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from ..replay import fmt

__all__ = ["Lettering", "PLAIN", "NOTHING_KNOWN", "edge_name"]

#: What a node shows when its bound says nothing.
NOTHING_KNOWN = "?"


@dataclass(frozen=True)
class Lettering:
    """``names_on_edges``: write each node's name above it (its move); ``value_range``: the
    game's lowest and highest values (None: unknown, every bound drawn as it is)."""

    names_on_edges: bool = False
    value_range: tuple[float, float] | None = None

    def said(self, text: str) -> str:
        """``text`` (a node's value or bound) as drawn: :data:`NOTHING_KNOWN` for a bound
        that every value meets."""
        if self.value_range is not None and text in (
                f"≥{fmt(self.value_range[0])}", f"≤{fmt(self.value_range[1])}"):
            return NOTHING_KNOWN
        return text


#: Names beside their nodes, every bound drawn as it is (lecture trees, every drawing but
#: the play widget's search picture).
PLAIN = Lettering()


def edge_name(ax: Any, at: tuple[float, float], name: str, font: float, color: str) -> Any:
    """A node's ``name`` centred at ``at`` (data coordinates, just above the node) on a
    white ground that the edge from its parent runs under, so that it names this edge and
    its child and no other."""
    return ax.text(at[0], at[1], name, ha="center", va="center", fontsize=font,
                   color=color, zorder=4,
                   bbox={"boxstyle": "round,pad=0.12", "fc": "#ffffff", "ec": "none"})
