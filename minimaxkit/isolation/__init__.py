"""Isolation: untrusted code in a bubblewrap sandbox with limits. A child runs a notebook's
cells and answers calls on one channel whose every message is checked (:mod:`.protocol`);
the kernel spec that ``nbgrader autograde`` runs notebooks in; ``hostcheck``. It knows
nothing of trees, verdicts or nbgrader: what a call means is the business of the worker
module a caller names (:mod:`.child`)."""
