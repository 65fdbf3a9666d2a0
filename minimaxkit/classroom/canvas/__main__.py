"""``python -m minimaxkit.classroom.canvas roster ...``: see :mod:`.roster`."""

import sys

from .roster import main

if __name__ == "__main__":
    sys.exit(main())
