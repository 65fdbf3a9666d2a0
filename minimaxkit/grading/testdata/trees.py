"""The trees a suite's specs describe: ``{"nested": ...}`` or ``{"random": ...}`` (seeded by
:func:`seed_for`), with ``"root"`` and ``"static"`` (interior values: true value plus rounded
noise) optional; see docs/grading.md, *Adding a test tree*.
"""

from __future__ import annotations

import hashlib
from typing import Any

from ...tree import GameTree

__all__ = ["build_tree", "seed_for"]


def seed_for(student: str, name: str, salt: str = "") -> int:
    """A 32-bit seed from a student's id, a test's name and the course's salt.

    >>> seed_for("alice", "yours") == seed_for("alice", "yours")
    True
    >>> seed_for("alice", "yours") == seed_for("bob", "yours")
    False
    """
    digest = hashlib.sha256(f"{salt}\0{student}\0{name}".encode()).digest()
    return int.from_bytes(digest[:4], "big")


def build_tree(spec: dict[str, Any], *, seed: int | None = None) -> GameTree:
    """The tree a spec describes (``seed`` drives a ``"random"`` one).

    >>> build_tree({"nested": [[1, 2], [3]], "root": "min"}).root.player
    'min'
    >>> t = build_tree({"nested": [[3, 12], [2, 4]], "static": {"noise": 0}})
    >>> t.root.value, t.node((1,)).value
    (3, 2)
    >>> len(build_tree({"random": {"depth": 2, "branching": 2}}, seed=5).leaves())
    4
    """
    if "random" in spec:
        opts = dict(spec["random"])
        for key in ("branching", "values"):
            if isinstance(opts.get(key), list):
                opts[key] = tuple(opts[key])
        tree = GameTree.random(seed=seed, root=spec.get("root", "max"), **opts)
    else:
        tree = GameTree.from_nested(spec["nested"], root=spec.get("root", "max"))
    static = spec.get("static")
    if static is not None:
        tree = _with_round_static(tree, float(static.get("noise", 0)), static.get("seed", seed))
    return tree


def _with_round_static(tree: GameTree, noise: float, seed: int | None) -> GameTree:
    d = tree.with_static(noise=noise, seed=seed).to_dict()
    todo = [d]
    while todo:
        node = todo.pop()
        if "children" in node:
            node["value"] = round(node["value"])
            todo += [edge["node"] for edge in node["children"]]
    return GameTree.from_dict(d)
