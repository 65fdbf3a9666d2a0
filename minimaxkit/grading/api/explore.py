"""For students trying their code before the tests: a node to call it on, a contained trial
that shows what it evaluated, a look at a tree.

>>> from minimaxkit.examples import aima_5_2
>>> def first_leaf(node):
...     return node.static() if node.is_leaf() else first_leaf(node.children()[0])
>>> print(try_on(first_leaf, aima_5_2()))
returned 3
evaluated 1 node: E=3
asked for the children of: A B
"""

from __future__ import annotations

import os
from collections.abc import Callable
from pathlib import Path
from typing import Any

from ...student import CHILDREN, Recorder, SearchNode, evaluated_in
from ...tree import GameTree
from ..recording.outcome import describe
from ..recording.runners import TIME_LIMIT, run_contained
from ..testdata.suites import load_visible
from ..testdata.trees import build_tree
from ..verdicts.compare import names, value_text
from .pictures import svg_bundle

__all__ = ["node_of", "try_on", "Trial", "explore", "test_tree", "SvgPicture"]


def node_of(tree: GameTree) -> SearchNode:
    """The root of ``tree`` as a :class:`SearchNode`, to call your function on.

    >>> from minimaxkit.examples import aima_5_2
    >>> [c.name for c in node_of(aima_5_2()).children()]
    ['B', 'C', 'D']
    """
    return Recorder(tree).root()


def test_tree(name: str, *, here: str | Path | None = None) -> GameTree:
    """The visible test tree ``name`` of the notebook's tests.json.

    >>> import json, tempfile
    >>> folder = Path(tempfile.mkdtemp())
    >>> _ = (folder / "tests.json").write_text(json.dumps({"questions": {"q": {"check": "minimax",
    ...     "trees": [{"name": "small", "tree": {"nested": [[1, 2], [3]]}}]}}}))
    >>> test_tree("small", here=folder).to_nested()
    [[1, 2], [3]]
    """
    suite = load_visible(Path(here) if here is not None else Path.cwd())
    known = []
    for question in suite["questions"].values():
        for entry in question.get("trees", []):
            if entry["name"] == name:
                return build_tree(entry["tree"])
            known.append(entry["name"])
    raise KeyError(f"no test tree {name!r}; the visible ones are {sorted(set(known))}")


class Trial:
    """What :func:`try_on` saw: the value returned, the nodes evaluated and expanded."""

    def __init__(self, text: str, evaluated: list[str], ok: bool) -> None:
        self.text = text
        self.evaluated = evaluated
        self.ok = ok

    def __repr__(self) -> str:
        return self.text

    def __str__(self) -> str:
        return self.text


def try_on(fn: Callable[..., Any], tree: GameTree, *args: Any,
           timeout: float = TIME_LIMIT) -> Trial:
    """``fn(root, *args)`` on ``tree``, contained as when graded: what it returned and
    evaluated. Nothing while nbgrader runs the notebook."""
    if os.environ.get("NBGRADER_EXECUTION"):
        return Trial("(trial runs are skipped while nbgrader runs the notebook)", [], False)
    out = run_contained(lambda rec: describe(fn(rec.root(), *args)), tree, timeout=timeout)
    if not out.ok:
        name = getattr(fn, "__name__", None) or type(fn).__name__  # a callable object too
        return Trial(f"{name} {out.message}", [], False)
    leaves = evaluated_in(out.calls)
    seen: list[tuple[int, ...]] = []
    for kind, path in out.calls:
        if kind == CHILDREN and path not in seen and tree.node(path).children:
            seen.append(path)
    result = out.result
    shown = value_text(result["number"]) if "number" in result else _plain(result)
    plural = "" if len(leaves) == 1 else "s"
    lines = [f"returned {shown}", f"evaluated {len(leaves)} node{plural}: {names(tree, leaves)}",
             "asked for the children of: " + " ".join(tree.node(p).name for p in seen)]
    if out.printed:
        lines.append("printed:\n" + out.printed.rstrip())
    return Trial("\n".join(lines), [tree.node(p).name for p in leaves], True)


def _plain(desc: dict[str, Any]) -> str:
    if "seq" in desc:
        return "(" + ", ".join(_plain(d) for d in desc["seq"]) + ")"
    if "number" in desc:
        return value_text(desc["number"])
    if "node" in desc:
        return f"node {desc['name']}"
    if "none" in desc:
        return "None"
    return str(desc.get("repr"))


class SvgPicture:
    """A picture shown as SVG (and as an ``<img>`` with a text alternative, for nbconvert)."""

    def __init__(self, svg: str) -> None:
        self.svg = svg

    def _repr_mimebundle_(self, include: Any = None, exclude: Any = None) -> dict[str, str]:
        return svg_bundle(self.svg)

    def __repr__(self) -> str:
        return "<picture of a game tree>"


def explore(tree: GameTree, trace: Any = None) -> Any:
    """``tree`` (and a ``trace`` on it) to look at: the step-through widget, else a picture,
    always a picture while nbgrader runs the notebook (its feedback page shows it).

    >>> import os
    >>> from minimaxkit import alphabeta
    >>> from minimaxkit.examples import aima_5_2
    >>> os.environ["NBGRADER_EXECUTION"] = "autograde"
    >>> pic = explore(aima_5_2(), alphabeta(aima_5_2()).trace)
    >>> del os.environ["NBGRADER_EXECUTION"]
    >>> sorted(pic._repr_mimebundle_()), pic.svg.count('class="node ')
    (['image/svg+xml', 'text/html'], 13)
    """
    if not os.environ.get("NBGRADER_EXECUTION") and trace is not None:
        try:
            from ...widgets import StepWidget

            return StepWidget(trace=trace, tree=tree)
        except Exception:  # no widgets here: fall back to a picture
            pass
    try:
        from ...draw.svg import tree_svg_text

        return SvgPicture(tree_svg_text(tree, trace))
    except Exception:
        return None
