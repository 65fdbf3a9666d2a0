"""Tasks N at a time (``minimaxkit.classroom.workers``): a worker process that dies costs only its
task and is replaced; the progress bar counts, names the slowest and prints above itself; the
static report pages escape what they are given."""

from __future__ import annotations

import io
import os

import pytest

from minimaxkit.classroom.workers import LocalWorkers, Progress, WorkerDied
from minimaxkit.draw.pages import Raw, bar_chart, page, table


def _square_or_die(x: int) -> int:
    if x < 0:
        os._exit(-x)  # the worker process ends without answering
    return x * x


def test_a_dead_worker_costs_only_its_task_and_is_replaced() -> None:
    results = {}
    with LocalWorkers(_square_or_die, 2) as pool:
        todo = [1, -7, 2, 3, -9, 4]
        busy = 0
        while todo or busy:
            while todo and busy < pool.capacity:
                pool.submit(todo.pop(0))
                busy += 1
            task, result = pool.done()
            busy -= 1
            results[task] = result
        with pytest.raises(RuntimeError, match="busy"):
            for _ in range(3):
                pool.submit(1)
    assert {k: v for k, v in results.items() if k > 0} == {1: 1, 2: 4, 3: 9, 4: 16}
    assert isinstance(results[-7], WorkerDied) and "exit code 7" in str(results[-7])
    assert isinstance(results[-9], WorkerDied) and "exit code 9" in str(results[-9])


def test_progress_counts_names_the_slowest_and_writes_above_itself() -> None:
    out = io.StringIO()
    bar = Progress(3, out, noun="graded")
    bar.done("ann", 1.5, True)
    bar.say("bob: a warning")
    bar.done("bob", 0.0, False)
    bar.done("cy", 2.5, True)
    lines = out.getvalue().splitlines()
    assert lines[0].startswith("ann (1.5 s): 1/3 done, graded") and "slowest so far: ann 1.5 s" \
        in lines[0]
    assert lines[1] == "bob: a warning"
    assert "2/3 done: 1 graded, 1 failed" in lines[2] and "slowest so far: ann" in lines[2]
    assert "slowest so far: cy 2.5 s" in lines[3]


def test_pages_escape_text_and_read_their_charts_out() -> None:
    rows = [["<script>x</script>"], [Raw("<b>ok</b>")]]
    html = page("a <title>", [("h & h", table(["who"], rows))])
    assert "<script>" not in html and "&lt;script&gt;" in html and "<b>ok</b>" in html
    assert "a &lt;title&gt;" in html and '<html lang="en">' in html and "<main>" in html
    chart = bar_chart([("0", 1), ("1", 0), ("2", 3)], title="t", x_label="points",
                      y_label="students")
    assert 'role="img"' in chart
    assert "0 points: 1 students; 1 points: 0 students; 2 points: 3 students" in chart
    assert chart.count("<rect") == 3


def test_a_worker_killed_while_idle_does_not_break_the_close() -> None:
    """The pool is closed cleanly (nothing of a task was lost), not with a BrokenPipeError
    that would hide the run's summary."""
    import signal

    pool = LocalWorkers(abs, 2)
    process, _ = pool.idle[0]
    os.kill(process.pid, signal.SIGKILL)
    process.join(10)
    pool.close()
    assert not any(p.is_alive() for p, _ in pool.idle)
