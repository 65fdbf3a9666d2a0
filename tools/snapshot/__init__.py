"""The parts of ``tools/behaviour_snapshot.py``: normalising, the lectures, the grading and
the comparison of two snapshots."""
