"""The leaves a submission evaluated against the reference's: which conventions it matches, or
where it parts from the closest (the node, α and β there, what each did next), the leaves
*extra* and *missing*.

>>> from minimaxkit import GameTree, alphabeta
>>> tree = GameTree.from_nested([[3, 12, 8], [2, 4, 6], [14, 5, 2]])
>>> refs = {"equal-soft": alphabeta(tree).trace}
>>> every_leaf = [leaf.path for leaf in tree.leaves()]
>>> c = compare(every_leaf, refs, tree)
>>> c.matched, [tree.node(p).name for p in c.extra]
((), ['I', 'J'])
>>> import textwrap
>>> print(textwrap.fill(c.divergence.text, 90))
at node C (MIN, path (1,)) the reference cuts after child H returned 2: v = 2 ≤ α = 3 (an
α-cut; α = 3, β = ∞ there); your search went on to evaluate I
"""

from __future__ import annotations

import math
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

from ...trace import Cutoff, Enter, Leaf, Trace
from ...tree import GameTree

__all__ = ["Comparison", "Divergence", "compare", "value_text", "names"]

Path = tuple[int, ...]


def value_text(v: float | None) -> str:
    """A value as people write it: ``3``, ``2.5``, ``∞``, ``-∞``.

    >>> value_text(3.0), value_text(-math.inf), value_text(0.25)
    ('3', '-∞', '0.25')
    """
    if v is None:
        return "?"
    if math.isinf(v):
        return "∞" if v > 0 else "-∞"
    return str(int(v)) if float(v).is_integer() else f"{v:g}"


def names(tree: GameTree, paths: list[Path]) -> str:
    """Node names with their values: ``"D=3 E=12"``."""
    return " ".join(f"{tree.node(p).name}={value_text(tree.node(p).value)}"
                    for p in paths) or "(none)"


@dataclass(frozen=True)
class Divergence:
    """Where two searches part: node ``path``, the reference's α and β there, ``text``."""

    path: Path
    alpha: float | None
    beta: float | None
    text: str


@dataclass(frozen=True)
class Comparison:
    """The submission's leaves against the references'."""

    matched: tuple[str, ...]
    closest: str
    reference: list[Path]
    submitted: list[Path]
    extra: list[Path] = field(default_factory=list)
    missing: list[Path] = field(default_factory=list)
    repeated: list[Path] = field(default_factory=list)
    divergence: Divergence | None = None

    @property
    def ok(self) -> bool:
        """Some convention evaluates exactly these leaves, in order."""
        return bool(self.matched)

    @property
    def same_leaves(self) -> bool:
        """The same leaves, each once, whatever the order."""
        return (not self.repeated and len(self.submitted) == len(self.reference)
                and set(self.submitted) == set(self.reference))

    def marks(self) -> dict[Path, str]:
        """Marks for the picture: ``extra``, ``missing``, ``diverge``."""
        out = {p: "extra" for p in self.extra}
        out.update({p: "missing" for p in self.missing})
        if self.divergence is not None:
            out[self.divergence.path] = "diverge"
        return out


def compare(submitted: list[Path], refs: dict[str, Trace], tree: GameTree) -> Comparison:
    """The submission's leaves (in order) against each reference trace; when none matches,
    the closest is the one with the fewest leaves apart, then the longest agreement."""
    submitted = [tuple(p) for p in submitted]
    leaves = {name: t.leaves for name, t in refs.items()}
    matched = tuple(name for name, ls in leaves.items() if ls == submitted)
    repeated = [p for p, n in Counter(submitted).items() if n > 1]
    if matched:
        return Comparison(matched, matched[0], leaves[matched[0]], submitted, repeated=repeated)

    def closeness(name: str) -> tuple[int, int]:  # fewest leaves apart, then longest agreement
        ref = leaves[name]
        return -len(set(ref) ^ set(submitted)), _prefix(ref, submitted)
    closest = max(refs, key=closeness)  # first-listed wins ties: the documents' convention
    ref = leaves[closest]
    ref_set, sub_set = set(ref), set(submitted)
    extra = [p for p in dict.fromkeys(submitted) if p not in ref_set]
    missing = [p for p in ref if p not in sub_set]
    return Comparison((), closest, ref, submitted, extra, missing, repeated,
                      _divergence(ref, submitted, refs[closest], tree,
                                  strict=closest.startswith("strict")))


def _prefix(a: Sequence[Any], b: Sequence[Any]) -> int:
    k = 0
    while k < len(a) and k < len(b) and a[k] == b[k]:
        k += 1
    return k


def _is_under(path: Path, root: Path) -> bool:
    return path[:len(root)] == root


def _describe(tree: GameTree, path: Path) -> str:
    node = tree.node(path)
    return f"node {node.name} ({node.player.upper()}, path {path})"


def _divergence(ref: list[Path], sub: list[Path], trace: Trace, tree: GameTree, *,
                strict: bool) -> Divergence | None:
    k = _prefix(ref, sub)
    r = ref[k] if k < len(ref) else None
    s = sub[k] if k < len(sub) else None
    if s is not None and s in sub[:k]:
        parent = s[:-1]
        return Divergence(parent, None, None,
                          f"at {_describe(tree, parent)}: your search evaluated "
                          f"{tree.node(s).name} a second time (is a subtree searched twice?)")
    if s is not None:
        pruned = next((p for p in trace.pruned if _is_under(s, p)), None)
        if pruned is not None:
            return _reference_cut(trace, tree, pruned[:-1], s, strict)
        if tree.node(s).children and (r is None or len(r) != len(s)):
            return Divergence(s, None, None,
                              f"at {_describe(tree, s)}: your search read its static value, "
                              "but the reference searches below it (a depth limit off by "
                              "one?)")
    if r is None:
        return None
    # the submission skipped r: find the lowest ancestor of r it expanded
    lca = r[:_prefix(r, s)] if s is not None else ()
    stop = lca
    for d in range(len(r) - 1, len(lca) - 1, -1):
        anc = r[:d]
        if any(_is_under(p, anc) for p in sub[:k]) or anc == lca:
            stop = anc
            break
    child = r[:len(stop) + 1]
    alpha, beta = _window(trace, child)
    window = f" (α = {value_text(alpha)}, β = {value_text(beta)})" if alpha is not None else ""
    doing = (f"the reference goes on to child {tree.node(child).name}{window}")
    if s is None:
        then = "your search stopped there and evaluated nothing more"
    elif stop == lca:
        then = (f"your search went to {tree.node(s[:len(stop) + 1]).name} instead "
                "(it skipped that child, or searched the children in another order)")
    else:
        then = (f"your search cut there and went on to evaluate {tree.node(s).name}")
    return Divergence(stop, alpha, beta, f"at {_describe(tree, stop)} {doing}; {then}")


def _window(trace: Trace, path: Path) -> tuple[float | None, float | None]:
    return next(((e.alpha, e.beta) for e in trace
                 if isinstance(e, (Enter, Leaf)) and e.path == path), (None, None))


def _reference_cut(trace: Trace, tree: GameTree, at: Path, s: Path,
                   strict: bool) -> Divergence:
    events = trace.events
    cut = next((i for i, e in enumerate(events) if isinstance(e, Cutoff) and e.path == at), None)
    if cut is None:  # pragma: no cover - a pruned subtree always has its cut-off
        return Divergence(at, None, None, f"the reference cuts at {_describe(tree, at)}")
    event = events[cut]
    assert isinstance(event, Cutoff)
    last = next(e for e in reversed(events[:cut])
                if isinstance(e, (Enter, Leaf)) and e.path[:-1] == at)
    returned = trace.values.get(last.path)
    alpha, beta = last.alpha, last.beta
    if event.kind == "beta":
        test = f"v = {value_text(event.value)} {'>' if strict else '≥'} " \
               f"β = {value_text(event.bound)} (a β-cut"
    else:
        test = f"v = {value_text(event.value)} {'<' if strict else '≤'} " \
               f"α = {value_text(event.bound)} (an α-cut"
    text = (f"at {_describe(tree, at)} the reference cuts after child "
            f"{tree.node(last.path).name} returned {value_text(returned)}: {test}; "
            f"α = {value_text(alpha)}, "
            f"β = {value_text(beta)} there); your search went on to evaluate {tree.node(s).name}")
    return Divergence(at, alpha, beta, text)
