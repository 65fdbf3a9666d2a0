"""The sandboxed child, ``python -m minimaxkit.isolation.child WORKER RULES``: it runs a
notebook's cells in a real IPython shell and forks a worker per test, under the rules. The
module ``WORKER`` has a ``Handler(namespace, ask)`` whose ``handle(msg)`` gives a reply's kind
and payload (``ask(value)`` asks the parent) and ``notes()`` what it noted. The channel is a
copy of stdin and stdout made before any student code runs (0, 1, 2 then go to /dev/null).
"""

from __future__ import annotations

import builtins
import contextlib
import importlib
import io
import os
import signal
import sys
from dataclasses import dataclass
from typing import Any

from .entropy import fix_entropy
from .fork import crash_message
from .protocol import Channel
from .rules import (
    KIT_SEARCHES,
    CappedStream,
    Flags,
    Rules,
    enter,
    failure,
    kill_others,
    other_processes,
    safe_str,
)
from .seccomp import forbid_processes, forbid_sigchld

__all__ = ["serve", "main"]


class _CellTimeout(BaseException):
    """Raised by a timer in a cell that runs past its time, as an interrupt would."""


def _shell() -> Any:
    """A real IPython shell, so that magics, ``!`` commands and ``display`` work as in the
    kernel; no history, no colours, no terminal."""
    from IPython.core.interactiveshell import InteractiveShell
    from traitlets.config import Config

    config = Config()
    config.HistoryManager.enabled = False
    config.InteractiveShell.colors = "nocolor"
    config.InteractiveShell.autocall = 0
    shell = InteractiveShell.instance(config=config)
    shell.system = shell.system_raw  # type: ignore[method-assign] # no pty: output to /dev/null
    shell.enable_gui = lambda gui=None: None  # type: ignore[method-assign] # %matplotlib
    shell.user_ns["__name__"] = "__main__"
    # IPython puts its own open() in the namespace, bound to io.open at import: without it,
    # open resolves to the builtin, which a worker may guard (the test data files)
    shell.user_ns.pop("open", None)
    shell.user_ns_hidden.pop("open", None)
    return shell


def _run_cell(shell: Any, src: str, label: str, timeout: float) -> tuple[list[str], bool]:
    """Run one cell as nbgrader's kernel would (a failure is noted and the notebook goes on;
    past ``timeout`` it is interrupted): its problems, and whether it was interrupted."""
    def expired(signum: int, frame: Any) -> None:
        raise _CellTimeout(f"ran longer than {round(timeout, 2):g} s")

    stream = CappedStream(200_000, {}, stop=False)
    saved = sys.stdout, sys.stderr
    sys.stdout = sys.stderr = stream  # type: ignore[assignment]
    signal.signal(signal.SIGALRM, expired)
    signal.setitimer(signal.ITIMER_REAL, timeout)
    problem: BaseException | None = None
    try:
        result = shell.run_cell(src, store_history=False)
        problem = result.error_before_exec or result.error_in_exec
    except BaseException as err:  # raised outside the cell's code (e.g. by the timer)
        problem = err
    finally:
        signal.setitimer(signal.ITIMER_REAL, 0)
        signal.signal(signal.SIGALRM, signal.SIG_DFL)
        sys.stdout, sys.stderr = saved
    if problem is None:
        return [], False
    if isinstance(problem, _CellTimeout):
        return [f"{label} ran longer than {round(timeout, 2):g} s and was interrupted; the "
                "notebook went on (as nbgrader's kernel does)"], True
    return [f"{label} raised {type(problem).__name__}: {safe_str(problem)}"], False


def _names(shell: Any) -> dict[str, str]:
    """The notebook's own names (not IPython's ``In``, ``Out``...), each "callable" or a type."""
    hidden = set(shell.user_ns_hidden)
    return {k: "callable" if callable(v) else type(v).__name__
            for k, v in list(shell.user_ns.items())
            if isinstance(k, str) and not k.startswith("_") and k not in hidden}


@dataclass(frozen=True)
class _Tests:
    """What every test's worker starts from: the channel, the worker module's ``Handler``
    class, the notebook's namespace and the rules."""

    channel: Channel
    handler_class: Any
    namespace: dict[str, Any]
    rules: Rules


def _worker(tests: _Tests, timeout: float, done_fd: int) -> None:  # pragma: no cover - forked
    """One test's worker, forked: under the rules, it answers requests until ``end``, then
    writes to ``done_fd`` that it reported, and ends."""
    channel, code = tests.channel, 0
    try:
        flags: Flags = {}
        stream, _ = enter(tests.rules, flags, timeout)
        handler = tests.handler_class(tests.namespace, lambda value: _ask(channel, value))
        channel.send("ready", {})
        while True:
            msg = channel.recv()
            if msg.get("op") == "end":
                if other_processes():
                    flags["processes"] = kill_others()
                channel.send("ended", {"flags": flags, "printed": stream.text(),
                                       "notes": [str(n) for n in handler.notes()]})
                os.write(done_fd, b"1")
                break
            try:
                kind, payload = handler.handle(msg)
            except BaseException as err:  # the student's code failed: say how
                kind, payload = "raised", failure(err)
            channel.send(kind, payload)
    except BaseException:
        code = 3
    finally:
        os._exit(code)


def _alone() -> None:  # pragma: no cover - in a forked process
    """No process, no thread from this process on, whatever the user (root too)."""
    import resource

    with contextlib.suppress(OSError, ValueError):
        resource.setrlimit(resource.RLIMIT_NPROC, (0, 0))
    forbid_processes()  # where the host refuses the filter, the limit alone holds (not root)


def _ask(channel: Channel, value: Any) -> Any:
    channel.send("ask", value)
    reply = channel.recv()
    if "answer" not in reply:
        raise LookupError(str(reply.get("refused", "no answer")))
    return reply["answer"]


def _exec(shell: Any, msg: dict[str, Any]) -> dict[str, Any]:
    """Run the cell of an ``exec`` request; the ``done`` reply (what went wrong, the
    notebook's names, whether it ran out of time). Processes the cell left running are
    stopped."""
    problems, interrupted = _run_cell(shell, str(msg.get("cell", "")),
                                      str(msg.get("label", "a cell")),
                                      float(msg.get("timeout", 60.0)))
    if left := (kill_others() if other_processes() else 0):
        problems.append(f"the notebook's cells started {left} process(es) that were still "
                        "running; they were stopped")
    return {"problems": problems, "names": _names(shell), "interrupted": interrupted}


def _begin(tests: _Tests, timeout: float) -> str:
    """Fork a worker for one test and wait for it to end: "" when it reported, else why not
    (its wait status in words)."""
    done_r, done_w = os.pipe()
    pid = os.fork()
    if pid == 0:
        os.close(done_r)
        _worker(tests, timeout, done_w)
    os.close(done_w)
    _, status = os.waitpid(pid, 0)
    os.set_blocking(done_r, False)
    try:
        finished = os.read(done_r, 1) == b"1"
    except BlockingIOError:
        finished = False
    os.close(done_r)
    return "" if finished else crash_message(status)


def _settle(worker: str, rules: Rules) -> Any:
    """The child's state before any student code runs: the seccomp filter, fixed entropy,
    the rule that a test's worker is alone, the worker module's ``Handler`` and the kit's
    searches loaded; the ``Handler`` class."""
    forbid_sigchld()  # every process's processor time stays countable (hostcheck says)
    fix_entropy()  # a generator made without a seed: the same numbers on every run
    if rules.alone:  # every process forked from here starts none (no thread either), from
        # its first instruction: this hook runs before any a cell may register
        os.register_at_fork(after_in_child=_alone)
    handler_class = importlib.import_module(worker).Handler  # loaded before any student code
    if rules.refuse_searches:  # loaded once, not in every worker (in the sandbox: the stubs)
        for name in KIT_SEARCHES:
            importlib.import_module(name)
    return handler_class


def _own_channel() -> Channel:
    """The channel on copies of stdin and stdout; 0, 1, 2 then go to /dev/null, and
    ``input()`` refuses."""
    channel = Channel(os.dup(0), os.dup(1))
    devnull = os.open(os.devnull, os.O_RDWR)
    for fd in (0, 1, 2):
        os.dup2(devnull, fd)
    sys.stdin = io.StringIO("")
    builtins.input = lambda *a: (_ for _ in ()).throw(  # type: ignore[assignment]
        RuntimeError("input() is not available while grading"))
    return channel


def serve(worker: str, rules: Rules) -> int:  # pragma: no cover - runs in the child
    """The child's loop: run cells, fork a worker per test."""
    if not worker.startswith("minimaxkit."):
        return 2
    handler_class = _settle(worker, rules)
    channel = _own_channel()
    shell = _shell()
    tests = _Tests(channel, handler_class, shell.user_ns, rules)
    while True:
        msg = channel.recv()
        op = msg.get("op")
        if op == "exec":
            channel.send("done", _exec(shell, msg))
        elif op == "begin":
            # after a worker that reported, the child says it is still here: a worker whose
            # code killed this process can answer every request and report before the
            # sandbox's end reaches it, and only this tells the grader the test did not finish
            if why := _begin(tests, float(msg.get("timeout", 1.0))):
                channel.send("crashed", why)
            else:
                channel.send("reaped", {})
        else:
            channel.send("crashed", f"unknown request {str(op)[:20]!r}")


def main(argv: list[str] | None = None) -> int:  # pragma: no cover - the child
    """``python -m minimaxkit.isolation.child WORKER RULES``: serve until the parent goes."""
    args = sys.argv[1:] if argv is None else argv
    return serve(args[0], Rules.from_json(args[1]))


if __name__ == "__main__":
    sys.exit(main())
