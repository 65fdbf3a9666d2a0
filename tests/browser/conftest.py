"""Fixtures for real-browser tests (mark them ``@pytest.mark.browser``).

* ``lab_server`` (session): one JupyterLab for the whole run, student setup applied, all
  Jupyter dirs in a temp folder; serve files with ``lab_server.copy_in(...)`` or
  ``lab_server.add_notebook(...)``.
* ``notebook_server`` (session): the same for Jupyter Notebook 7 (started on first use).
* ``jupyter`` (per test, parametrized ``lab`` / ``notebook``): one of the two, for tests
  that must pass in both front ends.
* ``browser_context`` (per test): headless Debian Chromium via Playwright, fresh profile.
  Per test on purpose: Playwright's sync API keeps an asyncio loop marked as running while
  it is open, which would break ``asyncio.run`` (nbclient, ...) in the tests after it.
  A launch costs about a second.
* ``page`` (per test): a tab in it; on failure a screenshot lands in ``tests/artifacts/``;
  afterwards the server's kernels are shut down.

Without /usr/bin/chromium the browser tests are skipped, except under CI (``CI`` set),
where they fail.
"""

from __future__ import annotations

import os
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from .harness import CHROMIUM, CHROMIUM_ARGS, LabServer, screenshot, start_lab, stop_lab


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


@pytest.fixture
def browser_context(
    chromium_executable: str, tmp_path_factory: pytest.TempPathFactory
) -> Iterator[Any]:
    """A headless Chromium (playwright BrowserContext) with a fresh user-data dir."""
    from playwright.sync_api import sync_playwright

    profile = tmp_path_factory.mktemp("chromium-profile")
    with sync_playwright() as playwright:
        context = playwright.chromium.launch_persistent_context(
            str(profile),
            executable_path=chromium_executable,
            headless=True,
            args=list(CHROMIUM_ARGS),
            viewport={"width": 1400, "height": 900},
        )
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
