"""The autograde kernel: ``python -m minimaxkit.grading.autograde.kernel -f CONNECTION_FILE``,
the kernel spec ``minimaxkit-sandbox`` (``kernelspec/``), sets the limits and becomes IPython
in bubblewrap, the notebook's folder a scratch copy. It talks to nbgrader over Unix sockets
next to the connection file (no network inside: that folder is bound in) and takes interrupts
as messages (bwrap's own session is out of reach of nbgrader's signals). Without bwrap it
warns on stderr and runs with the limits only.
"""

from __future__ import annotations

import os
import sys
from pathlib import Path

from ...isolation.bwrap import (
    WARNING,
    available,
    die_with_parent,
    limit_resources,
    plain_env,
    sandbox_argv,
    sandbox_env,
)
from ..testdata.places import course_root, secret_file

__all__ = ["kernel_argv", "main", "KERNELSPEC_DIR", "KERNEL_NAME"]

KERNELSPEC_DIR = Path(__file__).resolve().parent / "kernelspec"
KERNEL_NAME = "minimaxkit-sandbox"


def kernel_argv(connection_file: str, workdir: str | os.PathLike[str]) -> list[str]:
    """IPython's kernel for ``connection_file`` in the sandbox, working in a scratch copy of
    ``workdir``; unwrapped when bwrap is missing."""
    cmd = [sys.executable, "-m", "ipykernel_launcher", "-f", connection_file]
    if not available():
        return cmd
    workdir = Path(workdir).resolve()
    root = course_root(workdir)
    return sandbox_argv(cmd, workdir=workdir, course_root=root, scratch=True,
                        writable=[Path(connection_file).resolve().parent],
                        hidden_files=[f for f in [secret_file(root)] if f is not None])


def main(argv: list[str] | None = None) -> int:
    args = sys.argv[1:] if argv is None else argv
    if len(args) != 2 or args[0] != "-f":
        print("usage: python -m minimaxkit.grading.autograde.kernel -f CONNECTION_FILE",
              file=sys.stderr)
        return 2
    cmd = kernel_argv(args[1], os.getcwd())
    if cmd[0] != "bwrap":
        print(WARNING, file=sys.stderr, flush=True)
    limit_resources()
    # who started the kernel (jupyter_client names it): if it ends, or has, so does the kernel
    die_with_parent(int(os.environ.get("JPY_PARENT_PID") or os.getppid()))
    # bwrap itself starts with the allow-list: it is /proc/1/environ inside
    env = sandbox_env() if cmd[0] == "bwrap" else plain_env()
    os.dup2(os.open(os.devnull, os.O_WRONLY), 1)  # ipykernel's banner is noise here
    os.execvpe(cmd[0], cmd, env)


if __name__ == "__main__":
    sys.exit(main())
