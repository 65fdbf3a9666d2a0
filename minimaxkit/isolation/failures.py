"""How a sandboxed child fails, as types: the grader decides what to tell the student by the
kind of failure, never by comparing message text. Every failure is the submission's (its code
ended the child, kept it busy, or wrote into the channel); its ``message`` says so in the
student's words, or is empty when the caller words it.

=======================  ===========  ==============================================
class                    ``status``   what happened
=======================  ===========  ==============================================
:class:`ChildTimedOut`   "timeout"    no answer in time (or the test's processor time
                                      ran out)
:class:`ChildEnded`      "crashed"    the child (or a test's worker) ended without a
                                      report
:class:`SandboxStopped`  "crashed"    the grader stopped the sandbox over its bounds
                                      (memory, tasks, the processor used while idle)
:class:`ChannelBroken`   "protocol"   a message broke the channel's schema
=======================  ===========  ==============================================

>>> err = SandboxStopped("it held too much")
>>> isinstance(err, ChildEnded), err.status is Status.CRASHED, err.message
(True, True, 'it held too much')
>>> ChildTimedOut().status == "timeout"
True
"""

from __future__ import annotations

from enum import StrEnum

__all__ = ["Status", "ChildFailed", "ChildTimedOut", "ChildEnded", "SandboxStopped",
           "ChannelBroken", "INTERFERED"]

#: how the student is told that their code broke the channel to the grader
INTERFERED = "the notebook's code interfered with the grader"


class Status(StrEnum):
    """The kind of a failure, as a word (equal to its string: ``Status.TIMEOUT == "timeout"``)."""

    TIMEOUT = "timeout"
    CRASHED = "crashed"
    PROTOCOL = "protocol"


class ChildFailed(Exception):
    """The child did not do what the protocol says: ``status`` names the kind (a
    :class:`Status` for the subclasses below; callers that raise it themselves may name their
    own, such as "raised"), ``message`` says why in the student's words ("" when the caller
    words it)."""

    def __init__(self, status: str, message: str = "") -> None:
        super().__init__(message or str(status))
        self.status, self.message = status, message


class ChildTimedOut(ChildFailed):
    """No answer before the deadline, or the test's processor time ran out."""

    def __init__(self, message: str = "") -> None:
        super().__init__(Status.TIMEOUT, message)


class ChildEnded(ChildFailed):
    """The child, or a test's worker in it, ended without a report."""

    def __init__(self, message: str = "") -> None:
        super().__init__(Status.CRASHED, message)


class SandboxStopped(ChildEnded):
    """The grader stopped the sandbox because it went over one of its bounds (the message
    says which: :data:`~.watch.TOO_BIG`, :data:`~.watch.TOO_MANY`, :data:`~.watch.BUSY`)."""


class ChannelBroken(ChildFailed):
    """A message from the child broke the channel's schema (:mod:`.protocol`)."""

    def __init__(self, message: str = "") -> None:
        super().__init__(Status.PROTOCOL, message)
