"""The autograde kernel: ``python -m minimaxkit.grading.autograde.kernel -f CONNECTION_FILE``,
the kernel spec ``minimaxkit-sandbox`` (``kernelspec/``), becomes IPython in bubblewrap
(:func:`minimaxkit.isolation.sandboxed_kernel.launch`), the notebook's folder a scratch copy and the
course's folder and secret hidden.
"""

from __future__ import annotations

import os
import sys
from pathlib import Path

from ...isolation.sandboxed_kernel import launch
from ..testdata.places import course_root, secret_file

__all__ = ["main", "KERNELSPEC_DIR", "KERNEL_NAME"]

KERNELSPEC_DIR = Path(__file__).resolve().parent / "kernelspec"
KERNEL_NAME = "minimaxkit-sandbox"


def main(argv: list[str] | None = None) -> int:
    """Become the sandboxed kernel for the connection file after ``-f`` (2 and a usage line
    otherwise); never returns when it starts."""
    args = sys.argv[1:] if argv is None else argv
    if len(args) != 2 or args[0] != "-f":
        print("usage: python -m minimaxkit.grading.autograde.kernel -f CONNECTION_FILE",
              file=sys.stderr)
        return 2
    workdir = Path(os.getcwd()).resolve()
    root = course_root(workdir)
    return launch(args[1], workdir, course_root=root,
                  hidden_files=[f for f in [secret_file(root)] if f is not None])


if __name__ == "__main__":
    sys.exit(main())
