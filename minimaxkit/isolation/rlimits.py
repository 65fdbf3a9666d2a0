"""Resource limits set by the process they bind, never from a ``preexec_fn``: ``python -I -S
rlimits.py NAME=VALUE... -- CMD...`` sets its own limits, puts back the signals Python
ignores, and becomes ``CMD``, which inherits them (as does all it starts). The grader starts
its sandboxes through it: a ``preexec_fn`` runs Python in the forked copy of a parent that
has threads (the keeper's, Dask's), which Python's documentation calls unsafe. Standard
library only: it runs by its path, before anything of the kit is imported.

A limit is never raised above the hard limit already set (an unprivileged process cannot).

>>> limited_argv(["python", "-c", "pass"], {"data": 1 << 30, "core": 0})[-6:]
['data=1073741824', 'core=0', '--', 'python', '-c', 'pass']
>>> import subprocess
>>> probe = "import resource; print(resource.getrlimit(resource.RLIMIT_FSIZE))"
>>> argv = limited_argv([sys.executable, "-c", probe], {"fsize": 1 << 20})
>>> subprocess.run(argv, capture_output=True, text=True, check=True).stdout.strip()
'(1048576, 1048576)'
"""

from __future__ import annotations

import os
import resource
import signal
import sys
from collections.abc import Mapping, Sequence

__all__ = ["LIMITS", "limited_argv", "set_limits", "main"]

#: the limits by name: data (bytes of heap and anonymous mappings), fsize (bytes of the
#: largest file written), nproc (processes of the user), core (bytes of a core dump), cpu
#: (processor seconds of each process)
LIMITS = {"data": resource.RLIMIT_DATA, "fsize": resource.RLIMIT_FSIZE,
          "nproc": resource.RLIMIT_NPROC, "core": resource.RLIMIT_CORE,
          "cpu": resource.RLIMIT_CPU}


def limited_argv(cmd: Sequence[str], limits: Mapping[str, int]) -> list[str]:
    """``cmd`` run under ``limits`` (names of :data:`LIMITS`, values; ``RLIM_INFINITY`` for
    none), through this file."""
    for name in limits:
        if name not in LIMITS:
            raise ValueError(f"limited_argv: no limit named {name!r} (known: {sorted(LIMITS)})")
    return [sys.executable, "-I", "-S", os.path.abspath(__file__),
            *(f"{name}={int(value)}" for name, value in limits.items()), "--", *cmd]


def set_limits(limits: Mapping[str, int]) -> None:
    """Cap this process (and what it will start) at ``limits``, each no higher than its hard
    limit; a limit the system refuses (``RLIM_INFINITY`` under a finite hard limit) is left as
    it is."""
    for name, value in limits.items():
        kind = LIMITS[name]
        try:
            _, hard = resource.getrlimit(kind)
            new = value if hard == resource.RLIM_INFINITY else min(value, hard)
            resource.setrlimit(kind, (new, new))
        except (OSError, ValueError):
            pass


def main(argv: list[str] | None = None) -> int:
    """Set the limits named on the command line, then become the command after ``--``."""
    args = sys.argv[1:] if argv is None else argv
    if "--" not in args or args.index("--") == len(args) - 1:
        print("usage: python rlimits.py NAME=VALUE... -- CMD...", file=sys.stderr)
        return 2
    split = args.index("--")
    limits = {}
    for item in args[:split]:
        name, _, value = item.partition("=")
        if name not in LIMITS or not value.lstrip("-").isdigit():
            print(f"rlimits.py: not a limit: {item!r}", file=sys.stderr)
            return 2
        limits[name] = int(value)
    set_limits(limits)
    # as subprocess does before an exec (restore_signals): what Python ignores, CMD does not
    for name in ("SIGPIPE", "SIGXFZ", "SIGXFSZ"):
        if hasattr(signal, name):
            signal.signal(getattr(signal, name), signal.SIG_DFL)
    cmd = args[split + 1:]
    os.execvp(cmd[0], cmd)
    return 1  # pragma: no cover - execvp does not return


if __name__ == "__main__":
    sys.exit(main())
