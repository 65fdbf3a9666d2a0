"""Seeded random trees, as nested lists (:func:`random_nested`; ``GameTree.random`` builds
the tree): a shape drawn first (every leaf at the same depth), then the leaf values.

>>> random_nested(depth=2, branching=2, values=(0, 9), ties=True, seed=1)
[[1, 7], [7, 7]]
>>> random_nested(depth=0, branching=2, values=(0, 9), ties=True, seed=1)
2
"""

from __future__ import annotations

import random
from collections.abc import Iterator
from typing import Any

from ..errors import OptionError

__all__ = ["RANDOM_LEAVES", "random_nested"]

#: The most leaves a random tree may have.
RANDOM_LEAVES = 1_000_000
_END = object()


def random_nested(*, depth: int, branching: int | tuple[int, int], values: tuple[int, int],
                  ties: bool, seed: int | None) -> Any:
    """A random tree's nested-list form with every leaf at ``depth``: each node's number of
    children is ``branching`` (fixed, or drawn from an inclusive range), the leaf values
    integers drawn from the inclusive range ``values`` (all different with ``ties=False``),
    every draw from ``random.Random(seed)``. Each option is checked first (an
    :class:`~minimaxkit.errors.OptionError` naming it)."""
    lo_b, hi_b = _check_options(depth, branching, values, ties, seed)
    lo, hi = values
    rng = random.Random(seed)
    shape = _random_shape(rng, depth, lo_b, hi_b)
    n_leaves = _count_leaves(shape)
    if ties:
        leaf_values = [rng.randint(lo, hi) for _ in range(n_leaves)]
    else:
        if hi - lo + 1 < n_leaves:
            raise OptionError("values", f"{values} holds {hi - lo + 1} distinct values, "
                                        f"too few for {n_leaves} leaves without ties")
        leaf_values = rng.sample(range(lo, hi + 1), n_leaves)
    return _fill(shape, iter(leaf_values))


def _whole(x: Any) -> bool:
    return isinstance(x, int) and not isinstance(x, bool)


def _check_options(depth: Any, branching: Any, values: Any, ties: Any,
                   seed: Any) -> tuple[int, int]:
    """The range of children a node may have, after checking every option."""
    if not _whole(depth) or depth < 0:
        raise OptionError("depth", f"must be a whole number >= 0, got {depth!r}")
    pair: Any = (branching, branching) if _whole(branching) else branching
    if not (isinstance(pair, (tuple, list)) and len(pair) == 2
            and all(_whole(b) for b in pair) and 1 <= pair[0] <= pair[1]):
        raise OptionError("branching", "must be a whole number >= 1 or a range (lo, hi) "
                                       f"with 1 <= lo <= hi, got {branching!r}")
    lo_b, hi_b = int(pair[0]), int(pair[1])
    if not (isinstance(values, (tuple, list)) and len(values) == 2
            and all(_whole(v) for v in values) and values[0] <= values[1]):
        raise OptionError("values", "must be a range (lo, hi) of whole numbers with "
                                    f"lo <= hi, got {values!r}")
    if seed is not None and not _whole(seed):
        raise OptionError("seed", f"must be None or a whole number, got {seed!r}")
    if not isinstance(ties, bool):
        raise OptionError("ties", f"must be True or False, got {ties!r}")
    if hi_b ** depth > RANDOM_LEAVES:
        raise OptionError("depth", f"branching {hi_b} to depth {depth} may make "
                                   f"{hi_b ** depth:,} leaves; the limit is "
                                   f"{RANDOM_LEAVES:,}")
    return lo_b, hi_b


def _random_shape(rng: random.Random, depth: int, lo_b: int, hi_b: int) -> Any:
    """Nested lists of None (the leaves), drawn depth-first (the order seeds rely on)."""
    if depth == 0:
        return None
    root: list[Any] = []
    stack = [(root, depth)]
    while stack:
        lst, d = stack.pop()
        n = rng.randint(lo_b, hi_b)
        if d == 1:
            lst.extend([None] * n)
            continue
        kids: list[list[Any]] = [[] for _ in range(n)]
        lst.extend(kids)
        stack.extend((k, d - 1) for k in reversed(kids))
    return root


def _count_leaves(shape: Any) -> int:
    count, stack = 0, [shape]
    while stack:
        item = stack.pop()
        if item is None:
            count += 1
        else:
            stack.extend(item)
    return count


def _fill(shape: Any, values: Iterator[int]) -> Any:
    """The shape with its leaves (None) replaced by values, left to right."""
    if shape is None:
        return next(values)
    out: list[Any] = []
    stack: list[tuple[Iterator[Any], list[Any]]] = [(iter(shape), out)]
    while stack:
        it, dst = stack[-1]
        c: Any = next(it, _END)
        if c is _END:
            stack.pop()
        elif c is None:
            dst.append(next(values))
        else:
            sub: list[Any] = []
            dst.append(sub)
            stack.append((iter(c), sub))
    return out
