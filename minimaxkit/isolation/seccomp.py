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
signal's at start). It also keeps the sandbox from hearing another one, such as the
notebook's kernel graded at the same time, which could compute for it: every sandbox sees
the same read-only system files, and a lock on one (``flock``; ``fcntl``'s record and
open-file locks, leases) or a watch for who reads it (``inotify_add_watch``, ``fcntl``'s
``F_NOTIFY``) is a signal between them; those calls are refused too. It holds for the
process that installs it and everything it starts, and cannot be lifted.

The second (:func:`forbid_processes`) keeps a test's worker alone: it may start no process
and no thread (``clone``, ``clone3``, ``fork`` and ``vfork`` refused), whatever its user, root
included, where a limit on processes does not bind.

>>> program(*ARCHES["x86_64"])[:2]   # load the architecture, compare
[(32, 0, 0, 4), (21, 0, 20, 3221225534)]
"""

from __future__ import annotations

import ctypes
import platform
import struct

__all__ = ["forbid_sigchld", "forbid_processes", "program", "ARCHES"]

#: the audit architecture and the numbers of rt_sigaction, flock, inotify_add_watch and
#: fcntl, by ``platform.machine()``
ARCHES = {"x86_64": (0xC000003E, 13, 73, 254, 72), "aarch64": (0xC00000B7, 134, 32, 27, 25)}
#: the calls that start a process or a thread: clone, clone3, fork, vfork (aarch64 has
#: neither of the last two: a number no call has)
_STARTS = {"x86_64": (56, 435, 57, 58), "aarch64": (220, 435, 0xFFFFFFFF, 0xFFFFFFFF)}
_SIGCHLD = 17
_LD, _JEQ, _JGE, _RET = 0x20, 0x15, 0x35, 0x06  # BPF_LD|W|ABS, JMP|JEQ|K, JMP|JGE|K, RET|K
_ALLOW, _EPERM = 0x7FFF0000, 0x00050001  # SECCOMP_RET_ALLOW, SECCOMP_RET_ERRNO | EPERM
_X32 = 0x40000000


def program(arch: int, rt_sigaction: int, flock: int, inotify_add_watch: int,
            fcntl: int) -> list[tuple[int, int, int, int]]:
    """The filter as BPF instructions ``(code, jump if true, jump if false, k)``: offsets of
    ``struct seccomp_data`` are nr 0, arch 4, args from 16 (8 bytes each, low word first).
    ``fcntl``'s commands refused: F_GETLK, F_SETLK, F_SETLKW (5-7), their open-file
    versions (36-38), F_SETLEASE, F_GETLEASE, F_NOTIFY (1024-1026)."""
    return [
        (_LD, 0, 0, 4),                   # 0  arch
        (_JEQ, 0, 20, arch),              # 1  another architecture: refuse (22)
        (_LD, 0, 0, 0),                   # 2  nr
        (_JGE, 18, 0, _X32),              # 3  x32's system calls: refuse
        (_JEQ, 17, 0, flock),             # 4  refuse
        (_JEQ, 16, 0, inotify_add_watch),  # 5  refuse
        (_JEQ, 7, 0, fcntl),              # 6  its command (14)
        (_JEQ, 0, 13, rt_sigaction),      # 7  not rt_sigaction: allow (21)
        (_LD, 0, 0, 16),                  # 8  the signal
        (_JEQ, 0, 11, _SIGCHLD),          # 9  not SIGCHLD: allow
        (_LD, 0, 0, 24),                  # 10 the new action's address, low word
        (_JEQ, 0, 10, 0),                 # 11 set: refuse
        (_LD, 0, 0, 28),                  # 12 high word
        (_JEQ, 7, 8, 0),                  # 13 none (a read): allow, else refuse
        (_LD, 0, 0, 24),                  # 14 fcntl's command
        (_JGE, 0, 5, 5),                  # 15 below 5: allow
        (_JGE, 0, 5, 8),                  # 16 5-7: refuse
        (_JGE, 0, 3, 36),                 # 17 8-35: allow
        (_JGE, 0, 3, 39),                 # 18 36-38: refuse
        (_JGE, 0, 1, 1024),               # 19 39-1023: allow
        (_JGE, 0, 1, 1027),               # 20 1024-1026: refuse, beyond: allow
        (_RET, 0, 0, _ALLOW),             # 21
        (_RET, 0, 0, _EPERM),             # 22
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
