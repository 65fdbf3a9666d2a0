"""The trees a suite's specs describe (docs/grading.md, *Adding a test tree*): ``{"nested":
...}`` (numbers are leaves, players alternate from the root) or ``{"random": ...}`` (drawn from
a seed made by :func:`seed_for`), with ``"root"`` and ``"static"`` (interior values: the true
value plus rounded noise) optional. A random tree may stop early (leaves above its depth), have
its root's player drawn (``"root": "either"``) and ``"require"`` what the tree must show, for
the classic bugs to change its value, move or leaves: it is drawn again until it does.

>>> spec = TreeSpec.read({"random": {"depth": 4, "branching": [2, 3], "values": [-9, 9],
...                                  "early": 0.3}, "root": "either",
...                       "require": {"negative": True, "leaf_above": 3}})
>>> tree = build_tree(spec, seed=7)
>>> min(l.value for l in tree.leaves()) < 0 < max(l.value for l in tree.leaves())
True
>>> min(len(l.path) for l in tree.leaves()) < 3
True
"""

from __future__ import annotations

import functools
import hashlib
import json
import math
import random
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from ...deepening import iter_deepen
from ...search import minimax
from ...tree import GameTree, Node
from .root_order import root_values_shows

__all__ = ["build_tree", "seed_for", "TreeSpec", "Shape", "Requirements", "SpecError"]

Path = tuple[int, ...]
ATTEMPTS = 400  # draws before a random tree that shows every requirement is given up on


class SpecError(ValueError):
    """A tree spec the suite's author wrote wrong: says which key and what is expected."""


def seed_for(student: str, name: str, salt: str = "") -> int:
    """A 32-bit seed from a student's id, a test's name and the course's salt.

    >>> seed_for("alice", "yours") == seed_for("alice", "yours")
    True
    >>> seed_for("alice", "yours") == seed_for("bob", "yours")
    False
    """
    digest = hashlib.sha256(f"{salt}\0{student}\0{name}".encode()).digest()
    return int.from_bytes(digest[:4], "big")


def _pair(value: Any, key: str) -> tuple[int, int]:
    pair = (value, value) if isinstance(value, int) else value
    if not (isinstance(pair, list | tuple) and len(pair) == 2 and
            all(isinstance(v, int) and not isinstance(v, bool) for v in pair) and
            pair[0] <= pair[1]):
        raise SpecError(f"'{key}' must be a whole number or a range [lo, hi], got {value!r}")
    return int(pair[0]), int(pair[1])


@dataclass(frozen=True)
class Shape:
    """A random tree's shape: its depth, each node's number of children (a range), the leaves'
    values (a range), and ``early``: the chance that a node below the root and above
    ``depth`` is a leaf."""

    depth: int
    branching: tuple[int, int] = (2, 2)
    values: tuple[int, int] = (0, 9)
    early: float = 0.0

    @classmethod
    def read(cls, data: Any) -> Shape:
        if not isinstance(data, dict) or not isinstance(data.get("depth"), int):
            raise SpecError(f"'random' needs a whole number 'depth', got {data!r}")
        unknown = set(data) - {"depth", "branching", "values", "early"}
        if unknown:
            raise SpecError(f"'random' has unknown keys {sorted(unknown)}")
        early = data.get("early", 0.0)
        if not isinstance(early, int | float) or not 0 <= early < 1:
            raise SpecError(f"'early' must be a chance in [0, 1), got {early!r}")
        return cls(int(data["depth"]), _pair(data.get("branching", 2), "branching"),
                   _pair(data.get("values", [0, 9]), "values"), float(early))

    def nested(self, rng: random.Random) -> Any:
        """Nested lists of leaf values, drawn depth-first."""
        def node(depth: int) -> Any:
            stop = depth == self.depth or (depth > 0 and rng.random() < self.early)
            if stop:
                return rng.randint(*self.values)
            return [node(depth + 1) for _ in range(rng.randint(*self.branching))]
        return node(0)


@dataclass(frozen=True)
class Requirements:
    """What a random tree must show (JSON: ``"require": {"negative": true, ...}``):
    ``negative`` leaves below and above 0; ``tie`` a node with two equally good children;
    ``zero_start`` a MAX node whose children are all below 0, where a running maximum started
    at 0 changes the root's value; ``min_root``;
    ``leaf_above`` a leaf above this depth; ``root_tie`` two best moves at this depth;
    ``move_changes`` no best move at depth 1 is a best move at this depth; ``move_from_zero``
    the root is MAX and no child's value at this depth is above 0, so a best move whose
    running best starts at 0 is never beaten and chooses no move; ``root_values`` a
    deepening to this depth that orders the root's children by their values in the previous
    iteration (not the previous best child first, the others in static order) evaluates
    other leaves, in every cut rule and fail mode; ``full_depth`` the
    kit's deepening runs every depth up to this one, in every convention (on a tree whose
    search ends above it, it stops early, and an iteration per depth has nothing to be
    compared with)."""

    negative: bool = False
    tie: bool = False
    zero_start: bool = False
    min_root: bool = False
    leaf_above: int | None = None
    root_tie: int | None = None
    move_changes: int | None = None
    move_from_zero: int | None = None
    root_values: int | None = None
    full_depth: int | None = None

    @classmethod
    def read(cls, data: Any) -> Requirements:
        if data is None:
            return cls()
        if not isinstance(data, dict) or set(data) - set(cls.__dataclass_fields__):
            raise SpecError(f"'require' must be a dict of {sorted(cls.__dataclass_fields__)}, "
                            f"got {data!r}")
        return cls(**data)

    def unmet(self, tree: GameTree) -> list[str]:
        """The requirements ``tree`` does not show."""
        checks: list[tuple[str, Callable[[], bool]]] = [
            ("negative", lambda: _negative(tree)), ("tie", lambda: _tie(tree)),
            ("zero_start", lambda: _zero_start(tree)),
            ("min_root", lambda: not tree.root.is_max),
            ("leaf_above", lambda: _leaf_above(tree, self.leaf_above)),
            ("root_tie", lambda: len(_best_moves(tree, self.root_tie)) >= 2),
            ("move_changes", lambda: not set(_best_moves(tree, 1)) &
             set(_best_moves(tree, self.move_changes))),
            ("move_from_zero", lambda: _no_move_above_zero(tree, self.move_from_zero)),
            ("root_values", lambda: root_values_shows(tree, self.root_values or 0)),
            ("full_depth", lambda: _full_depth(tree, self.full_depth))]
        return [name for name, holds in checks
                if getattr(self, name) not in (False, None) and not holds()]


@dataclass(frozen=True)
class TreeSpec:
    """A test tree as a suite describes it (see the module's docstring)."""

    nested: Any = None
    shape: Shape | None = None
    root: str = "max"
    noise: float | None = None  # static values at interior nodes: the value plus this noise
    static_seed: int | None = None
    require: Requirements = Requirements()

    @classmethod
    def read(cls, spec: dict[str, Any] | TreeSpec) -> TreeSpec:
        """A spec as JSON data (or already read)."""
        if isinstance(spec, TreeSpec):
            return spec
        if not isinstance(spec, dict) or ("nested" in spec) == ("random" in spec):
            raise SpecError(f"a tree spec has 'nested' or 'random', got {spec!r}")
        unknown = set(spec) - {"nested", "random", "root", "static", "require"}
        if unknown:
            raise SpecError(f"a tree spec has unknown keys {sorted(unknown)}")
        root = spec.get("root", "max")
        if root not in ("max", "min", "either"):
            raise SpecError(f"'root' must be 'max', 'min' or 'either', got {root!r}")
        static = spec.get("static")
        if static is not None and not isinstance(static, dict):
            raise SpecError(f"'static' must be a dict with 'noise' (and 'seed'), got {static!r}")
        return cls(spec.get("nested"), Shape.read(spec["random"]) if "random" in spec else None,
                   root, float(static.get("noise", 0)) if static is not None else None,
                   static.get("seed") if static is not None else None,
                   Requirements.read(spec.get("require")))

    @property
    def plain(self) -> bool:
        """A random tree as the kit drew it before shapes and requirements: every leaf at one
        depth, a fixed root (the same trees for the same seeds as then)."""
        return self.shape is not None and self.shape.early == 0 and self.root != "either" \
            and self.require == Requirements()


def build_tree(spec: dict[str, Any] | TreeSpec, *, seed: int | None = None) -> GameTree:
    """The tree a spec describes (``seed`` drives a ``"random"`` one).

    >>> build_tree({"nested": [[1, 2], [3]], "root": "min"}).root.player
    'min'
    >>> t = build_tree({"nested": [[3, 12], [2, 4]], "static": {"noise": 0}})
    >>> t.root.value, t.node((1,)).value
    (3, 2)
    >>> len(build_tree({"random": {"depth": 2, "branching": 2}}, seed=5).leaves())
    4
    """
    if isinstance(spec, dict):
        try:
            return _built(json.dumps(spec, sort_keys=True), seed)
        except TypeError:  # not JSON data: read it as it is
            pass
    return _build(TreeSpec.read(spec), seed)


@functools.lru_cache(maxsize=512)
def _built(spec: str, seed: int | None) -> GameTree:
    """A tree built once per spec and seed (trees are read-only; every student's fixed trees
    are the same)."""
    return _build(TreeSpec.read(json.loads(spec)), seed)


def _build(spec: TreeSpec, seed: int | None) -> GameTree:
    if spec.shape is None:
        return _with_static(GameTree.from_nested(spec.nested, root=spec.root), spec, seed)
    if spec.plain:
        s = spec.shape
        tree = GameTree.random(depth=s.depth, branching=s.branching, values=s.values,
                               seed=seed, root=spec.root)
        return _with_static(tree, spec, seed)
    draws = random.Random(seed)
    best: tuple[int, GameTree] | None = None
    for _ in range(ATTEMPTS):
        tree = _drawn(spec, draws.getrandbits(32))
        unmet = len(spec.require.unmet(tree))
        if best is None or unmet < best[0]:
            best = (unmet, tree)
        if unmet == 0:
            break
    assert best is not None
    return best[1]


def _drawn(spec: TreeSpec, seed: int) -> GameTree:
    assert spec.shape is not None
    rng = random.Random(seed)
    root = spec.root if spec.root != "either" else rng.choice(("max", "min"))
    nested = spec.shape.nested(rng)
    if not isinstance(nested, list):
        nested = [nested]
    return _with_static(GameTree.from_nested(nested, root=root), spec, seed)


def _with_static(tree: GameTree, spec: TreeSpec, seed: int | None) -> GameTree:
    """``tree`` with static values at its interior nodes (the true value plus noise, rounded),
    if the spec asks for them."""
    if spec.noise is None:
        return tree
    d = tree.with_static(noise=spec.noise,
                         seed=spec.static_seed if spec.static_seed is not None else seed
                         ).to_dict()
    todo = [d]
    while todo:
        node = todo.pop()
        if "children" in node:
            node["value"] = round(node["value"])
            todo += [edge["node"] for edge in node["children"]]
    return GameTree.from_dict(d)


# ----- what a tree shows -------------------------------------------------------------------
def _negative(tree: GameTree) -> bool:
    values = [leaf.value for leaf in tree.leaves() if leaf.value is not None]
    return min(values) < 0 < max(values)


def _values(tree: GameTree, depth: int | None = None) -> dict[Path, float]:
    trace = minimax(tree, depth=depth).trace
    assert trace is not None
    return dict(trace.values)


def _tie(tree: GameTree) -> bool:
    values = _values(tree)
    return any(len({values[c.path] for c in n.children}) < len(n.children)
               for n in tree.nodes() if n.children)


def _max_from_zero(node: Node) -> float:
    """A node's value by a minimax whose running maximum starts at 0."""
    if not node.children:
        assert node.value is not None
        return node.value
    values = [_max_from_zero(c) for c in node.children]
    return max([0.0, *values]) if node.is_max else min(values)


def _zero_start(tree: GameTree) -> bool:
    return not math.isclose(_max_from_zero(tree.root), _values(tree)[()])


def _no_move_above_zero(tree: GameTree, depth: int | None) -> bool:
    """The root is MAX and none of its children is worth more than 0 at ``depth``: a best
    move started at (0, no move) keeps its start, so the bug shows whatever the MIN side
    starts at."""
    values = _values(tree, depth)
    return tree.root.is_max and all(values[c.path] <= 0 for c in tree.root.children)


def _leaf_above(tree: GameTree, depth: int | None) -> bool:
    return depth is not None and any(0 < len(leaf.path) < depth for leaf in tree.leaves())


def _best_moves(tree: GameTree, depth: int | None) -> list[int]:
    values = _values(tree, depth)
    return [i for i, c in enumerate(tree.root.children) if values[c.path] == values[()]]


def _full_depth(tree: GameTree, depth: int | None) -> bool:
    """Whether the kit's deepening runs every depth up to ``depth`` on ``tree``, with and
    without reordering, in every cut rule and fail mode."""
    if depth is None:
        return True
    return all(sum(1 for _ in iter_deepen(tree, max_depth=depth, reorder=reorder,
                                          prune_on_equal=equal, fail=fail, trace=False))
               == depth for reorder in (True, False) for equal in (True, False)
               for fail in ("soft", "hard", "one-sided"))
