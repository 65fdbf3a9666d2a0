"""``python -m minimaxkit.grading.report``: the instructor's command, as the docs name it; its code
is :mod:`minimaxkit.classroom.report`."""

import sys

from ..classroom.report import main

if __name__ == "__main__":
    sys.exit(main())
