"""Helpers for real-browser tests: a throw-away JupyterLab or Jupyter Notebook 7 and
Playwright page helpers.

The fixtures in ``conftest.py`` build on these; tests import the helpers with
``from .harness import open_notebook, run_all_cells, ...``.

The page helpers drive JupyterLab (or Notebook 7, built from the same parts) through its
own command registry (``window.jupyterapp.commands``), which the test server exposes with
``--LabApp.expose_app_in_browser=True`` (``--JupyterNotebookApp...`` for Notebook 7);
nothing is injected into notebooks. axe-core (``node_modules/axe-core``, from npm) is added
to a page by :func:`axe_violations` for the accessibility checks.
"""

from __future__ import annotations

import json
import os
import re
import shutil
import signal
import socket
import subprocess
import sys
import time
import urllib.error
import urllib.request
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any
from urllib.parse import quote

REPO_ROOT = Path(__file__).resolve().parents[2]
ARTIFACTS = REPO_ROOT / "tests" / "artifacts"
STUDENT_SETUP = REPO_ROOT / "tools" / "student_setup.py"
CHROMIUM = Path("/usr/bin/chromium")
CHROMIUM_ARGS = (
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--no-first-run",
)
STDERR_MIME = "application/vnd.jupyter.stderr"


# --------------------------------------------------------------------------- server


@dataclass(frozen=True)
class LabServer:
    """A running JupyterLab: where it answers and which folder it serves."""

    base_url: str
    root_dir: Path
    env: Mapping[str, str] = field(repr=False)
    log_path: Path = field(repr=False)
    #: ``"lab"`` (JupyterLab) or ``"notebook"`` (Jupyter Notebook 7)
    app: str = "lab"

    def url(self, path: str = "") -> str:
        return f"{self.base_url}/{path.lstrip('/')}"

    def notebook_url(self, relpath: str) -> str:
        """Where this server's front end opens the notebook ``relpath``: JupyterLab's
        ``/lab/tree/...`` (in a fresh workspace) or Notebook 7's ``/notebooks/...``."""
        if self.app == "notebook":
            return self.url(f"notebooks/{quote(relpath)}")
        return self.url(f"lab/tree/{quote(relpath)}?reset")

    def copy_in(self, *sources: str | Path, dest: str = "") -> list[str]:
        """Copy files or folders (relative paths are taken from the repo root) into the
        served folder, under ``dest``; return their paths relative to the root, for
        :func:`open_notebook`. Copies overwrite, so tests may share one server."""
        target = self.root_dir / dest
        target.mkdir(parents=True, exist_ok=True)
        copied = []
        for source in sources:
            src = Path(source) if Path(source).is_absolute() else REPO_ROOT / source
            if not src.exists():
                raise FileNotFoundError(f"copy_in: {src} does not exist")
            out = target / src.name
            if src.is_dir():
                shutil.copytree(src, out, dirs_exist_ok=True)
            else:
                shutil.copy2(src, out)
            copied.append(out.relative_to(self.root_dir).as_posix())
        return copied

    def shutdown_kernels(self) -> int:
        """Shut down every running kernel (tests leave one per opened notebook); return
        how many there were."""
        with urllib.request.urlopen(self.url("api/kernels"), timeout=10) as response:
            kernels = json.load(response)
        for kernel in kernels:
            request = urllib.request.Request(
                self.url(f"api/kernels/{kernel['id']}"), method="DELETE"
            )
            urllib.request.urlopen(request, timeout=30).close()
        return len(kernels)

    def add_notebook(self, relpath: str, sources: Sequence[str]) -> str:
        """Write a notebook of code cells (one string each) at ``relpath``; return it."""
        path = self.root_dir / relpath
        write_notebook(path, sources)
        return path.relative_to(self.root_dir).as_posix()


def write_notebook(path: Path, sources: Sequence[str]) -> Path:
    """A minimal nbformat-4 notebook with a python3 kernelspec and one code cell per source."""
    cells = [
        {
            "cell_type": "code",
            "execution_count": None,
            "id": f"cell-{i}",
            "metadata": {},
            "outputs": [],
            "source": source,
        }
        for i, source in enumerate(sources)
    ]
    notebook = {
        "cells": cells,
        "metadata": {
            "kernelspec": {"display_name": "Python 3", "language": "python", "name": "python3"},
            "language_info": {"name": "python"},
        },
        "nbformat": 4,
        "nbformat_minor": 5,
    }
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(json.dumps(notebook, indent=1) + "\n", encoding="utf-8")
    return path


def jupyter_env(home: Path) -> dict[str, str]:
    """Environment for a Jupyter process whose config, data, runtime and IPython dirs all
    live under ``home`` (so tests never read or write the user's settings), with the
    student configuration applied to that config dir."""
    env = dict(os.environ)
    dirs = {
        "JUPYTER_CONFIG_DIR": home / "config",
        "JUPYTER_DATA_DIR": home / "data",
        "JUPYTER_RUNTIME_DIR": home / "runtime",
        "IPYTHONDIR": home / "ipython",
    }
    for name, path in dirs.items():
        path.mkdir(parents=True, exist_ok=True)
        env[name] = str(path)
    env.pop("JUPYTER_PATH", None)
    env.pop("JUPYTER_CONFIG_PATH", None)
    # In a venv Jupyter ranks the environment's config above the user's; the temp config
    # dir must win over whatever .venv/etc/jupyter holds.
    env["JUPYTER_PREFER_ENV_PATH"] = "0"
    env["PYTHONUNBUFFERED"] = "1"
    subprocess.run(
        [sys.executable, str(STUDENT_SETUP), "--config-dir", str(dirs["JUPYTER_CONFIG_DIR"])],
        check=True,
        env=env,
        stdout=subprocess.DEVNULL,
    )
    return env


def free_port() -> int:
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as sock:
        sock.bind(("127.0.0.1", 0))
        port: int = sock.getsockname()[1]
        return port


APPS = {"lab": "LabApp", "notebook": "JupyterNotebookApp"}


def start_lab(
    root_dir: Path, home: Path, *, timeout: float = 120, app: str = "lab"
) -> tuple[subprocess.Popen[bytes], LabServer]:
    """Start ``jupyter lab`` (or ``jupyter notebook``, Notebook 7, with ``app="notebook"``)
    on a free loopback port serving ``root_dir``; wait until it answers. Stop it with
    :func:`stop_lab`."""
    if app not in APPS:
        raise ValueError(f"start_lab: app must be one of {sorted(APPS)}, got {app!r}")
    env = jupyter_env(home)
    port = free_port()
    log_path = home / f"jupyter-{app}.log"
    cmd = [
        sys.executable, "-m", "jupyter", app,
        "--no-browser", "--allow-root",
        "--ServerApp.ip=127.0.0.1", f"--ServerApp.port={port}",
        "--ServerApp.port_retries=0",
        "--ServerApp.token=", "--ServerApp.password=",
        "--ServerApp.disable_check_xsrf=True",  # loopback, no token: lets tests use the REST API
        f"--ServerApp.root_dir={root_dir}",
        f"--{APPS[app]}.expose_app_in_browser=True",
    ]  # fmt: skip
    with open(log_path, "wb") as log:
        proc = subprocess.Popen(
            cmd, env=env, cwd=root_dir, stdout=log, stderr=subprocess.STDOUT,
            stdin=subprocess.DEVNULL, start_new_session=True,
        )  # fmt: skip
    server = LabServer(f"http://127.0.0.1:{port}", root_dir, env, log_path, app)
    deadline = time.monotonic() + timeout
    while True:
        if proc.poll() is not None:
            raise RuntimeError(
                f"jupyter {app} exited with {proc.returncode}:\n{log_tail(log_path)}")
        try:
            with urllib.request.urlopen(server.url("api/status"), timeout=5) as response:
                if response.status == 200:
                    return proc, server
        except (urllib.error.URLError, ConnectionError, TimeoutError):
            pass
        if time.monotonic() > deadline:
            stop_lab(proc)
            raise TimeoutError(f"jupyter {app} did not answer in {timeout}s:\n{log_tail(log_path)}")
        time.sleep(0.3)


def stop_lab(proc: subprocess.Popen[bytes], *, timeout: float = 20) -> None:
    """Stop the server (it shuts its kernels down); kill its process group if it lingers."""
    if proc.poll() is None:
        proc.send_signal(signal.SIGTERM)
        try:
            proc.wait(timeout=timeout)
        except subprocess.TimeoutExpired:
            pass
    try:
        os.killpg(proc.pid, signal.SIGKILL)  # kernels left behind, if any
    except (ProcessLookupError, PermissionError):
        pass
    proc.wait(timeout=timeout)


def log_tail(path: Path, lines: int = 40) -> str:
    try:
        return "\n".join(path.read_text(errors="replace").splitlines()[-lines:])
    except OSError:
        return "(no log)"


def http_status(url: str) -> int:
    """The HTTP status of a GET (4xx/5xx included, no exception)."""
    try:
        with urllib.request.urlopen(url, timeout=10) as response:
            status: int = response.status
            return status
    except urllib.error.HTTPError as err:
        return err.code


# --------------------------------------------------------------------------- page
# `page` below is a playwright.sync_api.Page; typed Any so that this module imports
# without Playwright (the fixtures skip or fail cleanly instead).

_APP_READY = """async () => {
    const app = window.jupyterapp;
    if (!app) { return false; }
    await app.started;
    await app.restored;
    return true;
}"""

_NOTEBOOK_KERNEL_IDLE = """() => {
    const app = window.jupyterapp;
    const panel = app && app.shell.currentWidget;
    const ctx = panel && panel.sessionContext;
    const kernel = ctx && ctx.session && ctx.session.kernel;
    if (!kernel || kernel.status !== 'idle' || ctx.isRestarting) { return false; }
    const prompts = panel.node.querySelectorAll('.jp-InputArea-prompt');
    return Array.from(prompts).every((p) => !p.textContent.includes('*'));
}"""

_RUN_ALL = """async (ms) => {
    const app = window.jupyterapp;
    const run = app.commands.execute('notebook:run-all-cells');
    const timer = new Promise((_, reject) =>
        setTimeout(() => reject(new Error(`notebook:run-all-cells: no end after ${ms} ms`)), ms));
    return await Promise.race([run, timer]);
}"""


def wait_app_ready(page: Any, *, timeout: float = 60) -> None:
    """Wait until JupyterLab has started and restored its layout."""
    page.wait_for_function("() => window.jupyterapp !== undefined", timeout=timeout * 1000)
    page.evaluate(_APP_READY)


def open_notebook(page: Any, server: LabServer | str, relpath: str, *,
                  timeout: float = 90) -> None:
    """Open ``relpath`` (relative to the server's root) in a clean workspace, wait until its
    kernel has started and is idle. ``server`` is a :class:`LabServer` (JupyterLab or
    Notebook 7) or a JupyterLab's base URL."""
    if isinstance(server, str):
        server = LabServer(server, Path("."), {}, Path("."))
    page.goto(server.notebook_url(relpath), timeout=timeout * 1000)
    wait_app_ready(page, timeout=timeout)
    name = Path(relpath).name
    page.wait_for_function(
        """(name) => {
            const w = window.jupyterapp.shell.currentWidget;
            return !!w && w.hasClass('jp-NotebookPanel') && w.title.label === name;
        }""",
        arg=name,
        timeout=timeout * 1000,
    )
    wait_kernel_idle(page, timeout=timeout)


def wait_kernel_idle(page: Any, *, timeout: float = 90) -> None:
    """Wait until the current notebook's kernel is idle and no cell shows ``[*]``."""
    page.wait_for_function(_NOTEBOOK_KERNEL_IDLE, timeout=timeout * 1000, polling=200)


def run_all_cells(page: Any, *, timeout: float = 120) -> bool:
    """Run every cell of the current notebook (JupyterLab's ``notebook:run-all-cells``);
    return once execution has ended and the kernel is idle. True if no cell failed."""
    ok = page.evaluate(_RUN_ALL, timeout * 1000)
    wait_kernel_idle(page, timeout=timeout)
    return bool(ok)


def error_outputs(page: Any) -> list[str]:
    """Texts of the error and stderr outputs shown in the page (tracebacks included), and
    of widgets that failed to render."""
    texts: list[str] = page.evaluate(
        """(mime) => {
            const outs = document.querySelectorAll(
                `.jp-OutputArea-output[data-mime-type="${mime}"], .jupyter-widgets.widget-error`);
            return Array.from(outs).map((node) => node.innerText.trim());
        }""",
        STDERR_MIME,
    )
    return texts


def screenshot(page: Any, name: str) -> Path:
    """Save a full-page PNG as ``tests/artifacts/<name>.png`` (git-ignored); return its path."""
    ARTIFACTS.mkdir(parents=True, exist_ok=True)
    safe = re.sub(r"[^A-Za-z0-9_.-]+", "_", name).strip("_") or "page"
    path = ARTIFACTS / f"{safe}.png"
    page.screenshot(path=str(path), full_page=True)
    return path


def element_shot(locator: Any, name: str) -> Path:
    """Save a PNG of one element (a widget) as ``tests/artifacts/<name>.png``; return its
    path. The gallery (``tests/artifacts/index.html``, :func:`write_gallery`) shows them."""
    ARTIFACTS.mkdir(parents=True, exist_ok=True)
    safe = re.sub(r"[^A-Za-z0-9_.-]+", "_", name).strip("_") or "element"
    path = ARTIFACTS / f"{safe}.png"
    locator.screenshot(path=str(path))
    return path


def write_gallery(folder: Path = ARTIFACTS) -> Path | None:
    """Write ``index.html`` in ``folder``: every screenshot there, by name, one under the
    other, for a reviewer to page through (None when there is none)."""
    from markupsafe import escape

    shots = sorted(folder.glob("*.png")) if folder.exists() else []
    if not shots:
        return None
    items = "\n".join(f"<figure><figcaption>{escape(p.stem)}</figcaption>"
                      f"<img src='{escape(p.name)}' alt='{escape(p.stem)}'></figure>"
                      for p in shots)
    page = ("<!doctype html><html lang='en'><meta charset='utf-8'>"
            "<title>minimaxkit: browser test screenshots</title>"
            "<style>figure{margin:1em 0 2em;border-top:1px solid #ccc}"
            "img{max-width:100%;border:1px solid #eee}</style>"
            f"<h1>Browser test screenshots ({len(shots)})</h1>\n{items}\n</html>\n")
    index = folder / "index.html"
    index.write_text(page, encoding="utf-8")
    return index


def visible_texts(page: Any, selector: str) -> list[str]:
    """innerText of every visible element matching ``selector``."""
    locator = page.locator(selector)
    return [
        locator.nth(i).inner_text() for i in range(locator.count()) if locator.nth(i).is_visible()
    ]


def has_command(page: Any, command: str) -> bool:
    """Whether JupyterLab has the command registered (i.e. its plugin is active)."""
    return bool(page.evaluate("(id) => window.jupyterapp.commands.hasCommand(id)", command))


def active_plugins(page: Any, ids: Iterable[str]) -> list[str]:
    """The ones of ``ids`` that are registered in the running JupyterLab."""
    found: list[str] = page.evaluate(
        "(ids) => ids.filter((id) => window.jupyterapp.hasPlugin(id))", list(ids)
    )
    return found


# --------------------------------------------------------------------------- accessibility

AXE = REPO_ROOT / "node_modules" / "axe-core" / "axe.min.js"
#: The parts of a page the kit writes: cell outputs (not the Jupyter front end around them).
KIT_OUTPUTS = ".jp-OutputArea-output"

_AXE_RUN = """async ([selector, impacts]) => {
    if (!document.querySelector(selector)) { return null; }
    const results = await axe.run({include: [selector]},
                                  {resultTypes: ['violations'], iframes: false});
    return results.violations.filter((v) => impacts.includes(v.impact)).map((v) => ({
        id: v.id, impact: v.impact, help: v.help,
        nodes: v.nodes.slice(0, 5).map((n) => ({target: n.target.join(' '),
                                                html: n.html.slice(0, 200),
                                                summary: n.failureSummary})),
    }));
}"""


def axe_violations(page: Any, selector: str = KIT_OUTPUTS, *,
                   impacts: Sequence[str] = ("serious", "critical")) -> list[dict[str, Any]]:
    """Run axe-core (from ``node_modules``, see package.json: ``npm ci``) on the parts of
    the page matching ``selector``; return the violations of the given impacts. Raises
    FileNotFoundError without axe-core and LookupError if nothing matches ``selector``."""
    if not AXE.exists():
        raise FileNotFoundError(f"{AXE} is missing: run `npm ci` in {REPO_ROOT}")
    if not page.evaluate("() => typeof window.axe !== 'undefined'"):
        page.add_script_tag(path=str(AXE))
    found: list[dict[str, Any]] | None = page.evaluate(_AXE_RUN, [selector, list(impacts)])
    if found is None:
        raise LookupError(f"axe_violations: nothing in the page matches {selector!r}")
    return found
