"""``python -m minimaxkit.grading.hostcheck``: can the sandbox run here."""

import sys

from ..isolation.hostcheck import main

if __name__ == "__main__":
    sys.exit(main())
