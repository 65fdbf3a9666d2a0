"""What the Jupyter tools cost before they do anything: the processor seconds a fresh Python
spends importing what every nbgrader command, Jupyter server and notebook run imports.

The test suite starts hundreds of such processes (each nbgrader command is one, the grading
service of the hub starts four a submission), and so do instructors and students. One
dependency dominated: rfc3987-syntax, which jsonschema's "format-nongpl" extra brings (via
jupyter-events), builds its Lark parsers when it is imported, for the "iri" format that no
Jupyter schema uses. The Makefile takes it out of .venv (docs/benchmarks.md, *The test
suite*). This measures each import as the environment is, and again with that package hidden
(a folder on ``PYTHONPATH`` whose ``rfc3987_syntax`` raises ImportError, which jsonschema
takes as the package's absence), so the figure shows what it costs wherever it is installed.

Run: ``python benchmarks/bench_imports.py [--repeat N]`` (default 5; the median is printed).
"""

from __future__ import annotations

import argparse
import importlib.util
import os
import resource
import statistics
import subprocess
import sys
import tempfile
from pathlib import Path

#: what the processes the kit starts import first
MODULES = ("nbformat", "nbgrader.apps", "jupyter_server.serverapp")
SLOW = "rfc3987_syntax"


def processor_seconds(module: str, env: dict[str, str]) -> float:
    """User and system seconds of a fresh ``python -c "import <module>"``."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    subprocess.run([sys.executable, "-c", f"import {module}"], env=env, check=True)
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    return (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)


def hidden_env(folder: Path) -> dict[str, str]:
    """The environment with ``folder`` first on PYTHONPATH, holding a stand-in for the slow
    package that raises ImportError."""
    stand_in = folder / SLOW
    stand_in.mkdir()
    (stand_in / "__init__.py").write_text(
        'raise ImportError("hidden by benchmarks/bench_imports.py")\n')
    env = dict(os.environ)
    env["PYTHONPATH"] = os.pathsep.join(filter(None, [str(folder), env.get("PYTHONPATH")]))
    return env


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeat", type=int, default=5)
    parser.add_argument("--quick", action="store_true", help="one run of each (make bench)")
    args = parser.parse_args()
    repeat = 1 if args.quick else args.repeat
    installed = importlib.util.find_spec(SLOW) is not None
    print(f"{SLOW} is {'installed' if installed else 'not installed'} in {sys.prefix}")
    with tempfile.TemporaryDirectory() as folder:
        envs = {"as installed": dict(os.environ), f"{SLOW} hidden": hidden_env(Path(folder))}
        print(f"{'import':28} " + " ".join(f"{name:>22}" for name in envs))
        for module in MODULES:
            medians = [statistics.median(processor_seconds(module, env) for _ in range(repeat))
                       for env in envs.values()]
            print(f"{module:28} " + " ".join(f"{m:>20.2f} s" for m in medians))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
