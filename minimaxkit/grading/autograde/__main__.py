"""``python -m minimaxkit.grading.autograde ASSIGNMENT [--workers N | --scheduler ADDR]
[--student ID ...] [--force]``: a whole class autograded at once, N submissions at a time
(:mod:`minimaxkit.class_autograde`)."""

import sys

from ...class_autograde import main

if __name__ == "__main__":
    sys.exit(main())
