"""Moved to :mod:`minimaxkit.student` (the student interface lives in the core)."""

from ..student import (  # noqa: F401
    CHILDREN,
    ESTIMATE,
    STATIC,
    MissingCall,
    NodeInfo,
    ReadOnlyTree,
    Recorder,
    SearchNode,
    TooManyCalls,
    _question,
    evaluated_in,
)
