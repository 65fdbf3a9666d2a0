"""Run every benchmark in this folder, one after another (``make bench``).

Each ``bench_*.py`` prints its own figures; this only runs them in a row and reports any
that failed. Extra arguments (e.g. ``--quick``) are passed on to scripts that accept them.
"""

from __future__ import annotations

import subprocess
import sys
import time
from pathlib import Path


def main() -> int:
    here = Path(__file__).resolve().parent
    failed = []
    for script in sorted(here.glob("bench_*.py")):
        print(f"\n=== {script.name}", flush=True)
        start = time.perf_counter()
        done = subprocess.run([sys.executable, str(script), *sys.argv[1:]], cwd=here.parent,
                              check=False)
        print(f"=== {script.name}: exit {done.returncode}, "
              f"{time.perf_counter() - start:.1f} s", flush=True)
        if done.returncode:
            failed.append(script.name)
    if failed:
        print(f"\nfailed: {', '.join(failed)}")
    return 1 if failed else 0


if __name__ == "__main__":
    raise SystemExit(main())
