# correct: the solution as given in the assignment (cut on equality, fail-soft)
