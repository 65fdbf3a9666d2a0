"""How large a tree drawing's figure is: room for every leaf's label at the smallest
legible font (11 px), levels tall enough for the triangles that hold a bound."""

from __future__ import annotations

from ..replay import fmt
from .model import TreeModel
from .style import inner_node_size, min_font_pt

__all__ = ["figsize_for", "compact_figsize"]


def compact_figsize(model: TreeModel, *, legend: bool = True, title: bool = False,
                    dpi: float = 80, chars: int | None = None) -> tuple[float, float]:
    """A figure (inches) as wide as :func:`figsize_for` makes it (every label 11 px at
    ``dpi``, names beside their nodes) but only as tall as its triangles need (levels at
    least 0.55 inch apart): for two pictures one above the other (the compare widget).
    ``chars`` is the longest value an interior node shows, without its ``≤`` / ``≥``
    (default: the longest leaf value's).

    >>> from minimaxkit.examples import sheet_tree
    >>> [round(x, 2) for x in compact_figsize(TreeModel.of_tree(sheet_tree()), title=True)]
    [10.42, 3.46]
    """
    width, _ = figsize_for(model, legend=legend, title=title, dpi=dpi)
    fmin = min_font_pt(dpi)
    if chars is None:
        chars = max((len(fmt(v)) for v in model.values.values()), default=1)
    level = max(0.55, (inner_node_size(chars, fmin) + 6.0) / 72 / 0.95)
    height = level * (model.height + 1.35)
    return width, height + (0.45 if legend else 0) + (0.3 if title else 0)


def figsize_for(model: TreeModel, *, legend: bool = True, title: bool = False,
                dpi: float = 100) -> tuple[float, float]:
    """A figure size (inches) that gives every leaf room: about a third of an inch per
    leaf up to 100 leaves, more where a leaf's value or name at the smallest legible font
    (11 px at ``dpi``) needs it, at most 20 inches wide.

    >>> from minimaxkit.examples import sheet_tree
    >>> [round(x, 2) for x in figsize_for(TreeModel.of_tree(sheet_tree()), dpi=80)]
    [10.42, 4.45]
    """
    n = model.n_leaves
    per_leaf = 0.36 if n <= 40 else 0.2 if n <= 100 else 0.04
    if n <= 100:  # values (and up to 40 leaves, names) are drawn: each needs its room
        fmin = min_font_pt(dpi)
        chars = max((len(fmt(v)) for v in model.values.values()), default=1)
        if n <= 40:
            # a list: ``max(chars, *names)`` fails when no leaf is drawn (a cut top level)
            chars = max([chars, *(len(model.names[p]) for p in model.leaves)])
        per_leaf = max(per_leaf, (0.66 * fmin * chars + 5.0) / 0.92 / 72)
    width = min(max(per_leaf * n + 0.7, 3.4), 20.0)
    level = 0.95
    if n <= 100:  # levels tall enough for triangles that hold a bound like ≤0.3
        chars = max((len(fmt(v)) for v in model.values.values()), default=1)
        chars = max(chars, model.inner_chars)
        level = max(level, (inner_node_size(chars, min_font_pt(dpi)) + 16.0) / 72 / 0.85)
    height = min(max(level * (model.height + 1) + 0.2, 1.8), 9.0)
    return width, height + (0.45 if legend else 0) + (0.3 if title else 0)
