"""Canvas and nbgrader (docs/grading.md, *Canvas*): the roster in from Canvas's gradebook
export (:mod:`.roster`), submissions downloaded from Canvas collected with their user ids
and times (:mod:`.collect`), and grades out in Canvas's gradebook import format
(:mod:`.export`). The file formats themselves are in :mod:`.files` and :mod:`.gradebook`.
"""
