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


def _term_block(text: str, start: str) -> str:
    """The first ``sh`` block after ``start`` in ``text``."""
    found = re.search(r"```sh\n(.*?)```", text.split(start, 1)[1], re.S)
    assert found, f"no sh block after {start!r}"
    return found.group(1)


def _commands(block: str) -> list[str]:
    """The block's commands, each without its comment (continuation lines dropped)."""
    return [line.partition("#")[0].strip() for line in block.splitlines()
            if line.strip() and not line.startswith(("#", " "))]


@pytest.mark.parametrize(("doc", "start"), [
    ("README.md", "A term, from the root"),
    ("docs/grading.md", "## The instructor's workflow"),
])
def test_the_term_releases_and_generates_before_grading(doc: str, start: str) -> None:
    """The instructor's term releases the assignment and the feedback through the exchange,
    and generates the assignment (which writes it into the gradebook) before autograde."""
    commands = _commands(_term_block((README.parent / doc).read_text(), start))
    order = [c.split()[1] if c.startswith("nbgrader") else c for c in commands]
    assert "release_assignment" in order and "release_feedback" in order, commands
    assert order.index("generate_assignment") < order.index("release_assignment") \
        < order.index("collect"), commands
    graded = [i for i, c in enumerate(commands) if "autograde" in c]
    assert graded and order.index("generate_assignment") < graded[0], commands
    assert order.index("generate_feedback") < order.index("release_feedback"), commands
    generate = next(c for c in commands if "generate_assignment" in c)
    assert generate.endswith("--force"), generate


def test_the_exchange_off_a_hub_is_nbgraders_default() -> None:
    """Where the exchange is when the course is not on the hub: nbgrader's own default
    (read from nbgrader, not copied), since the course's config does not set it."""
    from nbgrader.exchange.default.exchange import Exchange

    default = Exchange.class_traits()["root"].default_value
    config = (README.parent / "nbgrader_config.py").read_text()
    assert "Exchange.root" not in config  # if the course sets it, the docs must say that path
    for doc in ("README.md", "docs/grading.md"):
        text = (README.parent / doc).read_text()
        assert default in text and "Exchange.root" in text, doc
        assert "/srv/nbgrader/exchange" in text, doc  # the hub's


def test_instructors_are_told_of_make_venv() -> None:
    makefile = (README.parent / "Makefile").read_text()
    assert re.search(r"^venv:", makefile, re.M)
    text = README.read_text().split("## For instructors", 1)[1]
    assert "`make venv`" in text and "formgrader" in text
