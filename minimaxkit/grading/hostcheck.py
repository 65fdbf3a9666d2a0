"""``python -m minimaxkit.grading.hostcheck``: can the sandbox run here
(:mod:`minimaxkit.grading.isolation.hostcheck`)."""

import sys

from .isolation.hostcheck import main

if __name__ == "__main__":
    sys.exit(main())
