"""Autograde time per submission: minimaxkit's assignments against nbgrader's own floor.

The floor is the same ``autograde`` of a notebook holding one trivial test cell
(``assert True``) on this machine. Both run in one process through nbgrader's API on
temporary courses, after one warm-up submission each (nbgrader's first autograde pays for
imports and the gradebook), taking turns, over the same number of submissions.

    python benchmarks/bench_autograde.py            # 20 submissions each, prints the figures
    python benchmarks/bench_autograde.py --write    # and updates docs/benchmarks.md (## Grading)

Submissions: the four assignments' solutions, in turn (all tests pass), and a second set
of 20 wrong ones (sample submissions from tests/grading/submissions: every test fails or
loses points, with messages and a picture per failing cell).
"""

from __future__ import annotations

import argparse
import os
import platform
import statistics
import sys
import tempfile
import time
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO))

from minimaxkit.classroom.trial import (  # noqa: E402
    make_submission,
    nbgrader_api,
    parse_sample,
    prepare_course,
    solution_cells,
)

ASSIGNMENTS = ["a1_minimax", "a2_alphabeta", "a3_move_ordering", "a4_deepening"]
WRONG = ["a2_alphabeta/no_pruning", "a2_alphabeta/beta_max", "a2_alphabeta/swapped",
         "a2_alphabeta/wrong_comparison", "a2_alphabeta/not_passed", "a1_minimax/depth_off",
         "a3_move_ordering/no_ordering", "a4_deepening/no_reorder"]


def floor_course(root: Path) -> None:
    """A course with one assignment ``floor``: one notebook, one trivial test cell."""
    import nbformat
    from nbformat.v4 import new_code_cell, new_notebook

    (root / "source" / "floor").mkdir(parents=True)
    (root / "nbgrader_config.py").write_text("c = get_config()\n")
    cell = new_code_cell("assert True", metadata={"nbgrader": {
        "grade": True, "grade_id": "test", "locked": True, "points": 1, "schema_version": 3,
        "solution": False, "task": False}})
    cell.id = "test"
    nb = new_notebook(cells=[cell])
    nb.metadata = {"kernelspec": {"display_name": "Python 3", "language": "python",
                                  "name": "python3"}}
    nbformat.write(nb, str(root / "source" / "floor" / "floor.ipynb"))


def timed_autograde(api: object, jobs: list[tuple[str, str]]) -> list[float]:
    """Autograde each (assignment, student); the seconds each took."""
    out = []
    for assignment, student in jobs:
        start = time.perf_counter()
        result = api.autograde(assignment, student)  # type: ignore[attr-defined]
        out.append(time.perf_counter() - start)
        if not result["success"]:
            raise RuntimeError(f"autograde {assignment}/{student} failed:\n{result['log']}")
    return out


def measure(n: int) -> dict[str, list[float]]:
    """Seconds per submission: the floor, correct submissions, wrong ones. The three kinds
    take turns (floor, correct, wrong, floor, ...) so that a busy machine slows them alike."""
    with tempfile.TemporaryDirectory() as tmp:
        base = Path(tmp)
        floor = base / "floor"
        floor_course(floor)
        floor_api = nbgrader_api(floor)
        assert floor_api.generate_assignment("floor")["success"]
        released = floor / "release" / "floor" / "floor.ipynb"
        course = prepare_course(REPO, base / "course")
        api = nbgrader_api(course)
        for a in ASSIGNMENTS:
            assert api.generate_assignment(a)["success"]
        jobs = []
        for i in range(n + 1):  # the first of each kind is a warm-up
            make_submission(released, {}, floor / "submitted" / f"s{i:02d}" / "floor" /
                            "floor.ipynb")
            a = ASSIGNMENTS[i % len(ASSIGNMENTS)]
            cells = solution_cells(course / "solutions" / a / f"{a}.ipynb")
            make_submission(course / "assignments" / a / f"{a}.ipynb", cells,
                            course / "submitted" / f"ok{i:02d}" / a / f"{a}.ipynb")
            b, name = WRONG[i % len(WRONG)].split("/")
            sample = parse_sample((REPO / "tests" / "grading" / "submissions" / b /
                                   f"{name}.py").read_text())
            make_submission(course / "assignments" / b / f"{b}.ipynb", sample.cells,
                            course / "submitted" / f"bad{i:02d}" / b / f"{b}.ipynb")
            jobs.append([("floor", floor_api, "floor", f"s{i:02d}"),
                         ("correct", api, a, f"ok{i:02d}"), ("wrong", api, b, f"bad{i:02d}")])
        times: dict[str, list[float]] = {"floor": [], "correct": [], "wrong": []}
        for i, turn in enumerate(jobs):
            for kind, which, assignment, student in turn:
                seconds = timed_autograde(which, [(assignment, student)])[0]
                if i > 0:
                    times[kind].append(seconds)
    return times


def containment_ms(n: int = 60) -> tuple[float, float]:
    """Milliseconds to run a trivial student function on 002's tree: contained (forked, as
    the grader runs it) and called directly; medians."""
    from minimaxkit.examples import tree_002
    from minimaxkit.grading import describe, run_contained
    from minimaxkit.student import Recorder

    tree = tree_002()

    def leftmost(node: object) -> object:
        return node.static() if node.is_leaf() else leftmost(node.children()[0])  # type: ignore

    def timed(f: object) -> float:
        out = []
        for _ in range(n):
            start = time.perf_counter()
            f()  # type: ignore[operator]
            out.append(time.perf_counter() - start)
        return 1000 * statistics.median(out)
    contained = timed(lambda: run_contained(lambda rec: describe(leftmost(rec.root())), tree))
    direct = timed(lambda: describe(leftmost(Recorder(tree).root())))
    return contained, direct, trusted_ms(n)


def trusted_ms(n: int = 60) -> float:
    """Milliseconds per tree for the trusted grader: the same function in a sandboxed
    child (:func:`minimaxkit.grading.recording.remote.tree_session`), the tree served by this
    process."""
    from pathlib import Path

    from minimaxkit.examples import tree_002
    from minimaxkit.grading import describe, run_contained
    from minimaxkit.grading.recording.remote import SessionRunner, tree_session

    tree = tree_002()
    out = []
    with tree_session(Path(tempfile.mkdtemp())) as session:
        session.run_cell("def leftmost(node):\n    return node.static() if node.is_leaf() "
                         "else leftmost(node.children()[0])")
        runner = SessionRunner(session)
        fn = runner.caller()["leftmost"]
        for _ in range(n):
            start = time.perf_counter()
            run_contained(lambda rec: describe(fn(rec.root())), tree, runner=runner)
            out.append(time.perf_counter() - start)
    return 1000 * statistics.median(out)


def machine() -> str:
    """One line describing this machine."""
    cpu = platform.processor() or platform.machine()
    try:
        with open("/proc/cpuinfo") as f:
            cpu = next(ln.split(":", 1)[1].strip() for ln in f if ln.startswith("model name"))
    except (OSError, StopIteration):
        pass
    return (f"{cpu}, {os.cpu_count()} cores, {platform.system()} {platform.release()}, "
            f"Python {platform.python_version()}")


def report(times: dict[str, list[float]], containment: tuple[float, float, float],
           load: tuple[float, float] | None = None) -> str:
    """The figures as the markdown section of docs/benchmarks.md."""
    floor = statistics.median(times["floor"])
    ratio = {k: statistics.median(v) / floor for k, v in times.items()}
    lines = [
        "## Grading", "",
        "`benchmarks/bench_autograde.py`: `nbgrader autograde` time per submission (nbgrader's "
        "API, one process, after a warm-up; the kinds take turns), median over "
        f"{len(times['floor'])} submissions, against nbgrader's own floor: the same autograde "
        "of a notebook with one trivial test cell. Bar: at most 1.5 times the floor.", "",
        f"Machine: {machine()}." + (f" Load average {load[0]:.1f} before the run, "
                                    f"{load[1]:.1f} after." if load else ""), "",
        "| submissions | median s | mean s | × floor |",
        "| --- | --- | --- | --- |",
    ]
    for name, label in (("floor", "floor (one `assert True` cell)"),
                        ("correct", "solutions of the 4 assignments, in turn"),
                        ("wrong", "wrong samples (messages, a picture per failing cell)")):
        t = times[name]
        med = statistics.median(t)
        lines.append(f"| {label} | {med:.2f} | {statistics.mean(t):.2f} | {med / floor:.2f} |")
    def verdict(kind: str) -> str:
        return f"{'meet' if ratio[kind] <= 1.5 else 'miss'} the bar ({ratio[kind]:.2f} × floor)"
    lines += ["", f"Correct submissions {verdict('correct')}; wrong ones {verdict('wrong')}. "
              "The minimaxkit course autogrades in the sandboxed kernel (IPython inside "
              "bubblewrap) and then grades every test cell again outside the kernel "
              "(`TrustedGrade`: the student's cells in a fresh sandboxed child, the tree served "
              "by nbgrader's process, in a thread that runs while the kernel starts and runs "
              "the notebook); the kernel's own "
              "`grade(...)` runs only the visible trees there. For each failing test cell the "
              "grader names the likely bug and shows the first failing tree with the "
              "difference marked, an SVG drawn without matplotlib.", "",
              f"Per test tree: {containment[0]:.1f} ms forked from the kernel (the students' "
              f"own runs), {containment[2]:.1f} ms in the trusted grader's sandboxed child "
              f"with the tree served through the pipe, against {containment[1]:.2f} ms for a "
              "direct call; a notebook grades 7 to 13 trees."]
    return "\n".join(lines) + "\n"


def write_section(text: str, path: Path = REPO / "docs" / "benchmarks.md") -> None:
    """Replace (or append) the ``## Grading`` section of ``path``, leaving the rest as is."""
    doc = path.read_text() if path.exists() else "# Benchmarks\n"
    start = doc.find("## Grading")
    if start < 0:
        doc = doc.rstrip("\n") + "\n\n" + text
    else:
        end = doc.find("\n## ", start + 1)
        doc = doc[:start] + text + (doc[end + 1:] if end >= 0 else "")
    path.write_text(doc)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("-n", type=int, default=20, help="submissions per set (default 20)")
    parser.add_argument("--write", action="store_true", help="update docs/benchmarks.md")
    args = parser.parse_args()
    before = os.getloadavg()[0]
    times = measure(args.n)
    text = report(times, containment_ms(), (before, os.getloadavg()[0]))
    print(text)
    if args.write:
        write_section(text)
    return 0


if __name__ == "__main__":
    sys.exit(main())
