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
open-file locks, leases) or a watch for who reads it (``inotify_add_watch``,
``fanotify_init``, ``fcntl``'s ``F_NOTIFY``) is a signal between them, as is a count the
kernel keeps for the whole machine that a call moves at will (``io_setup``'s in
``/proc/sys/fs/aio-nr``; ``io_uring_setup``): those calls are refused too (counts that
ordinary work moves, such as free memory, remain: docs/grading.md). It holds for the
process that installs it and everything it starts, and cannot be lifted.

The second (:func:`forbid_processes`) keeps a test's worker alone: it may start no process
and no thread (``clone``, ``clone3``, ``fork`` and ``vfork`` refused), whatever its user, root
included, where a limit on processes does not bind.

>>> program(*ARCHES["x86_64"])[:2]   # load the architecture, compare
[(32, 0, 0, 4), (21, 0, 23, 3221225534)]
"""

from __future__ import annotations

import ctypes
import platform
import struct
from typing import Any

__all__ = ["forbid_sigchld", "forbid_processes", "program", "ARCHES"]

#: the audit architecture, the numbers of rt_sigaction and fcntl, and the calls refused:
#: flock, inotify_add_watch, fanotify_init, io_setup, io_uring_setup; by ``platform.machine()``
ARCHES = {"x86_64": (0xC000003E, 13, 72, (73, 254, 300, 206, 425)),
          "aarch64": (0xC00000B7, 134, 25, (32, 27, 262, 0, 425))}
#: the calls that start a process or a thread: clone, clone3, fork, vfork (aarch64 has
#: neither of the last two: a number no call has)
_STARTS = {"x86_64": (56, 435, 57, 58), "aarch64": (220, 435, 0xFFFFFFFF, 0xFFFFFFFF)}
_SIGCHLD = 17
_LD, _JEQ, _JGE, _RET = 0x20, 0x15, 0x35, 0x06  # BPF_LD|W|ABS, JMP|JEQ|K, JMP|JGE|K, RET|K
_ALLOW, _EPERM = 0x7FFF0000, 0x00050001  # SECCOMP_RET_ALLOW, SECCOMP_RET_ERRNO | EPERM
_X32 = 0x40000000


#: an instruction before assembly: ``(code, k)`` for a load or a return, ``(code, k, jump
#: if true, jump if false)`` for a jump, each jump a label or None (the next); or a label
_Ins = tuple[Any, ...] | str


def _ld(k: int) -> _Ins:
    return (_LD, k)


def _jeq(k: int, t: str | None = None, f: str | None = None) -> _Ins:
    return (_JEQ, k, t, f)


def _jge(k: int, t: str | None = None, f: str | None = None) -> _Ins:
    return (_JGE, k, t, f)


def _head(arch: int) -> list[_Ins]:
    """Every filter's start: another architecture's calls and x32's refused (to "no"), the
    call's number loaded."""
    return [_ld(4), _jeq(arch, f="no"), _ld(0), _jge(_X32, t="no")]


_TAIL: list[_Ins] = ["yes", (_RET, _ALLOW), "no", (_RET, _EPERM)]


def _assemble(code: list[_Ins]) -> list[tuple[int, int, int, int]]:
    """BPF instructions ``(code, jump if true, jump if false, k)``, each jump the number of
    instructions it skips to reach its label."""
    at, n = {}, 0  # each label: the number of instructions before it
    for ins in code:
        if isinstance(ins, str):
            at[ins] = n
        else:
            n += 1
    out: list[tuple[int, int, int, int]] = []
    for ins in code:
        if isinstance(ins, str):
            continue
        jumps = [0 if j is None else at[j] - len(out) - 1 for j in ins[2:]] or [0, 0]
        out.append((ins[0], jumps[0], jumps[1], ins[1]))
    return out


def program(arch: int, rt_sigaction: int, fcntl: int, refused: tuple[int, ...]
            ) -> list[tuple[int, int, int, int]]:
    """The first filter's instructions: offsets of ``struct seccomp_data`` are nr 0, arch 4,
    args from 16 (8 bytes each, low word first). ``refused``: calls refused whatever their
    arguments. ``fcntl``'s commands refused: F_GETLK, F_SETLK, F_SETLKW (5-7), their
    open-file versions (36-38), F_SETLEASE, F_GETLEASE, F_NOTIFY (1024-1026)."""
    return _assemble([
        *_head(arch), *[_jeq(nr, t="no") for nr in refused], _jeq(fcntl, t="fcntl"),
        _jeq(rt_sigaction, f="yes"), _ld(16), _jeq(_SIGCHLD, f="yes"),  # SIGCHLD's action:
        _ld(24), _jeq(0, f="no"), _ld(28), _jeq(0, t="yes", f="no"),  # read, never set
        "fcntl", _ld(24), _jge(5, f="yes"), _jge(8, f="no"), _jge(36, f="yes"),
        _jge(39, f="no"), _jge(1024, f="yes"), _jge(1027, t="yes", f="no"), *_TAIL])


def starts(arch: int, calls: tuple[int, int, int, int]) -> list[tuple[int, int, int, int]]:
    """The second filter: ``calls`` (clone, clone3, fork, vfork) refused."""
    return _assemble([*_head(arch), *[_jeq(nr, t="no") for nr in calls], *_TAIL])


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
