"""Sample searches with one known mistake each, written against the student interface as a
student would write them, in every convention: a submission that evaluates exactly what one
of them evaluates (and returns what it returns) on every tree is named as having that bug.
They are the grader's own code and run in its process, on a recorder of the tree."""
