"""Verdicts: what the reference searches do on a test tree, and a submission's record judged
against them: conventions, where two searches part, the known bugs, the score of each tree and
the report. Pure functions of plain data; no processes."""
