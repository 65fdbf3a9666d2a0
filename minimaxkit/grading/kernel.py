"""``python -m minimaxkit.grading.kernel -f FILE``: the sandboxed kernel, for kernel specs
installed before it moved to :mod:`.autograde.kernel`."""

import sys

from .autograde.kernel import main

if __name__ == "__main__":
    sys.exit(main())
