"""Replaying a search's trace: what the search had done after each event (:mod:`.frames`),
read-only views of the events before a step (:mod:`.views`), and each step in words
(:mod:`.narration`)."""

from .frames import (
    Frame,
    Level,
    Replay,
    first_divergence,
    fmt,
    frame_at,
    node_namer,
    replay,
    state_at,
)

__all__ = ["Level", "Frame", "Replay", "replay", "fmt", "first_divergence", "state_at",
           "node_namer", "frame_at"]
