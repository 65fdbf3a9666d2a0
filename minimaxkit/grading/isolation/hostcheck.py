"""Can the autograde sandbox run here, for this user? And if not, what must the host allow?

``python -m minimaxkit.grading.hostcheck`` runs bubblewrap the way autograde does, as the
user who runs it (run it as the instructor, not as root: bubblewrap then needs the kernel to
let ordinary users make user namespaces), and prints one line per finding. It exits 0 when
the sandbox works and 1 when it does not, naming the setting that stops it:

* bubblewrap missing: ``apt-get install bubblewrap``;
* ``user.max_user_namespaces`` is 0: ``sysctl -w user.max_user_namespaces=15000``;
* ``kernel.unprivileged_userns_clone`` is 0 (older Debian kernels):
  ``sysctl -w kernel.unprivileged_userns_clone=1``;
* ``kernel.apparmor_restrict_unprivileged_userns`` is 1 (Ubuntu 23.10 and later): an
  AppArmor profile that grants ``userns`` to ``/usr/bin/bwrap``, or the setting set to 0;
* in a container (Docker, Kubernetes) without the right to make namespaces: the pod's
  seccomp profile and capabilities must allow ``unshare`` and ``clone`` with
  ``CLONE_NEWUSER`` (docs/hub.md, "Beyond one machine").

>>> lines, ok = diagnose()
>>> isinstance(ok, bool) and all(isinstance(line, str) for line in lines)
True
"""

from __future__ import annotations

import os
import shutil
import sys
from pathlib import Path

from . import bwrap

__all__ = ["diagnose", "main", "SYSCTLS"]

#: kernel settings that decide whether an ordinary user may make user namespaces:
#: (file under /proc/sys, the value that forbids it, what to do)
SYSCTLS: tuple[tuple[str, str, str], ...] = (
    ("user/max_user_namespaces", "0", "sysctl -w user.max_user_namespaces=15000"),
    ("kernel/unprivileged_userns_clone", "0", "sysctl -w kernel.unprivileged_userns_clone=1"),
    ("kernel/apparmor_restrict_unprivileged_userns", "1",
     "an AppArmor profile allowing userns for /usr/bin/bwrap, or "
     "sysctl -w kernel.apparmor_restrict_unprivileged_userns=0"),
)


def diagnose() -> tuple[list[str], bool]:
    """Findings (one line each) and whether the sandbox works for the calling user."""
    lines = [f"user: uid {os.getuid()}" + (" (root)" if os.getuid() == 0 else "")]
    exe = shutil.which("bwrap")
    if exe is None:
        return [*lines, "bwrap: not found on PATH; install it (Debian: apt-get install "
                        "bubblewrap)"], False
    setuid = os.stat(exe).st_mode & 0o4000
    lines.append(f"bwrap: {exe}" + (" (setuid root)" if setuid else ""))
    blocked = []
    for name, bad, fix in SYSCTLS:
        path = Path("/proc/sys") / name
        try:
            value = path.read_text().strip()
        except OSError:
            continue
        lines.append(f"{name.replace('/', '.')} = {value}")
        if value == bad:
            blocked.append(f"{name.replace('/', '.')} = {value} forbids it: {fix}")
    ok, said = bwrap.probe(exe)
    if ok:
        lines.append("sandbox: works (user, PID, network, IPC and UTS namespaces made)")
        return lines, True
    lines.append(f"sandbox: does NOT work: bwrap says {said!r}")
    lines += blocked or ["no kernel setting above forbids it: in a container, its seccomp "
                         "profile or missing capabilities may (docs/hub.md)"]
    lines.append("autograde would run student code without the sandbox; set "
                 f"{bwrap.REQUIRE_ENV}=1 to make it refuse instead")
    return lines, False


def main() -> int:
    """Print the findings; exit 0 when the sandbox works, 1 when it does not."""
    lines, ok = diagnose()
    for line in lines:
        print(line)
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
