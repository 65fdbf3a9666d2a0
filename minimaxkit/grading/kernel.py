"""``python -m minimaxkit.grading.kernel -f FILE``: the sandboxed kernel, for kernel specs
installed before it moved to :mod:`.isolation.kernel`."""

import sys

from .isolation.kernel import main

if __name__ == "__main__":
    sys.exit(main())
