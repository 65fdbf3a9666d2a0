"""Grading on submission on a JupyterHub (docs/hub.md, *Grading on submission*): a hub
service, run as the instructor, that notices each new submission in nbgrader's exchange,
grades it as the class command does (sandboxed, into the course's gradebook), and releases
its feedback, so that the student fetches a grade minutes after submitting.

:mod:`.inbound` reads the exchange, :mod:`.ledger` keeps what was done (and the history of
every graded submission), :mod:`.steps` runs nbgrader's and the kit's commands for one
submission, :mod:`.service` decides what to grade next (``python -m
minimaxkit.classroom.ongoing``).
"""
