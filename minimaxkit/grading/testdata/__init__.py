"""Grading's test data: where a course keeps it, the suites of test trees, the trees they
describe, and the cells of a submitted notebook. Plain files and values, no processes."""
