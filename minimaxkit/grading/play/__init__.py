"""Assignment 5 and the class tournament: a student's Connect Four evaluation, run in the
sandboxed child (:mod:`~minimaxkit.isolation`) as a batch of boards at a time, checked,
and played by the kit's searches in the trusted process against a ladder of reference
players."""
