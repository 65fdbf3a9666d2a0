"""Recording: a student function run on a recorded tree, in a forked copy of this process or
through a sandboxed child passed in (:class:`~.remote.SessionRunner`); what it asked of the
tree and what it returned, as an :class:`~.outcome.Outcome`. Nothing here judges."""
