"""The four correct alpha-beta conventions (cut on equality or strictly, times fail-soft or
fail-hard; docs/grading.md, *Conventions*) and which of them a program's text reads as.

>>> convention_label(["equal-soft", "equal-hard"])
'cut on equality (v ≥ β, v ≤ α), fail-soft or fail-hard'
>>> convention_label(["strict-hard"])
'strict cuts (v > β, v < α), fail-hard'
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
import inspect
import re
import textwrap
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from typing import Any

from ..testdata.cells import python_of

__all__ = ["CONVENTIONS", "CONVENTION_CHECKS", "convention_label", "Convention",
           "reference_leaves", "source_conventions", "read_conventions", "defined_functions",
           "program_text"]

Path = tuple[int, ...]
#: name -> (prune_on_equal, fail)
CONVENTIONS: dict[str, tuple[bool, str]] = {
    "equal-soft": (True, "soft"),
    "equal-hard": (True, "one-sided"),
    "strict-soft": (False, "soft"),
    "strict-hard": (False, "one-sided"),
}
CONVENTION_CHECKS = ("alphabeta", "ordered_alphabeta", "deepen")
MAX_CELL = 200_000  # characters: a longer cell is not read for the program's text


def convention_label(names: list[str] | tuple[str, ...]) -> str:
    """Words for a set of conventions that evaluate the same leaves."""
    fails: dict[str, list[str]] = {"equal": [], "strict": []}
    for name in CONVENTIONS:
        if name in names:
            rule, fail = name.split("-")
            fails[rule].append(f"fail-{fail}")
    if len(fails["equal"]) == len(fails["strict"]) == 2:
        return "any cut rule and fail mode"
    if fails["equal"] and fails["equal"] == fails["strict"]:
        return "either cut rule, " + " or ".join(fails["equal"])
    words = {"equal": "cut on equality (v ≥ β, v ≤ α)", "strict": "strict cuts (v > β, v < α)"}
    return "; or ".join(f"{words[rule]}, {' or '.join(f)}" for rule, f in fails.items() if f)


@dataclass(frozen=True)
class Convention:
    """The convention a submission is graded under, and why, in words."""

    name: str
    why: str

    @property
    def label(self) -> str:
        return convention_label([self.name])


def reference_leaves(check: str, ref: dict[str, Any], conv: str) -> Any:
    """The reference's leaves under ``conv`` (``deepen``: one list per iteration)."""
    data = ref["conventions"][conv]
    if check == "deepen":
        return [[tuple(p) for p in it["leaves"]] for it in data["iterations"]]
    return [tuple(p) for p in data["leaves"]]


def source_conventions(fn: Callable[..., Any] | str) -> list[str]:
    """Every convention the source of ``fn`` (or the text itself) allows, read from its cut
    tests (``v >= beta``: on equality, ``v > beta``: strict) and returns (``return alpha``,
    or a value started at α or β: fail-hard); all four when it says nothing.

    >>> def ab(node, alpha, beta):
    ...     v = node.static()
    ...     if v >= beta:
    ...         return v
    ...     return v
    >>> source_conventions(ab)
    ['equal-soft']
    >>> source_conventions("while alpha < beta:\\n    alpha = max(alpha, f())\\nreturn alpha")
    ['equal-hard']
    """
    if isinstance(fn, str):
        src = fn
    else:
        try:
            src = inspect.getsource(fn)
        except (OSError, TypeError):
            return list(CONVENTIONS)
    src = re.sub(r"#.*", "", src)
    equal = re.search(r"(>=\s*beta\b|<=\s*alpha\b|\bbeta\s*<=|\balpha\s*>="
                      r"|\bwhile\s+alpha\s*<(?!=)\s*beta\b|\bwhile\s+beta\s*>(?!=)\s*alpha\b)",
                      src)
    strict = re.search(r"(>(?!=)\s*beta\b|<(?!=)\s*alpha\b|\bbeta\s*<(?!=)\s*\w|"
                       r"\balpha\s*>(?!=)\s*\w|\bwhile\s+alpha\s*<=\s*beta\b)", src)
    hard = re.search(r"return\s+(alpha|beta)\b|^\s*\w+\s*=\s*(alpha|beta)\s*$", src, re.M)
    rules = ["equal"] if equal and not strict else ["strict"] if strict and not equal \
        else ["equal", "strict"]
    fails = ["hard"] if hard else ["soft"]
    return [f"{r}-{f}" for r in rules for f in fails]


def read_conventions(text: str) -> list[str]:
    """The conventions a program's text reads as (all four when it is empty)."""
    return source_conventions(text) if text.strip() else list(CONVENTIONS)


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
        except Exception:  # not Python, or too deep for the parser: nothing read from it
            continue
        for node in tree.body:
            if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)):
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
        try:
            names = {n.id for n in ast.walk(ast.parse(textwrap.dedent(defs[current])))
                     if isinstance(n, ast.Name)}
        except Exception:  # not Python, or too deep for the parser
            continue
        todo += sorted(n for n in names if n in defs and not hasattr(builtins, n))
    return "\n".join(defs[n] for n in seen)
