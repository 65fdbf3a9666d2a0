"""``python -m minimaxkit.grading.tournament``: the class tournament, as the docs name it; its code
is :mod:`minimaxkit.classroom.tournament`."""

import sys

from ..classroom.tournament import main

if __name__ == "__main__":
    sys.exit(main())
