"""Two seccomp filters for the sandbox. The first keeps its processor time countable: no
process in it may change what
``SIGCHLD`` does. Ignoring it (or ``SA_NOCLDWAIT``) has the kernel reap an ended child at
once, and with it the child's processor time, which then counts for no process: a helper
could compute for ``evaluate`` in short-lived processes whose time no count would see. With
the filter, every ended process waits as a zombie (its time still in ``/proc``) until its
parent, or the sandbox's init, reaps it and adds its time to its own.

The filter (seccomp, Linux on x86_64 and aarch64) refuses ``rt_sigaction(SIGCHLD, act,
...)`` with a new action (``EPERM``: Python raises ``PermissionError``), any other
architecture's system calls and x32's; reading the action stays allowed (Python reads every
signal's at start). It holds for the process that installs it and everything it starts,
and cannot be lifted.

The second (:func:`forbid_processes`) keeps a test's worker alone: it may start no process
and no thread (``clone``, ``clone3``, ``fork`` and ``vfork`` refused), whatever its user, root
included, where a limit on processes does not bind.

>>> program(0xC000003E, 13)[:2]   # x86_64: load the architecture, compare
[(32, 0, 0, 4), (21, 0, 10, 3221225534)]
"""

from __future__ import annotations

import ctypes
import platform
import struct

__all__ = ["forbid_sigchld", "forbid_processes", "program", "ARCHES"]

#: the audit architecture and ``rt_sigaction``'s number, by ``platform.machine()``
ARCHES = {"x86_64": (0xC000003E, 13), "aarch64": (0xC00000B7, 134)}
#: the calls that start a process or a thread: clone, clone3, fork, vfork (aarch64 has
#: neither of the last two: a number no call has)
_STARTS = {"x86_64": (56, 435, 57, 58), "aarch64": (220, 435, 0xFFFFFFFF, 0xFFFFFFFF)}
_SIGCHLD = 17
_LD, _JEQ, _JGE, _RET = 0x20, 0x15, 0x35, 0x06  # BPF_LD|W|ABS, JMP|JEQ|K, JMP|JGE|K, RET|K
_ALLOW, _EPERM = 0x7FFF0000, 0x00050001  # SECCOMP_RET_ALLOW, SECCOMP_RET_ERRNO | EPERM
_X32 = 0x40000000


def program(arch: int, rt_sigaction: int) -> list[tuple[int, int, int, int]]:
    """The filter as BPF instructions ``(code, jump if true, jump if false, k)``: offsets of
    ``struct seccomp_data`` are nr 0, arch 4, args from 16 (8 bytes each, low word first)."""
    return [
        (_LD, 0, 0, 4),                   # 0  arch
        (_JEQ, 0, 10, arch),              # 1  another architecture: refuse (12)
        (_LD, 0, 0, 0),                   # 2  nr
        (_JGE, 8, 0, _X32),               # 3  x32's system calls: refuse (12)
        (_JEQ, 0, 6, rt_sigaction),       # 4  not rt_sigaction: allow (11)
        (_LD, 0, 0, 16),                  # 5  the signal
        (_JEQ, 0, 4, _SIGCHLD),           # 6  not SIGCHLD: allow (11)
        (_LD, 0, 0, 24),                  # 7  the new action's address, low word
        (_JEQ, 0, 3, 0),                  # 8  set: refuse (12)
        (_LD, 0, 0, 28),                  # 9  high word
        (_JEQ, 0, 1, 0),                  # 10 none (a read): allow (11), else refuse (12)
        (_RET, 0, 0, _ALLOW),             # 11
        (_RET, 0, 0, _EPERM),             # 12
    ]


def starts(arch: int, calls: tuple[int, int, int, int]) -> list[tuple[int, int, int, int]]:
    """The second filter: ``calls`` (clone, clone3, fork, vfork) refused."""
    clone, clone3, fork, vfork = calls
    return [
        (_LD, 0, 0, 4),                   # 0  arch
        (_JEQ, 0, 7, arch),               # 1  another architecture: refuse (9)
        (_LD, 0, 0, 0),                   # 2  nr
        (_JGE, 5, 0, _X32),               # 3  x32's: refuse (9)
        (_JEQ, 4, 0, clone),              # 4  refuse (9)
        (_JEQ, 3, 0, clone3),             # 5
        (_JEQ, 2, 0, fork),               # 6
        (_JEQ, 1, 0, vfork),              # 7
        (_RET, 0, 0, _ALLOW),             # 8
        (_RET, 0, 0, _EPERM),             # 9
    ]


def forbid_sigchld() -> str:
    """Install the first filter in this process (and all it will start); ``""`` when
    installed, else why not (another system, an architecture not known here, or the host
    refuses)."""
    arch = ARCHES.get(platform.machine())
    return _unsupported() if arch is None else _install(program(*arch))


def forbid_processes() -> str:
    """Install the second filter: from now on this process starts no process and no thread
    (``""`` when installed, else why not)."""
    arch = ARCHES.get(platform.machine())
    return _unsupported() if arch is None else \
        _install(starts(arch[0], _STARTS[platform.machine()]))


def _unsupported() -> str:
    return f"no seccomp filter for {platform.system()} on {platform.machine()}"


def _install(instructions: list[tuple[int, int, int, int]]) -> str:
    if platform.system() != "Linux":
        return _unsupported()
    code = b"".join(struct.pack("HBBI", *ins) for ins in instructions)
    buf = ctypes.create_string_buffer(code)

    class _Prog(ctypes.Structure):
        _fields_ = [("len", ctypes.c_ushort), ("filter", ctypes.c_void_p)]

    prog = _Prog(len(code) // 8, ctypes.cast(buf, ctypes.c_void_p))
    libc = ctypes.CDLL(None, use_errno=True)
    # no new privileges (what an unprivileged filter needs), then the filter itself
    if libc.prctl(38, 1, 0, 0, 0) != 0 or libc.prctl(22, 2, ctypes.byref(prog), 0, 0) != 0:
        return f"the host refused the seccomp filter (errno {ctypes.get_errno()})"
    return ""
