"""The six correct alpha-beta conventions (docs/grading.md, *Conventions*): a cut rule (cut on
equality, v ≥ β; or strict cuts, v > β) times what a node returns (fail-soft: v as found;
fail-hard: v clamped into [α, β]; one-sided fail-hard, the example sheet's form: v started at
the node's own bound and returned as it is), and which of them a program's text reads as.

>>> convention_label(["equal-soft", "equal-hard"])
'cut on equality (v ≥ β, v ≤ α), fail-soft or fail-hard'
>>> convention_label(["strict-one-sided"])
'strict cuts (v > β, v < α), one-sided fail-hard'
>>> convention_label(["equal-soft", "strict-soft"])
'either cut rule, fail-soft'
>>> for part in convention_label(["equal-soft", "equal-hard", "strict-soft"]).split("; "):
...     print(part)
cut on equality (v ≥ β, v ≤ α), fail-soft or fail-hard
or strict cuts (v > β, v < α), fail-soft
>>> convention_label(list(CONVENTIONS))
'any cut rule and fail mode'
"""

from __future__ import annotations

import ast
import builtins
import functools
import inspect
import textwrap
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from typing import Any, NamedTuple

from ..testdata.cells import python_of

__all__ = ["CONVENTIONS", "CONVENTION_CHECKS", "CutAndFail", "convention_label", "Convention",
           "source_conventions", "read_conventions", "defined_functions",
           "program_text", "FAIL_WORDS", "CUT_WORDS"]

Path = tuple[int, ...]


class CutAndFail(NamedTuple):
    """A convention as the kit's searches take it: ``alphabeta(prune_on_equal=..., fail=...)``."""

    prune_on_equal: bool
    fail: str


#: name -> how the kit's searches run it, in the lectures' order (cut on equality and
#: fail-soft first: where nothing tells conventions apart, the first is the lectures')
CONVENTIONS: dict[str, CutAndFail] = {
    "equal-soft": CutAndFail(True, "soft"),
    "equal-hard": CutAndFail(True, "hard"),
    "equal-one-sided": CutAndFail(True, "one-sided"),
    "strict-soft": CutAndFail(False, "soft"),
    "strict-hard": CutAndFail(False, "hard"),
    "strict-one-sided": CutAndFail(False, "one-sided"),
}
CONVENTION_CHECKS = ("alphabeta", "ordered_alphabeta", "deepen")
MAX_CELL = 200_000  # characters: a longer cell is not read for the program's text
#: the words for each fail mode and cut rule (issue #37's vocabulary, docs/grading.md)
FAIL_WORDS = {"soft": "fail-soft", "hard": "fail-hard", "one-sided": "one-sided fail-hard"}
CUT_WORDS = {"equal": "cut on equality (v ≥ β, v ≤ α)", "strict": "strict cuts (v > β, v < α)"}
_FAILS = tuple(FAIL_WORDS)


def _parts(name: str) -> tuple[str, str]:
    """A convention's cut rule and fail mode: ``("strict", "one-sided")``."""
    rule, _, fail = name.partition("-")
    return rule, fail


def convention_label(names: list[str] | tuple[str, ...]) -> str:
    """Words for a set of conventions that evaluate the same leaves."""
    fails: dict[str, list[str]] = {"equal": [], "strict": []}
    for name in CONVENTIONS:
        if name in names:
            rule, fail = _parts(name)
            fails[rule].append(FAIL_WORDS[fail])
    if len(fails["equal"]) == len(fails["strict"]) == len(_FAILS):
        return "any cut rule and fail mode"
    if fails["equal"] and fails["equal"] == fails["strict"]:
        return "either cut rule, " + " or ".join(fails["equal"])
    return "; or ".join(f"{CUT_WORDS[rule]}, {' or '.join(f)}" for rule, f in fails.items()
                        if f)


@dataclass(frozen=True)
class Convention:
    """The convention a submission is graded under, and why, in words. ``claimed`` is False
    when neither the code nor the trees say which it is (a search that never cuts): it is
    then the lectures' convention, compared with, not said to be the student's."""

    name: str
    why: str
    claimed: bool = True

    @property
    def label(self) -> str:
        return convention_label([self.name])


# ----- reading a program's text --------------------------------------------------------------
_BOUNDS = {"alpha", "beta"}


#: a function's window parameters, named in these pairs (after stripping digits and "_"), are
#: read as α and β: ``def alphabeta(node, a, b)`` is the same program as with ``alpha, beta``
_WINDOW_PAIRS = {("a", "b"), ("al", "be"), ("alph", "bet"), ("alfa", "beta"), ("lo", "hi"),
                 ("low", "high"), ("lower", "upper"), ("α", "β"), ("alpha", "beta")}


def _window_names(args: ast.arguments) -> dict[str, str]:
    """The parameter names a function takes its window in, mapped to ``alpha`` and ``beta``:
    the first adjacent pair of parameters after the first that reads as a window."""
    names = [a.arg for a in args.posonlyargs + args.args]
    for low, high in zip(names[1:], names[2:], strict=False):
        if (low.rstrip("0123456789_").lower(), high.rstrip("0123456789_").lower()) in \
                _WINDOW_PAIRS:
            return {low: "alpha", high: "beta"}
    return {}


class _CanonicalBounds(ast.NodeTransformer):
    """Renames each function's window parameters (``a, b``, ``lo, hi``, ...) to ``alpha`` and
    ``beta`` inside it, so that the reading below knows its bounds by one pair of names."""

    def __init__(self) -> None:
        self.renames: dict[str, str] = {}

    def visit_FunctionDef(self, node: ast.FunctionDef) -> ast.AST:  # noqa: N802 - ast's names
        saved = self.renames
        self.renames = {**saved, **_window_names(node.args)}
        self.generic_visit(node)
        self.renames = saved
        return node

    visit_AsyncFunctionDef = visit_FunctionDef  # type: ignore[assignment]  # noqa: N815

    def visit_Name(self, node: ast.Name) -> ast.AST:  # noqa: N802 - ast's names
        if node.id in self.renames:
            return ast.copy_location(ast.Name(self.renames[node.id], node.ctx), node)
        return node


def _names(node: ast.AST) -> set[str]:
    return {n.id for n in ast.walk(node) if isinstance(n, ast.Name)}


def _comparisons(node: ast.AST) -> list[tuple[ast.expr, ast.expr, bool]]:
    """Every order comparison in ``node`` as (the greater side, the lesser side, whether
    equality counts): ``v >= beta`` is ``(v, beta, True)``, ``v < alpha`` ``(alpha, v,
    False)``; chains split."""
    out = []
    for cmp in (n for n in ast.walk(node) if isinstance(n, ast.Compare)):
        left = cmp.left
        for op, right in zip(cmp.ops, cmp.comparators, strict=True):
            if isinstance(op, ast.GtE | ast.Gt):
                out.append((left, right, isinstance(op, ast.GtE)))
            elif isinstance(op, ast.LtE | ast.Lt):
                out.append((right, left, isinstance(op, ast.LtE)))
            left = right
    return out


def _bound(expr: ast.expr) -> str | None:
    return expr.id if isinstance(expr, ast.Name) and expr.id in _BOUNDS else None


def _is_cut(greater: ast.expr, lesser: ast.expr) -> bool:
    """A comparison that says a node is done: a value at or past β (``v >= beta``), at or
    below α (``v <= alpha``), or the window closed (``alpha >= beta``). ``v > alpha`` and
    ``v < beta`` are the tests before an update, not cuts."""
    return _bound(lesser) == "beta" or _bound(greater) == "alpha"


def _cut_rules(tree: ast.AST) -> set[str]:
    """The cut rules a program's tests read as: ``v >= beta`` cuts on equality, ``v > beta``
    strictly; a loop that goes on ``while alpha < beta`` cuts on equality."""
    rules: set[str] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.While):
            for greater, lesser, inclusive in _comparisons(node.test):
                if _bound(greater) == "beta" and _bound(lesser) == "alpha":  # while open
                    rules.add("strict" if inclusive else "equal")
        elif isinstance(node, ast.If | ast.IfExp | ast.Return | ast.Assign):
            test = node.test if isinstance(node, ast.If | ast.IfExp) else node.value
            if test is None:
                continue
            for greater, lesser, inclusive in _comparisons(test):
                if _is_cut(greater, lesser):
                    rules.add("equal" if inclusive else "strict")
    return rules


def _moving(block: list[ast.stmt]) -> set[str]:
    """The bounds a block of statements assigns (α at a MAX node, β at a MIN node)."""
    out = set()
    for stmt in block:
        for node in ast.walk(stmt):
            targets = node.targets if isinstance(node, ast.Assign) else \
                [node.target] if isinstance(node, ast.AugAssign | ast.AnnAssign) else []
            out |= {t.id for t in targets if isinstance(t, ast.Name) and t.id in _BOUNDS}
    return out


def _crossed(test: ast.expr, moving: set[str]) -> str | None:
    """The bound a cut test says was crossed: β in ``v >= beta``, α in ``v <= alpha``, and
    in ``alpha >= beta`` the one the block does not move; None when it cannot tell."""
    for greater, lesser, _ in _comparisons(test):
        if not _is_cut(greater, lesser):
            continue
        bounds = [x for x in (_bound(greater), _bound(lesser)) if x]
        if len(bounds) == 1:
            return bounds[0]
        if len(moving) == 1:
            return (_BOUNDS - moving).pop()
    return None


def _returns_bound(body: list[ast.stmt]) -> str | None:
    """The bound a block returns (``return beta``), read at its first ``return``: statements
    before it, such as noting the best child (``best[node] = child``, as assignment 4 asks
    at a cut), do not hide it (outside points pass 6: a clamped program read as one-sided)."""
    for stmt in body:
        if isinstance(stmt, ast.Return):
            return _bound(stmt.value) if stmt.value is not None else None
    return None


def _loop_returns_crossed(loop: ast.For | ast.While) -> bool:
    """Whether a cut inside ``loop`` returns the bound it crossed (fail-hard's cut)."""
    moving = _moving(loop.body)
    return any(_returns_crossed(inner, moving) for stmt in loop.body
               for inner in ast.walk(stmt) if isinstance(inner, ast.If))


def _returns_crossed(test: ast.If, moving: set[str]) -> bool:
    """Whether an ``if`` in a loop returns the bound its cut crossed: named by its test
    (``if v >= beta: return beta``), or, where the test names none, the bound the loop does not
    move (a MAX loop that raises α and returns β)."""
    returned = _returns_bound(test.body)
    if returned is None:
        return False
    crossed = _crossed(test.test, moving)
    if crossed is None and len(moving) == 1:
        crossed = (_BOUNDS - moving).pop()
    return crossed == returned


def _fail_modes(tree: ast.AST) -> list[str]:
    """What the program returns: fail-hard (clamped) when a cut returns the bound it crossed
    (``if v >= beta: return beta``) or a return clamps into both bounds; one-sided when it
    returns a bound or starts v at one (``v = alpha``) and never clamps; fail-soft when it
    has a cut test and does neither; every mode when no cut test is read (it does not say)."""
    clamped = one_sided = False
    for node in ast.walk(tree):
        if isinstance(node, ast.For | ast.While) and _loop_returns_crossed(node):
            clamped = True
        if isinstance(node, ast.Return) and node.value is not None:
            if _bound(node.value):
                one_sided = True
            elif _clamps_both(node.value):
                clamped = True
        if isinstance(node, ast.Assign) and _bound(node.value) and not _bound(node.targets[0]):
            one_sided = True  # v = alpha: v starts at the node's own bound
    if clamped:
        return ["hard"]
    if one_sided:
        return ["one-sided"]
    return ["soft"] if _cut_rules(tree) else list(_FAILS)  # no cut read: it does not say


def _clamps_both(expr: ast.expr) -> bool:
    """``max(alpha, min(v, beta))`` and the like: a value clamped into the window (the
    bounds saved under any names)."""
    def call(node: ast.AST, name: str) -> bool:
        return isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and \
            node.func.id == name
    outer = "max" if call(expr, "max") else "min" if call(expr, "min") else None
    inner = {"max": "min", "min": "max"}.get(outer or "")
    return inner is not None and isinstance(expr, ast.Call) and \
        any(call(arg, inner) for arg in expr.args)


def source_conventions(fn: Callable[..., Any] | str) -> list[str]:
    """Every convention the source of ``fn`` (or the text itself) allows, read from its cut
    tests (``v >= beta``: on equality, ``v > beta``: strict; either when there is none) and
    what it returns (a cut that returns the bound it crossed: fail-hard; a bound returned, or
    v started at one: one-sided fail-hard; else fail-soft).

    >>> def ab(node, alpha, beta):
    ...     v = node.static()
    ...     if v >= beta:
    ...         return v
    ...     return v
    >>> source_conventions(ab)
    ['equal-soft']
    >>> source_conventions("while alpha < beta:\\n    alpha = max(alpha, f())\\nreturn alpha")
    ['equal-one-sided']
    >>> source_conventions("for c in cs:\\n    s = f(c)\\n    if s >= beta:\\n        return beta"
    ...                    "\\n    if s > alpha:\\n        alpha = s\\nreturn alpha")
    ['equal-hard']
    >>> def clamped(n, a, b):
    ...     for c in n.children():
    ...         v = clamped(c, a, b)
    ...         if v >= b:
    ...             return b
    ...         a = max(a, v)
    ...     return a
    >>> source_conventions(clamped)
    ['equal-hard']
    """
    if isinstance(fn, str):
        src = fn
    else:
        try:
            src = inspect.getsource(fn)
        except (OSError, TypeError):
            return list(CONVENTIONS)
    tree = _parse(src)
    if tree is None:
        return list(CONVENTIONS)
    tree = _CanonicalBounds().visit(tree)
    found = _cut_rules(tree)
    rules = ["equal", "strict"] if len(found) != 1 else sorted(found)
    fails = _fail_modes(tree)
    return [f"{r}-{f}" for r in rules for f in fails]


def _parse(src: str) -> ast.Module | None:
    """A program's text as Python: whole, or as the body of a function when it is a bare
    fragment (``return`` outside a function)."""
    text = textwrap.dedent(src)
    for attempt in (text, "def _fragment():\n" + textwrap.indent(text, "    ")):
        try:
            return ast.parse(attempt)
        except Exception:  # noqa: S112 - not Python, or too deep for the parser: try the next
            continue
    return None


def read_conventions(text: str) -> list[str]:
    """The conventions a program's text reads as (all of them when it is empty)."""
    return list(_read(text)) if text.strip() else list(CONVENTIONS)


@functools.lru_cache(maxsize=256)
def _read(text: str) -> tuple[str, ...]:
    return tuple(source_conventions(text))


def defined_functions(cells: Iterable[str]) -> dict[str, str]:
    """Name -> source of each function's last top-level ``def`` in notebook code ``cells``.

    >>> defined_functions(["def f(x):\\n    return g(x)\\n", "%%time\\ndef g(x):\\n    return x"])
    {'f': 'def f(x):\\n    return g(x)', 'g': 'def g(x):\\n    return x'}
    """
    out: dict[str, str] = {}
    for cell in cells:
        if len(cell) > MAX_CELL:  # the student's text, read in the grader's process
            continue
        if cell.lstrip().startswith("%%"):  # a cell magic (%%time): its body is the code
            cell = cell.lstrip().partition("\n")[2]
        try:
            src = python_of(cell)
            tree = ast.parse(src)
        except Exception:  # noqa: S112 - not Python, or too deep: nothing read from it
            continue
        for node in tree.body:
            if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef):
                text = ast.get_source_segment(src, node)
                if text is not None:
                    out[node.name] = text
    return out


def _functions_of(fn: Callable[..., Any]) -> dict[str, str]:
    """The notebook's functions, read from ``fn``'s globals (in the student's own kernel)."""
    out: dict[str, str] = {}
    for name, value in getattr(fn, "__globals__", {}).items():
        if inspect.isfunction(value) and value.__module__ == getattr(fn, "__module__", None):
            try:
                out[name] = inspect.getsource(value)
            except (OSError, TypeError):
                continue
    return out


def program_text(fn: Callable[..., Any] | str, defs: dict[str, str] | None = None) -> str:
    """The source of ``fn`` and of every notebook function it calls, directly or not (a
    MaxMin/MinMax pair), from ``defs`` (default: ``fn``'s globals); "" when unreadable.

    >>> program_text("ab", {"ab": "def ab(n, a, b):\\n    return mx(n, a, b)",
    ...                     "mx": "def mx(n, a, b):\\n    return a", "other": "def other(): 0"})
    'def ab(n, a, b):\\n    return mx(n, a, b)\\ndef mx(n, a, b):\\n    return a'
    """
    name = fn if isinstance(fn, str) else getattr(fn, "__name__", "")
    if defs is None:
        defs = {} if isinstance(fn, str) else _functions_of(fn)
        if not isinstance(fn, str) and name not in defs:
            try:
                defs[name] = inspect.getsource(fn)
            except (OSError, TypeError):
                return ""
    seen: list[str] = []
    todo = [name]
    while todo:
        current = todo.pop(0)
        if current in seen or current not in defs:
            continue
        seen.append(current)
        parsed = _parse(defs[current])
        if parsed is None:
            continue
        todo += sorted(n for n in _names(parsed) if n in defs and not hasattr(builtins, n))
    return "\n".join(defs[n] for n in seen)
