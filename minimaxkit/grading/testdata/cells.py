"""A submitted notebook's cells as grading reads them: code to run, and each test cell's
``grade(fn, question, **kwargs)`` call, read from its text, never run.

>>> call = grade_call('hidden_trees = False\\nhidden_trees = True\\n'
...                   'grade("alphabeta", "alphabeta", points=7, hidden=hidden_trees)')
>>> call.fn, call.question, call.kwargs
('alphabeta', 'alphabeta', {'points': 7, 'hidden': True})
"""

from __future__ import annotations

import ast
from dataclasses import dataclass, field
from typing import Any

__all__ = ["GradeCall", "grade_call", "plan", "is_test_cell"]


@dataclass
class GradeCall:
    """A test cell's ``grade(...)`` call, its arguments as plain data."""

    fn: str
    question: str
    kwargs: dict[str, Any] = field(default_factory=dict)


def python_of(source: str) -> str:
    """A cell's IPython text as Python (magics and ``!`` commands turned into calls)."""
    try:
        from IPython.core.inputtransformer2 import TransformerManager
    except ImportError:  # pragma: no cover
        return source
    return str(TransformerManager().transform_cell(source))


def grade_call(source: str) -> GradeCall | None:
    """The ``grade(...)`` call of a test cell (names assigned constants above it resolved), or
    None."""
    try:
        tree = ast.parse(python_of(source))
    except SyntaxError:
        return None
    known: dict[str, Any] = {}
    found = None

    def value(node: ast.expr) -> Any:
        if isinstance(node, ast.Name):
            if node.id not in known:
                raise ValueError(node.id)
            return known[node.id]
        return ast.literal_eval(node)

    for stmt in tree.body:
        if isinstance(stmt, ast.Assign) and len(stmt.targets) == 1 and \
                isinstance(stmt.targets[0], ast.Name):
            try:
                known[stmt.targets[0].id] = value(stmt.value)
            except (ValueError, SyntaxError, TypeError):
                known.pop(stmt.targets[0].id, None)
            continue
        call = stmt.value if isinstance(stmt, ast.Expr) else None
        if isinstance(call, ast.Call) and _named(call.func) == "grade" and len(call.args) >= 2:
            try:
                fn = call.args[0].id if isinstance(call.args[0], ast.Name) else \
                    value(call.args[0])
                found = GradeCall(str(fn), str(value(call.args[1])),
                                  {k.arg: value(k.value) for k in call.keywords if k.arg})
            except (ValueError, SyntaxError, TypeError):
                found = None
    return found


def _named(func: ast.expr) -> str:
    return func.id if isinstance(func, ast.Name) else getattr(func, "attr", "")


def is_test_cell(cell: Any) -> bool:
    """True for nbgrader's autograded test cells (graded, not a solution)."""
    meta = cell.get("metadata", {}).get("nbgrader", {})
    return bool(meta.get("grade")) and not meta.get("solution")


def plan(cells: list[Any]) -> list[tuple[int, str | GradeCall]]:
    """A notebook's code cells in order: each cell's source to run, or a test cell's
    :class:`GradeCall` (a test cell without one is left out)."""
    steps = [(i, str(c.get("source", "")) if not is_test_cell(c) else
              grade_call(str(c.get("source", "")))) for i, c in enumerate(cells)
             if c.get("cell_type") == "code"]
    return [(i, step) for i, step in steps if step is not None]
