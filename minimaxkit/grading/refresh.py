"""``python -m minimaxkit.grading.refresh``: the instructor's command, as the docs name it; its code
is :mod:`minimaxkit.classroom.refresh`."""

import sys

from ..classroom.refresh import main

if __name__ == "__main__":
    sys.exit(main())
