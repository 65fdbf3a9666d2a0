"""The instructor's commands for a whole class: autograde N submissions at a time
(:mod:`.autograde`, on the workers of :mod:`.workers`), the class report (:mod:`.report`),
the class tournament of assignment 5 (:mod:`.tournament`), the stored reference data
(:mod:`.refresh`) and a trial course of sample submissions (:mod:`.trial`). Each command is
also ``python -m minimaxkit.grading.<name>``, as the docs name it."""
