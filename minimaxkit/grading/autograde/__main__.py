"""``python -m minimaxkit.grading.autograde ASSIGNMENT [--workers N | --scheduler ADDR]
[--student ID ...] [--force]``: a whole class autograded at once, N submissions at a time
(:mod:`minimaxkit.classroom.autograde`)."""

import sys

from ...classroom.autograde import main

if __name__ == "__main__":
    sys.exit(main())
