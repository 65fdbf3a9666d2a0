"""The instructor's commands for a whole class: autograde N submissions at a time
(:mod:`.autograde`, on the workers of :mod:`.workers`), the class report (:mod:`.report`),
the class tournament of assignment 5 (:mod:`.tournament`), the stored reference data
(:mod:`.refresh`), a trial course of sample submissions (:mod:`.trial`), Canvas's files in
and out of nbgrader (:mod:`.canvas`) and grading on submission on a hub (:mod:`.ongoing`).
The first four are also ``python -m minimaxkit.grading.<name>``, as the docs name them."""
