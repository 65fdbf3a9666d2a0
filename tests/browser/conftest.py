"""Fixtures for real-browser tests (mark them ``@pytest.mark.browser``).

* ``lab_server`` (session): one JupyterLab for the whole run, student setup applied, all
  Jupyter dirs in a temp folder; serve files with ``lab_server.copy_in(...)`` or
  ``lab_server.add_notebook(...)``.
* ``notebook_server`` (session): the same for Jupyter Notebook 7 (started on first use).
* ``jupyter`` (per test, parametrized ``lab`` / ``notebook``): one of the two, for tests
  that must pass in both front ends.
* ``browser_context`` (per test): a new context (a fresh profile: cookies, storage, cache)
  in one headless Debian Chromium per test process (xdist worker), launched once.
  Playwright's sync API marks its asyncio loop as running after each call, which would
  break ``asyncio.run`` (nbclient, ...) in the tests after it: the mark is set for each
  browser test only and cleared after it.
* ``page`` (per test): a tab in it; on failure a screenshot lands in ``tests/artifacts/``;
  afterwards the server's kernels are shut down.

Without /usr/bin/chromium the browser tests are skipped, except under CI (``CI`` set),
where they fail.
"""

from __future__ import annotations

import asyncio
import contextlib
import os
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from .harness import (
    CHROMIUM,
    CHROMIUM_ARGS,
    LabServer,
    screenshot,
    start_lab,
    stop_lab,
    write_gallery,
)


@pytest.hookimpl(wrapper=True, tryfirst=True)
def pytest_runtest_makereport(item: pytest.Item, call: pytest.CallInfo[None]) -> Any:
    report = yield
    if report.when == "call":
        item.stash[_FAILED] = report.failed
    return report


_FAILED = pytest.StashKey[bool]()


@pytest.fixture(scope="session")
def chromium_executable() -> str:
    """Path of Debian's Chromium; skip (locally) or fail (CI) when it is missing."""
    if CHROMIUM.exists():
        return str(CHROMIUM)
    message = f"{CHROMIUM} is missing: apt-get install chromium (or run .ci/run)"
    if os.environ.get("CI"):
        pytest.fail(message)
    pytest.skip(message)


@pytest.fixture(scope="session")
def lab_server(
    chromium_executable: str, tmp_path_factory: pytest.TempPathFactory
) -> Iterator[LabServer]:
    """A running JupyterLab serving an empty temp folder, configured for students."""
    home = tmp_path_factory.mktemp("jupyter-home")
    root = tmp_path_factory.mktemp("lab-root")
    proc, server = start_lab(root, home)
    try:
        yield server
    finally:
        stop_lab(proc)


@pytest.fixture(scope="session")
def notebook_server(
    chromium_executable: str, tmp_path_factory: pytest.TempPathFactory
) -> Iterator[LabServer]:
    """A running Jupyter Notebook 7 serving an empty temp folder, configured for students."""
    home = tmp_path_factory.mktemp("notebook-home")
    root = tmp_path_factory.mktemp("notebook-root")
    proc, server = start_lab(root, home, app="notebook")
    try:
        yield server
    finally:
        stop_lab(proc)


@pytest.fixture(params=["lab", "notebook"])
def jupyter(request: pytest.FixtureRequest) -> Iterator[LabServer]:
    """JupyterLab, then Jupyter Notebook 7: the test runs in both. Afterwards the kernels
    the test started are shut down."""
    name = "lab_server" if request.param == "lab" else "notebook_server"
    server: LabServer = request.getfixturevalue(name)
    yield server
    server.shutdown_kernels()


@pytest.fixture(scope="session")
def _playwright_session(chromium_executable: str) -> Iterator[tuple[Any, Any, Any]]:
    """One Playwright driver and one headless Chromium for this test process (an xdist
    worker): ``(manager, playwright, browser)``. Each test gets its own context.

    Playwright's sync API marks its asyncio loop as running after every call, which breaks
    ``asyncio.run`` (nbclient, nbgrader) in the tests that follow in the same process: the
    ``browser_context`` fixture marks the loop running for its test only
    (:func:`_playwright_loop`) and clears the mark afterwards."""
    from playwright.sync_api import sync_playwright

    manager = sync_playwright()
    playwright = manager.start()
    browser = playwright.chromium.launch(executable_path=chromium_executable, headless=True,
                                         args=list(CHROMIUM_ARGS))
    asyncio._set_running_loop(None)
    try:
        yield manager, playwright, browser
    finally:
        with _playwright_loop(manager):
            browser.close()
            manager.__exit__()


@contextlib.contextmanager
def _playwright_loop(manager: Any) -> Iterator[None]:
    """Playwright's loop marked as the running one while the block runs (its sync calls
    expect it; see :func:`_playwright_session`), and no running loop afterwards."""
    asyncio._set_running_loop(manager._loop)
    try:
        yield
    finally:
        asyncio._set_running_loop(None)


@pytest.fixture
def browser_context(_playwright_session: tuple[Any, Any, Any]) -> Iterator[Any]:
    """A fresh browser context (its own cookies, storage and cache: a new profile) in the
    worker's one Chromium, 1400 x 900."""
    manager, _, browser = _playwright_session
    with _playwright_loop(manager):
        context = browser.new_context(viewport={"width": 1400, "height": 900})
        context.set_default_timeout(60_000)
        try:
            yield context
        finally:
            context.close()


@pytest.fixture
def page(browser_context: Any, request: pytest.FixtureRequest) -> Iterator[Any]:
    """A new tab (playwright Page). Afterwards: a screenshot in tests/artifacts/ if the test
    failed, and the kernels the test started are shut down (on the server it used)."""
    tab = browser_context.new_page()
    try:
        yield tab
    finally:
        if request.node.stash.get(_FAILED, False):
            try:
                screenshot(tab, f"{request.node.name}-failure")
            except Exception:  # a screenshot must never hide the test's own error
                pass
        tab.close()
        for name in ("lab_server", "notebook_server"):  # (``jupyter`` shuts its own down)
            if name in request.fixturenames:
                server: LabServer = request.getfixturevalue(name)
                server.shutdown_kernels()


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    """Everything under tests/browser/ is a browser test, marked or not."""
    here = Path(__file__).parent
    for item in items:
        if here in Path(str(item.path)).parents:
            item.add_marker(pytest.mark.browser)


def pytest_sessionfinish(session: pytest.Session) -> None:
    """The screenshot gallery, tests/artifacts/index.html, rewritten after every run (by
    each xdist worker and the controller: the last one lists every picture)."""
    write_gallery()
