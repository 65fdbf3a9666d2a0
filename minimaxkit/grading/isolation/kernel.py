"""The autograde kernel: IPython in the bubblewrap sandbox (:mod:`.bwrap`).

``python -m minimaxkit.grading.isolation.kernel -f CONNECTION_FILE`` is the ``argv`` of the kernel
spec ``minimaxkit-sandbox`` (``kernelspec/`` here), which nbgrader's autograde starts
(:class:`~minimaxkit.grading.autograde.preprocessors.SandboxedExecute`). It
sets the resource limits and replaces itself with ``bwrap ... python -m ipykernel_launcher``:
the notebook's folder (the kernel's working directory, ``autograded/<student>/<assignment>``)
is a scratch copy in a size-capped tmpfs (nothing the notebook writes reaches the course),
the rest of the course and of the machine is hidden, the environment is a short allow-list,
there is no network, and when the kernel ends its PID namespace ends with it, taking every
process the notebook started. The kernel spec asks for interrupts as messages
(``interrupt_mode: message``): bwrap starts the kernel in a session of its own, where a
signal to nbgrader's process group would not reach it.

The kernel talks to nbgrader through Unix sockets next to the connection file
(``transport = "ipc"``), since the sandbox has no network: that folder is bound in too.
Without bubblewrap it prints :data:`.bwrap.WARNING` on stderr (nbgrader's
log) and runs the kernel with the limits only.
"""

from __future__ import annotations

import os
import sys
from pathlib import Path

from ..testdata.places import course_root, secret_file
from .bwrap import WARNING, available, limit_resources, plain_env, sandbox_argv, sandbox_env

__all__ = ["kernel_argv", "main", "KERNELSPEC_DIR", "KERNEL_NAME"]

KERNELSPEC_DIR = Path(__file__).resolve().parent / "kernelspec"
KERNEL_NAME = "minimaxkit-sandbox"


def kernel_argv(connection_file: str, workdir: str | os.PathLike[str]) -> list[str]:
    """The command that runs IPython's kernel for ``connection_file`` in the sandbox,
    with ``workdir`` (the notebook's folder) writable; unwrapped when bwrap is missing."""
    cmd = [sys.executable, "-m", "ipykernel_launcher", "-f", connection_file]
    if not available():
        return cmd
    workdir = Path(workdir).resolve()
    root = course_root(workdir)
    return sandbox_argv(cmd, workdir=workdir, course_root=root, scratch=True,
                        writable=[Path(connection_file).resolve().parent],
                        hidden_files=[f for f in [secret_file(root)] if f is not None])


def main(argv: list[str] | None = None) -> int:
    """Start the sandboxed kernel (``-f CONNECTION_FILE``); does not return."""
    args = sys.argv[1:] if argv is None else argv
    if len(args) != 2 or args[0] != "-f":
        print("usage: python -m minimaxkit.grading.isolation.kernel -f CONNECTION_FILE",
              file=sys.stderr)
        return 2
    cmd = kernel_argv(args[1], os.getcwd())
    if cmd[0] != "bwrap":
        print(WARNING, file=sys.stderr, flush=True)
    limit_resources()
    if cmd[0] == "bwrap":  # bwrap itself starts with the allow-list: /proc/1/environ
        env = sandbox_env()
    else:
        env = plain_env()
    devnull = os.open(os.devnull, os.O_WRONLY)
    os.dup2(devnull, 1)  # ipykernel's banner ("To connect another client...") is noise here
    os.execvpe(cmd[0], cmd, env)
    return 1  # pragma: no cover - execvpe does not return


if __name__ == "__main__":
    sys.exit(main())
