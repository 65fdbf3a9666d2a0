"""``python -m minimaxkit.site``: see :mod:`minimaxkit.site.build`."""

import sys

from .build import main

if __name__ == "__main__":
    sys.exit(main())
