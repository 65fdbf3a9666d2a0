"""``python -m minimaxkit.grading.hostcheck``: can the sandbox run here
(:mod:`minimaxkit.isolation.hostcheck`), and has the course in this folder (or above it) a
secret. Exits 0 when the sandbox works."""

import sys
from pathlib import Path

from ..isolation.hostcheck import findings
from .testdata.places import course_root, secret_file, secret_warning


def secret_line(start: Path) -> str:
    """Whether the course at or above ``start`` grades with a secret of its own."""
    root = course_root(start)
    if warning := secret_warning(root):
        return "course secret: " + warning.removeprefix("minimaxkit: ")
    return f"course secret: set ({secret_file(root) or 'MINIMAXKIT_SECRET'})"


def main(argv: list[str] | None = None) -> int:
    """The sandbox's findings and the course's secret, one a line; 0 when the sandbox works."""
    import argparse

    argparse.ArgumentParser(
        prog="python -m minimaxkit.grading.hostcheck",
        description="Can the autograde sandbox run here, for the user who runs this (and if "
        "not, which setting stops it), and has the course in this folder or above it a "
        "secret of its own. Exits 0 when the sandbox works.").parse_args(argv)
    lines, ok = findings()
    for line in [*lines, secret_line(Path.cwd())]:
        print(line)
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
