"""Isolation: untrusted code in a bubblewrap sandbox with limits. A :class:`~.session.Session`
runs a notebook's cells in a child and answers calls on one channel whose every message is
checked (:mod:`.protocol`); it is made of a launcher (:mod:`.launcher`, the limits set by
:mod:`.rlimits`), the channel, a watch on the child's bounds (:mod:`.watch`) and the cell policy
(:mod:`.cells`), and says how a child failed by type (:mod:`.failures`). Beside it: the kernel
spec that ``nbgrader autograde`` runs notebooks in, a forked copy for the student's own runs,
``hostcheck``. It knows nothing of trees, verdicts or nbgrader: what a call means is the
business of the worker module a caller names (:mod:`.child`)."""
