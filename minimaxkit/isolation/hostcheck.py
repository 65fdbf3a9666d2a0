"""``python -m minimaxkit.grading.hostcheck``: can the autograde sandbox run here, for the user
who runs it (the instructor, not root), and if not, which setting stops it (:data:`SYSCTLS`,
or a container's seccomp profile: docs/hub.md, *Beyond one machine*). Exits 0 when it works.

>>> lines, ok = findings()
>>> isinstance(ok, bool) and all(isinstance(line, str) for line in lines)
True
"""

from __future__ import annotations

import os
import shutil
import sys
from pathlib import Path

from . import bwrap

__all__ = ["findings", "main", "SYSCTLS"]

#: settings that let ordinary users make user namespaces: (/proc/sys file, bad value, fix)
SYSCTLS: tuple[tuple[str, str, str], ...] = (
    ("user/max_user_namespaces", "0", "sysctl -w user.max_user_namespaces=15000"),
    ("kernel/unprivileged_userns_clone", "0", "sysctl -w kernel.unprivileged_userns_clone=1"),
    ("kernel/apparmor_restrict_unprivileged_userns", "1",
     "an AppArmor profile allowing userns for /usr/bin/bwrap, or "
     "sysctl -w kernel.apparmor_restrict_unprivileged_userns=0"),
)


def findings() -> tuple[list[str], bool]:
    """Findings, one line each, and whether the sandbox works for the calling user."""
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
        return [*lines, _bounds(), _counted()], True
    lines.append(f"sandbox: does NOT work: bwrap says {said!r}")
    lines += blocked or ["no kernel setting above forbids it: in a container, its seccomp "
                         "profile or missing capabilities may (docs/hub.md)"]
    lines.append("autograde would run student code without the sandbox; set "
                 f"{bwrap.REQUIRE_ENV}=1 to make it refuse instead")
    return lines, False


def _bounds() -> str:
    """Which bound on a sandbox's processes applies for this user."""
    if os.getuid() != 0:
        return (f"limits: at most {bwrap.PROCESS_LIMIT} processes for this user, all sandboxes "
                "together (run as root to give each sandbox a user and a limit of its own)")
    if not bwrap.root_warning():
        return (f"limits: each sandbox runs as a user of its own (uids from {bwrap.UID_BASE}): "
                f"at most {bwrap.SANDBOX_TASKS} processes and threads per sandbox "
                f"({bwrap.KERNEL_TASKS} for the autograde kernel's)")
    return "limits: NO limit on processes: " + bwrap.root_warning().removeprefix("minimaxkit: ")


def _counted() -> str:
    """Whether every process's processor time in a sandbox can be counted (a filter no
    process in it can lift: :mod:`.seccomp`), tried in a process of its own."""
    import subprocess

    done = subprocess.run([sys.executable, "-c", "from minimaxkit.isolation.seccomp import "
                           "forbid_sigchld; print(forbid_sigchld())"], capture_output=True,
                          text=True, timeout=60)
    why = done.stdout.strip() if done.returncode == 0 else done.stderr.strip()[-200:]
    if not why:
        return ("processor time: all counted (a seccomp filter keeps any process from having "
                "its ended children reaped unseen)")
    return (f"processor time: {why}; a process that ignores SIGCHLD can hide the time of its "
            "ended children from the speed check")


def main(argv: list[str] | None = None) -> int:
    """``python -m minimaxkit.grading.hostcheck``: the findings, one a line; 0 when the
    sandbox works here."""
    import argparse

    argparse.ArgumentParser(
        prog="python -m minimaxkit.grading.hostcheck",
        description="Can the autograde sandbox run here, for the user who runs this, and if "
        "not, which setting stops it. Exits 0 when it works.").parse_args(argv)
    lines, ok = findings()
    for line in lines:
        print(line)
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
