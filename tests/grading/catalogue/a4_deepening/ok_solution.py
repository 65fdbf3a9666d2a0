# ruff: noqa: F821 - the notebook defines math and the functions of its other cells
# correct: the solution as given in the assignment (cut on equality, fail-soft)
