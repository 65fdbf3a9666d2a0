"""The README's usage example runs, and every value its comments state is what it computes."""

from __future__ import annotations

import ast
import re
from pathlib import Path

import pytest

README = Path(__file__).resolve().parents[1] / "README.md"


def usage_block() -> str:
    text = README.read_text()
    section = text.split("## Using the kit in your own notebooks", 1)[1]
    return re.search(r"```python\n(.*?)```", section, re.S).group(1)  # type: ignore[union-attr]


def test_usage_example_runs_and_states_true_values():
    namespace: dict[str, object] = {}
    checked = 0
    for line in usage_block().splitlines():
        code, _, comment = line.partition("#")
        exec(code, namespace)  # noqa: S102 - our own README
        try:
            expected = ast.literal_eval(comment.strip().replace(",000", "000"))
        except (ValueError, SyntaxError):
            continue
        value = eval(code.strip(), namespace)  # noqa: S307
        assert value == expected, line
        checked += 1
    assert checked >= 2


def test_usage_example_counts():
    namespace: dict[str, object] = {}
    exec(usage_block(), namespace)  # noqa: S102
    stats = eval("minimax(TicTacToe(), trace=False).stats", namespace)  # noqa: S307
    assert (stats.nodes, stats.leaves) == (549_946, 255_168)  # the comment's figures


def test_the_readme_states_the_suites_measured_time() -> None:
    """The figure every whole run checks (tests/suite_time.py) is there, within the factor of
    the one measured in docs/benchmarks.md (its section *The test suite*)."""
    import suite_time

    stated = suite_time.stated_minutes(README.read_text())
    assert stated[0] is not None, "README.md: state `make test`'s time (tests/suite_time.py)"
    bench = (README.parent / "docs" / "benchmarks.md").read_text()
    measured = suite_time.stated_minutes(bench.split("## The test suite", 1)[1]
                                         .split("\n## ", 1)[0])
    if measured[0] is None:
        pytest.skip("docs/benchmarks.md, *The test suite*: no quiet-machine figure measured yet")
    for said, found in zip(stated, measured, strict=True):
        if said is not None and found is not None:
            assert found / suite_time.FACTOR <= said <= found * suite_time.FACTOR, (stated,
                                                                                 measured)
