"""``python -m minimaxkit.grading.tournament``: the class tournament (:mod:`.play.tournament`)."""

import sys

from .play.tournament import main

if __name__ == "__main__":
    sys.exit(main())
