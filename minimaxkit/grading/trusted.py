"""nbgrader preprocessors for grading that the submission cannot forge.

``nbgrader_config.py`` puts two of them in ``Autograde.autograde_preprocessors``:

* :class:`SandboxedExecute` runs the notebook as nbgrader's ``Execute`` does, but in the
  kernel spec ``minimaxkit-sandbox`` (:mod:`.kernel`: IPython inside bubblewrap, the
  course folder hidden except the submission's own folder, no network, limits, every
  process killed with the kernel); a kernel that dies (``os._exit``, out of memory) costs
  the cells after it, not the whole submission.
* :class:`TrustedGrade` grades again, outside the kernel: in nbgrader's own process (in a
  thread that :class:`SandboxedExecute` starts before the kernel, so both run at once) it
  reads each test cell's ``grade(...)`` call (the cell as nbgrader restored it from the
  gradebook, so edits to it do not count), runs the notebook's other code cells in a fresh
  sandboxed child (:class:`~minimaxkit.grading.remote.Session`) and grades each tree
  through the remote protocol, the recorder and the verdict staying here. Its verdict
  replaces the test cell's output, and its points are what nbgrader records (the cell's
  last value, nbgrader's partial credit). When the notebook's own ``grade(...)`` printed
  something else for the visible trees, the feedback says so.

>>> call = grade_call('hidden_trees = False\\nhidden_trees = True\\n'
...                   'grade("alphabeta", "alphabeta", points=7, hidden=hidden_trees)')
>>> call.fn, call.question, call.kwargs
('alphabeta', 'alphabeta', {'points': 7, 'hidden': True})
"""

from __future__ import annotations

import ast
import os
import re
import shutil
import tempfile
import threading
from dataclasses import dataclass, field, replace
from fractions import Fraction
from pathlib import Path
from typing import Any

from nbformat.notebooknode import NotebookNode, from_dict
from nbgrader.preprocessors import Execute, NbGraderPreprocessor
from traitlets import Bool, Unicode

from . import bwrap, sandbox
from .grader import MAX_PICTURES, GradeReport, _wrap, grade_report, points_text
from .kernel import KERNEL_NAME, KERNELSPEC_DIR
from .remote import CELL_GRACE, EXEC_TIMEOUT, Session
from .submission import defined_functions
from .suite import SuiteError, course_root, load_visible, secret_file

__all__ = ["SandboxedExecute", "TrustedGrade", "GradeCall", "grade_call", "trusted_outputs"]


# ----- the sandboxed kernel -------------------------------------------------------------
def _bounded_client() -> type:
    """jupyter_client's async kernel client whose heartbeat thread stops within a few
    seconds: its ``stop`` joins the thread without a limit, and a kernel whose code wrote
    garbage into its own sockets leaves that thread blocked, so nbgrader would wait forever
    in the cleanup after the notebook."""
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


def _kernel_manager() -> type:
    """jupyter_client's async kernel manager whose messages to the kernel's control socket
    give up after :data:`SEND_WAIT` seconds. A socket whose peer is gone (a notebook that
    wrote garbage into its kernel's sockets) would otherwise block the interrupt, and with
    it nbgrader, forever; an interrupt that cannot be sent stops the kernel instead."""
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


SEND_WAIT = 2.0  # seconds a message to the kernel's control socket may wait
HB_STOP = 5.0  # seconds the heartbeat thread gets to stop
TIMEOUT_ERROR = {
    "ename": "CellTimeoutError", "evalue": "",
    "traceback": ["CellTimeoutError: this cell ran longer than the time limit and was "
                  "interrupted; the notebook went on with the next cell"]}


class SandboxedExecute(Execute):
    """nbgrader's ``Execute`` in the ``minimaxkit-sandbox`` kernel (see :mod:`.kernel`). A
    cell that runs past ``timeout`` is interrupted and the notebook goes on; a kernel that
    does not answer the interrupt is stopped, and the cells after it are marked not run."""

    kernel_name = Unicode(KERNEL_NAME, help="kernel spec for autograde").tag(config=True)
    trusted_grade = Bool(True, help="start TrustedGrade's grading while the kernel runs "
                         "(TrustedGrade must follow in the pipeline)").tag(config=True)

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        kwargs.setdefault("kernel_manager_class", _kernel_manager())
        super().__init__(*args, **kwargs)
        self.error_on_timeout = TIMEOUT_ERROR
        # a grading kernel has nothing to save: kill it at the end rather than ask it to
        # shut down (a request its own code may have made it unable to answer)
        self.shutdown_kernel = "immediate"

    def create_kernel_manager(self) -> Any:
        from jupyter_client.kernelspec import KernelSpecManager

        if not bwrap.available():
            self.log.warning(bwrap.WARNING)
        specs = KernelSpecManager()
        specs.kernel_dirs = [str(KERNELSPEC_DIR), *specs.kernel_dirs]
        self._connection_dir = tempfile.mkdtemp(prefix="minimaxkit-kernel-")
        self.km = self.kernel_manager_class(
            kernel_name=self.kernel_name, config=self.config, kernel_spec_manager=specs,
            transport="ipc", connection_file=os.path.join(self._connection_dir, "kernel.json"))
        self.km.client_factory = _bounded_client()
        return self.km

    def preprocess(self, nb: NotebookNode, resources: Any = None, km: Any = None) -> Any:
        self._dead = ""
        self._connection_dir = ""
        if isinstance(resources, dict) and "nbgrader" in resources and self.trusted_grade:
            # TrustedGrade's grading starts now, in a thread and a sandboxed child of its
            # own, while the kernel starts and runs the notebook
            resources[_GRADING] = _Grading(nb, resources,
                                           cell_timeout=self.timeout or EXEC_TIMEOUT)
            resources[_GRADING].start()
        try:
            return super().preprocess(nb, resources, km)
        finally:
            if self._connection_dir:
                shutil.rmtree(self._connection_dir, ignore_errors=True)

    def preprocess_cell(self, cell: NotebookNode, resources: Any, index: int) -> Any:
        from nbclient.exceptions import CellTimeoutError, DeadKernelError

        if cell.cell_type != "code":
            return cell, self.resources
        if self._dead:
            cell.outputs = [_error("KernelDied", f"not run: {self._dead}")]
            return cell, self.resources
        try:
            return super().preprocess_cell(cell, resources, index)
        except CellTimeoutError:
            # interrupted, and still no answer: the kernel is stuck (it ignores interrupts,
            # or its code broke its own connection); stop it rather than wait per cell
            self._stop_kernel()
            self._dead = (f"an earlier cell ran longer than {self.timeout} s and the kernel "
                          "did not answer when it was interrupted, so it was stopped")
            cell.outputs = [_error("CellTimeoutError", f"this cell ran longer than "
                                   f"{self.timeout} s and did not stop when interrupted: the "
                                   "kernel was stopped")]
            return cell, self.resources
        except DeadKernelError:
            self._dead = ("the kernel died in an earlier cell (did the code end the process, "
                          "e.g. os._exit or sys.exit from a thread, or run out of memory?)")
            cell.outputs = [_error("KernelDied", "the kernel died while running this cell "
                                   "(did it end the process or run out of memory?)")]
            return cell, self.resources
        except Exception as err:  # the kernel's messages broke: its code wrote into them
            self.log.warning("minimaxkit: the kernel's connection broke in cell %d: %r",
                             index, err)
            self._stop_kernel()
            self._dead = ("the kernel's connection to the grader broke in an earlier cell "
                          "(did the code write to or close the kernel's own files?)")
            cell.outputs = [_error("KernelBroken", "the notebook's code interfered with the "
                                   "kernel while running this cell: its connection to the "
                                   "grader broke, and the kernel was stopped")]
            return cell, self.resources


    def _stop_kernel(self) -> None:
        try:
            if self.km is not None and self.km.provisioner is not None:
                from jupyter_core.utils import run_sync

                run_sync(self.km.provisioner.kill)()
        except Exception as err:  # the kernel may be gone already
            self.log.debug("minimaxkit: stopping the kernel: %s", err)


_GRADING = "minimaxkit_trusted_grading"


def _error(name: str, text: str) -> NotebookNode:
    return from_dict({"output_type": "error", "ename": name, "evalue": text,
                      "traceback": [f"{name}: {text}"]})


# ----- reading the test cell --------------------------------------------------------------
@dataclass
class GradeCall:
    """A test cell's ``grade(fn, question, **kwargs)`` call, its arguments as plain data."""

    fn: str
    question: str
    kwargs: dict[str, Any] = field(default_factory=dict)


def grade_call(source: str) -> GradeCall | None:
    """The ``grade(...)`` call of a test cell's source, with names assigned constants at the
    top level (``hidden_trees = True``) resolved; None if the cell has no such call."""
    try:
        from IPython.core.inputtransformer2 import TransformerManager
        source = TransformerManager().transform_cell(source)
    except ImportError:  # pragma: no cover
        pass
    try:
        tree = ast.parse(source)
    except SyntaxError:
        return None
    known: dict[str, Any] = {}
    found = None

    def value(node: ast.expr) -> Any:
        if isinstance(node, ast.Name):
            if node.id not in known:
                raise ValueError(node.id)
            return known[node.id]
        return ast.literal_eval(node)

    for stmt in tree.body:
        if isinstance(stmt, ast.Assign) and len(stmt.targets) == 1 and \
                isinstance(stmt.targets[0], ast.Name):
            try:
                known[stmt.targets[0].id] = value(stmt.value)
            except (ValueError, SyntaxError, TypeError):
                known.pop(stmt.targets[0].id, None)
            continue
        call = stmt.value if isinstance(stmt, ast.Expr) else None
        if isinstance(call, ast.Call) and _named(call.func) == "grade" and len(call.args) >= 2:
            try:
                fn = call.args[0].id if isinstance(call.args[0], ast.Name) else \
                    value(call.args[0])
                found = GradeCall(str(fn), str(value(call.args[1])),
                                  {k.arg: value(k.value) for k in call.keywords if k.arg})
            except (ValueError, SyntaxError, TypeError):
                found = None
    return found


def _named(func: ast.expr) -> str:
    if isinstance(func, ast.Name):
        return func.id
    return func.attr if isinstance(func, ast.Attribute) else ""


# ----- the trusted verdict ----------------------------------------------------------------
def _printed(outputs: list[Any]) -> str:
    return "".join(str(o.get("text", "")) for o in outputs if o.get("output_type") == "stream")


def _visible_share(report: GradeReport, folder: Path) -> float | None:
    """The points of the visible trees in the trusted verdict, as the notebook's own
    ``grade(...)`` counts them there (a point a tree, see :attr:`GradeReport.per_tree`)."""
    try:
        names = {t["name"] for t in load_visible(folder)["questions"][report.question]["trees"]}
    except (SuiteError, KeyError, TypeError):
        return None
    seen = [t for t in report.trees if t.name in names]
    if not seen:
        return None
    alone = GradeReport(report.question, report.points, seen, in_all=len(report.trees))
    return alone.earned


def _kernel_note(report: GradeReport, old: list[Any], folder: Path) -> str:
    """Where the notebook's own grade(...) output differs from the trusted verdict."""
    text = _printed(old)
    claim = re.search(rf"^{re.escape(report.question)}: ([\d./]+) of ([\d./]+) points(.*)$",
                      text, re.M)
    if claim is None:
        return ("the notebook's own grade(...) printed no verdict for this cell (its code "
                "failed, ended the kernel, or replaced the grader)")
    try:
        got = float(Fraction(claim.group(1)))
    except (ValueError, ZeroDivisionError):
        got = -1.0
    visible = "on the visible trees" in claim.group(3)
    trusted = _visible_share(report, folder) if visible else report.earned
    if trusted is not None and abs(got - trusted) > 0.011:
        which = "the visible trees" if visible else "all trees"
        said = re.search(r"graded as (.*)$", claim.group(3))
        if report.convention is not None and said and said.group(1) != report.convention.label:
            return (f"the notebook's own grade(...) graded the visible trees as {said.group(1)}"
                    f" ({points_text(got)} points); with the hidden trees, "
                    f"{report.convention.label} is chosen and every tree is graded under it")
        return (f"the notebook's own grade(...) printed {points_text(got)} of "
                f"{claim.group(2)} for {which}, the trusted grader found "
                f"{points_text(trusted)}; the trusted grade counts: it "
                "runs outside the notebook, where the code cannot replace the grader or its "
                "test data, and it also stops processes the code left running")
    return ""


def trusted_outputs(report: GradeReport, old: list[Any], folder: Path, *,
                    notes: list[str] = ()) -> list[NotebookNode]:  # type: ignore[assignment]
    """The test cell's new outputs: the verdict text with the first picture right after the
    tree it shows, and the points (the cell's value, nbgrader's partial credit)."""
    from .picture import picture_svg, svg_bundle

    top = report.top()
    extra = [ln for n in notes if n for ln in _wrap(f"(while grading outside the notebook: {n})")]
    note = _kernel_note(report, old, folder)
    if note:
        extra += _wrap(f"(note: {note})")
    head = len(report.head()) + 1  # the head and its rule
    text = top[:head] + extra + top[head:]
    outputs: list[NotebookNode] = []

    def flush() -> None:
        if text:
            outputs.append(from_dict({"output_type": "stream", "name": "stdout",
                                      "text": "\n".join(text) + "\n"}))
            text.clear()

    pictures = 0
    for i, t in enumerate(report.trees):
        text.extend(report.tree_lines(i))
        if t.result.picture is not None and pictures < MAX_PICTURES:
            pic = t.result.picture
            svg = picture_svg(replace(pic, title=f"{t.name}: reference {pic.title}; "
                                                 "your differences marked"))
            if svg is not None:
                flush()
                outputs.append(from_dict({"output_type": "display_data", "metadata": {},
                                          "data": svg_bundle(svg)}))
                pictures += 1
    flush()
    outputs.append(from_dict({"output_type": "execute_result", "execution_count": None,
                              "metadata": {}, "data": {"text/plain": repr(report.earned)}}))
    return outputs


@dataclass
class _Verdict:
    report: GradeReport
    notes: list[str]


class _Grading:
    """The trusted grading of one notebook, run in a thread while the kernel runs it (the
    cells' sources are read before execution; execution changes only their outputs)."""

    def __init__(self, nb: NotebookNode, resources: dict[str, Any], *,
                 cell_timeout: float = EXEC_TIMEOUT) -> None:
        folder = Path(resources.get("metadata", {}).get("path") or ".").resolve()
        self.student = str(resources.get("nbgrader", {}).get("student", "")) or None
        root = course_root(folder)
        secret = secret_file(root)
        self.session = Session(folder, root, [secret] if secret else [],
                               cell_timeout=cell_timeout)
        # the test data comes from the course's source folder, never from the submission's
        # folder, which the notebook's code could write while it ran
        assignment = str(resources.get("nbgrader", {}).get("assignment", folder.name))
        self.source = root / "solutions" / assignment if root is not None else folder
        self.warning = ""
        if not (self.source / "tests.json").is_file():
            self.warning = f"{self.source / 'tests.json'} not found: grading with the " \
                           "submission's tests.json"
            self.source = folder
        self.plan: list[tuple[int, str | GradeCall]] = []
        self.defs: dict[str, str] = {}
        for i, cell in enumerate(nb.cells):
            if cell.cell_type != "code":
                continue
            meta = cell.metadata.get("nbgrader", {})
            is_test = bool(meta.get("grade")) and not meta.get("solution")
            call = grade_call(cell.source) if is_test else None
            if call is not None:
                self.plan.append((i, call))
            elif not is_test:
                self.plan.append((i, cell.source))
        # the notebook's functions, read from its cells (where the convention a submission
        # is written in is read from): the student's code runs elsewhere, out of reach
        try:
            self.defs = defined_functions(src for _, src in self.plan if isinstance(src, str))
        except Exception:  # the student's text could not be read: the trees decide
            self.defs = {}
        self.verdicts: dict[int, _Verdict] = {}
        self.error: BaseException | None = None
        self.thread: threading.Thread | None = None

    def start(self) -> None:
        """Grade in a thread (see :meth:`wait`)."""
        self.session.start()
        self.thread = threading.Thread(target=self.run, name="minimaxkit-trusted", daemon=True)
        self.thread.start()

    def budget(self) -> float:
        """Seconds the whole grading may take: every cell its time limit, every tree its
        own, and a margin. Every wait inside has its own limit; this one stands behind
        them, so that no submission can hold up the class."""
        cells = sum(1 for _, step in self.plan if isinstance(step, str))
        tests = len(self.plan) - cells
        return (cells + 2) * (self.session.cell_timeout + CELL_GRACE) + tests * 120.0 + 60.0

    def wait(self) -> dict[int, _Verdict]:
        """The verdicts by cell index, once grading is done (or its budget is spent: the
        child is stopped, and the cells not graded by then get no verdict)."""
        if self.thread is None:
            self.run()
        else:
            self.thread.join(self.budget())
            if self.thread.is_alive():
                self.error = TimeoutError(f"grading took longer than {self.budget():.0f} s")
                self.session.close()
                self.thread.join(30.0)
        return dict(self.verdicts)

    def unfinished(self) -> list[int]:
        """The test cells that got no verdict (the grading failed or ran out of time)."""
        return [i for i, step in self.plan if not isinstance(step, str) and
                i not in self.verdicts]

    def run(self) -> None:
        try:
            with self.session:
                for index, step in self.plan:
                    if isinstance(step, str):
                        self.session.run_cell(step)
                    else:
                        self.verdicts[index] = self._grade(step)
        except BaseException as err:  # reported by wait(), in nbgrader's thread
            self.error = err

    def _grade(self, call: GradeCall) -> _Verdict:
        session = self.session
        # every tree counts when nbgrader grades, whatever the cell says about hidden ones
        kwargs: dict[str, Any] = {k: v for k, v in call.kwargs.items()
                                  if k in ("points", "conventions", "timeout")}
        kwargs["hidden"] = True
        if isinstance(kwargs.get("conventions"), list):
            kwargs["conventions"] = tuple(kwargs["conventions"])
        from .evaluation import is_evaluation, trusted_report

        if is_evaluation(self.source, call.question):  # assignment 5: graded by play
            evaluation = trusted_report(session, call.fn, call.question, self.source,
                                        points=float(kwargs.get("points", 1)))
            notes = [] if session.sandboxed else ["no bubblewrap sandbox on this machine"]
            notes += session.problems[-2:]
            session.problems = []
            return _Verdict(evaluation, notes)  # type: ignore[arg-type]
        sandbox.set_remote(session)
        try:
            report = grade_report(call.fn, call.question, here=self.source,
                                  _caller=session.caller(), _student=self.student,
                                  _defs=self.defs, **kwargs)
        finally:
            sandbox.set_remote(None)
        notes = [] if session.sandboxed else ["no bubblewrap sandbox on this machine"]
        notes += session.problems[-2:]
        session.problems = []
        return _Verdict(report, notes)


class TrustedGrade(NbGraderPreprocessor):
    """Grade every ``grade(...)`` test cell outside the kernel (see the module docstring).
    :class:`SandboxedExecute` starts the grading while the kernel runs the notebook; this
    step waits for it (or grades now, after another ``Execute``) and writes the verdicts."""

    enabled = Bool(True, help="grade test cells outside the kernel").tag(config=True)

    def preprocess(self, nb: NotebookNode, resources: dict[str, Any]) -> Any:
        grading = resources.pop(_GRADING, None) or _Grading(nb, resources)
        if grading.warning:
            self.log.warning("minimaxkit: %s", grading.warning)
        for index, verdict in grading.wait().items():
            cell = nb.cells[index]
            if hasattr(verdict.report, "outputs"):  # assignment 5 (.evaluation)
                cell.outputs = verdict.report.outputs(verdict.notes)
                continue
            cell.outputs = trusted_outputs(verdict.report, cell.outputs, grading.source,
                                           notes=verdict.notes)
        if grading.error is not None:
            self.log.error("minimaxkit: grading outside the notebook failed: %r",
                           grading.error)
        for index in grading.unfinished():  # never the kernel's own claim: no points
            why = ("the notebook's code interfered with the grader"
                   if isinstance(grading.error, (TimeoutError, type(None))) else
                   "the grader failed (a fault of the grader, not of your code: tell your "
                   "instructor)")
            nb.cells[index].outputs = [_error("NotGraded", f"this test could not be graded: "
                                              f"{why}; it scores 0")]
        return nb, resources
