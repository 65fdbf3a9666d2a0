"""Whole-class instructor commands (the layout of docs/design.md): Canvas's files in and out
of nbgrader (:mod:`.canvas`) and grading on submission on a hub (:mod:`.ongoing`)."""
