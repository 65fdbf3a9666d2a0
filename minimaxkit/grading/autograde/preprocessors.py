"""The nbgrader preprocessors that ``nbgrader_config.py`` names, for grades a submission cannot
forge (docs/grading.md, *Untrusted code*): :class:`SandboxedExecute` runs the notebook in the
sandboxed kernel, with a limit on every wait (a kernel whose code broke its own connection
cannot hold nbgrader up); :class:`TrustedGrade` grades outside it (:mod:`.trusted`), and its
verdicts and points replace the test cells'.
"""

from __future__ import annotations

import os
import shutil
import time
from typing import Any

from nbformat.notebooknode import NotebookNode, from_dict
from nbgrader.preprocessors import Execute, NbGraderPreprocessor
from traitlets import Bool, Unicode

from ...isolation import bwrap
from ...isolation.sandboxed_kernel import connection_folder
from ...isolation.session import EXEC_TIMEOUT, NOTEBOOK_TIME
from ...isolation.watch import Watch
from ...support.once import warn_once
from .course_warnings import say_course_warnings
from .kernel import KERNEL_NAME, KERNELSPEC_DIR
from .sizes import OUTPUT_LIMIT, cap_outputs
from .trusted import Grading

__all__ = ["SandboxedExecute", "TrustedGrade", "TIMEOUT_ERROR", "bounded_client",
           "kernel_manager", "SEND_WAIT", "HB_STOP"]

_GRADING = "minimaxkit_trusted_grading"
SEND_WAIT = 2.0  # seconds a message to the kernel's control socket may wait
HB_STOP = 5.0  # seconds the heartbeat thread gets to stop

TIMEOUT_ERROR = {
    "ename": "CellTimeoutError", "evalue": "",
    "traceback": ["CellTimeoutError: this cell ran longer than the time limit and was "
                  "interrupted; the notebook went on with the next cell"]}


def bounded_client() -> type:
    """The async kernel client whose heartbeat thread stops within :data:`HB_STOP` seconds:
    jupyter_client joins it without a limit, and a kernel whose code wrote into its own
    sockets leaves it blocked, so nbgrader would wait forever after the notebook."""
    from jupyter_client.asynchronous import AsyncKernelClient
    from jupyter_client.channels import HBChannel
    from traitlets import Type

    class BoundedHB(HBChannel):  # type: ignore[misc]
        def stop(self) -> None:
            self._running = False
            self._exit.set()
            self.join(timeout=HB_STOP)
            if not self.is_alive():
                self.close()

    class Client(AsyncKernelClient):  # type: ignore[misc]
        hb_channel_class = Type(BoundedHB)

    return Client


def kernel_manager() -> type:
    """The async kernel manager whose control messages give up after :data:`SEND_WAIT`
    seconds (a socket whose peer is gone would block the interrupt, and nbgrader, forever);
    an interrupt that cannot be sent stops the kernel instead."""
    import zmq
    from jupyter_client.manager import AsyncKernelManager

    class Manager(AsyncKernelManager):  # type: ignore[misc]
        def _connect_control_socket(self) -> None:
            if self._control_socket is None:
                super()._connect_control_socket()
                socket: Any = self._control_socket
                socket.sndtimeo = int(SEND_WAIT * 1000)
                socket.linger = 0

        async def _async_interrupt_kernel(self) -> None:
            try:
                await super()._async_interrupt_kernel()
            except zmq.Again:
                self.log.warning("minimaxkit: the kernel does not take messages any more; "
                                 "it is stopped")
                await self._async_kill_kernel()

        interrupt_kernel = _async_interrupt_kernel

    return Manager


class SandboxedExecute(Execute):
    """nbgrader's ``Execute`` in the ``minimaxkit-sandbox`` kernel, stopped over its bounds
    (:class:`~minimaxkit.isolation.watch.Watch`); a cell past ``timeout`` is interrupted, a
    kernel that does not answer, dies or is stopped costs the cells after it."""

    kernel_name = Unicode(KERNEL_NAME, help="kernel spec for autograde").tag(config=True)
    trusted_grade = Bool(True, help="start TrustedGrade's grading while the kernel runs "
                         "(TrustedGrade must follow in the pipeline)").tag(config=True)

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        kwargs.setdefault("kernel_manager_class", kernel_manager())
        super().__init__(*args, **kwargs)
        self.error_on_timeout = TIMEOUT_ERROR
        # a grading kernel has nothing to save: kill it at the end rather than ask it to
        # shut down (a request its own code may have made it unable to answer)
        self.shutdown_kernel = "immediate"

    def create_kernel_manager(self) -> Any:
        """A manager of the ``minimaxkit-sandbox`` kernel over Unix sockets in a connection folder
        of its own, with the bounded client; warns where bubblewrap cannot run."""
        from jupyter_client.kernelspec import KernelSpecManager

        bwrap.available()  # refuses here, with MINIMAXKIT_REQUIRE_SANDBOX=1 and no sandbox
        specs = KernelSpecManager()
        specs.kernel_dirs = [str(KERNELSPEC_DIR), *specs.kernel_dirs]
        self._connection_dir = connection_folder()
        self.km = self.kernel_manager_class(
            kernel_name=self.kernel_name, config=self.config, kernel_spec_manager=specs,
            transport="ipc", connection_file=os.path.join(self._connection_dir, "kernel.json"))
        self.km.client_factory = bounded_client()
        return self.km

    def preprocess(self, nb: NotebookNode, resources: Any = None, km: Any = None) -> Any:
        """Run ``nb`` in the sandboxed kernel (starting the trusted grading first when
        ``TrustedGrade`` follows); the watch and the connection folder go at the end."""
        self._dead = self._connection_dir = ""
        self._watch: Watch | None = None  # the kernel's sandbox, over its bounds is stopped
        if isinstance(resources, dict) and "nbgrader" in resources and self.trusted_grade:
            # TrustedGrade's grading starts now, in a thread and a sandboxed child of its own,
            # while the kernel runs the notebook; where it times the function (games), it ends
            # first: two sandboxes at once can signal each other (docs/grading.md)
            grading = resources[_GRADING] = Grading(nb, resources,
                                                    cell_timeout=self.timeout or EXEC_TIMEOUT)
            grading.start()
            if grading.plays:
                grading.wait()
        self._began = time.monotonic()  # all the cells together: NOTEBOOK_TIME
        try:
            return super().preprocess(nb, resources, km)
        finally:
            if self._watch is not None:
                self._watch.close()
            if self._connection_dir:
                shutil.rmtree(self._connection_dir, ignore_errors=True)

    def preprocess_cell(self, cell: NotebookNode, resources: Any, index: int) -> Any:
        """Run one code cell: a cell past the notebook's time, or after the kernel died or was
        stopped, is not run and says why; a kernel over its bounds is stopped; adjacent prints
        are joined into one output."""
        from nbclient.exceptions import CellTimeoutError, DeadKernelError

        if cell.cell_type != "code":
            return cell, self.resources
        if not self._dead and time.monotonic() - self._began > NOTEBOOK_TIME:
            self._dead = f"the notebook's cells ran longer than {NOTEBOOK_TIME:g} s in all"
        if self._dead:
            cell.outputs = [_error("KernelDied", f"not run: {self._dead}")]
            return cell, self.resources
        if self._watch is None and self.km is not None and self.km.has_kernel:
            self._watch = Watch(self.km.provisioner.pid).start()
        try:
            cell, res = super().preprocess_cell(cell, resources, index)
            if self._watch is not None and self._watch.check():  # what it left running
                raise DeadKernelError(self._watch.stopped)
            joined: list[Any] = []  # adjacent prints as one output, however the messages came
            for out in cell.outputs:
                if joined and out.output_type == joined[-1].output_type == "stream" \
                        and out.name == joined[-1].name:
                    joined[-1].text += out.text
                else:
                    joined.append(out)
            cell.outputs = joined
            return cell, res
        except CellTimeoutError:
            # interrupted, and still no answer: the kernel is stuck (it ignores interrupts,
            # or its code broke its own connection); stop it rather than wait per cell
            self._stop_kernel()
            self._dead = (f"an earlier cell ran longer than {self.timeout} s and the kernel "
                          "did not answer when it was interrupted, so it was stopped")
            error = _error("CellTimeoutError", f"this cell ran longer than "
                           f"{self.timeout} s and did not stop when interrupted: the "
                           "kernel was stopped")
        except DeadKernelError:
            self._dead = ("the kernel died in an earlier cell (did the code end the process, "
                          "e.g. os._exit or sys.exit from a thread, or run out of memory?)")
            error = _error("KernelDied", "the kernel died while running this cell "
                           "(did it end the process or run out of memory?)")
        except Exception as err:  # the kernel's messages broke: its code wrote into them
            self.log.warning("minimaxkit: the kernel's connection broke in cell %d: %r",
                             index, err)
            self._stop_kernel()
            self._dead = ("the kernel's connection to the grader broke in an earlier cell "
                          "(did the code write to or close the kernel's own files?)")
            error = _error("KernelBroken", "the notebook's code interfered with the "
                           "kernel while running this cell: its connection to the "
                           "grader broke, and the kernel was stopped")
        if self._watch is not None and self._watch.stopped:  # however nbclient saw it end
            self._dead = f"in an earlier cell, {self._watch.stopped}"
            error = _error("KernelDied", self._watch.stopped)
        cell.outputs, cell.execution_count = [error], None  # its count may or may not arrive
        return cell, self.resources

    def _stop_kernel(self) -> None:
        try:
            if self.km is not None and self.km.provisioner is not None:
                from jupyter_core.utils import run_sync

                run_sync(self.km.provisioner.kill)()
        except Exception as err:  # the kernel may be gone already
            self.log.debug("minimaxkit: stopping the kernel: %s", err)


def _error(name: str, text: str) -> NotebookNode:
    return from_dict({"output_type": "error", "ename": name, "evalue": text,
                      "traceback": [f"{name}: {text}"]})


class TrustedGrade(NbGraderPreprocessor):
    """Grade every ``grade(...)`` test cell outside the kernel: wait for the grading
    :class:`SandboxedExecute` started (or grade now, after another ``Execute``), write it."""

    enabled = Bool(True, help="grade test cells outside the kernel").tag(config=True)

    def preprocess(self, nb: NotebookNode, resources: dict[str, Any]) -> Any:
        """Cap the outputs, drop the kit's cell metadata, then write each test cell's trusted
        verdict and points (a cell left without one scores 0 and says why)."""
        grading = resources.pop(_GRADING, None) or Grading(nb, resources)
        say_course_warnings(self.log, grading.root)  # no sandbox, no secret: once a run
        if cut := cap_outputs(nb):
            self.log.warning("minimaxkit: the output of %d cell(s) cut to %d characters",
                             cut, OUTPUT_LIMIT)
        for cell in nb.cells:  # the kit's cell metadata is the trusted grader's alone
            cell.metadata.pop("minimaxkit", None)
        if grading.warning:
            self.log.warning("minimaxkit: %s", grading.warning)
        for index in grading.wait():
            cell = nb.cells[index]
            printed = "".join(str(o.get("text", "")) for o in cell.outputs
                              if o.get("output_type") == "stream")
            cell.outputs = grading.cell_outputs(index, printed)
            cell.metadata.setdefault("minimaxkit", {}).update(grading.cell_metadata(index))
        for warning in grading.course_warnings():  # the course's data: once a run too
            warn_once(self.log, warning)
        if grading.error is not None:
            self.log.error("minimaxkit: grading outside the notebook failed: %r",
                           grading.error)
        for index in grading.unfinished():  # never the kernel's own claim: no points
            why = ("the notebook's code interfered with the grader"
                   if isinstance(grading.error, TimeoutError | type(None)) else
                   "the grader failed (a fault of the grader, not of your code: tell your "
                   "instructor)")
            nb.cells[index].outputs = [_error("NotGraded", f"this test could not be graded: "
                                              f"{why}; it scores 0")]
        return nb, resources
