"""The course's static website (``make site``, docs/site.md), checked from outside: built
once, served on 127.0.0.1 by a plain file server, opened in Chromium with every request to
any other address refused (Playwright's route interception). On every lecture page every
step and compare widget is stepped from its first frame to its last with the mouse (the
*next* button) and with the keyboard (Home, →, End), and the test reads what a reader
sees: the step counter, the explanation under the picture, the picture's text alternative
and its pixels. No request may fail or be refused, the console may show no error, and
axe-core finds no serious or critical violation on the page. Pictures keep their text
alternatives; the quiz, the play widget and lecture 3's hand trace (its Check needs
the kernel) are replaced by a note that links to Binder.

Screenshots of each lecture at its widgets' last steps go to tests/artifacts/site-*.png.
"""

from __future__ import annotations

import functools
import http.server
import json
import re
import subprocess
import sys
import threading
from collections.abc import Iterator
from dataclasses import dataclass, field
from typing import Any

import pytest
from test_site_links import dead_links  # tests/ is on the path, as for suite_time

from .harness import ARTIFACTS, REPO_ROOT, axe_violations

# the first test builds the site (six lectures executed): up to half an hour under load
pytestmark = [pytest.mark.browser, pytest.mark.slow, pytest.mark.timeout(1800)]

BINDER = "OWNER/REPO"
LECTURES = sorted(p.stem for p in (REPO_ROOT / "notebooks").glob("*.ipynb"))
WIDGETS = ".jupyter-widgets.mmk-step, .jupyter-widgets.mmk-compare"
#: Every widget output of the page drawn by the renderer (which also adds its styles).
RENDERED = """() => Array.from(document.querySelectorAll(
    'script[type="application/vnd.jupyter.widget-view+json"]')).every((s) => {
        const area = s.parentElement.querySelector('.widget-subarea');
        return area !== null && area.children.length > 0; })"""


@dataclass
class Watch:
    """What the page asked for beyond the site, what failed, and the console's errors."""

    base: str
    refused: list[str] = field(default_factory=list)
    failed: list[str] = field(default_factory=list)
    errors: list[str] = field(default_factory=list)

    def attach(self, page: Any) -> None:
        def route(r: Any) -> None:
            if r.request.url.startswith(self.base):
                r.continue_()
            else:
                self.refused.append(r.request.url)
                r.abort()

        page.route("**/*", route)
        page.on("requestfailed", lambda r: self.failed.append(f"{r.url}: {r.failure}"))
        page.on("response", lambda r: self.failed.append(f"{r.status} {r.url}")
                if r.status >= 400 else None)
        page.on("console", lambda m: self.errors.append(m.text) if m.type == "error" else None)
        page.on("pageerror", lambda e: self.errors.append(f"uncaught: {e}"))


class _Quiet(http.server.SimpleHTTPRequestHandler):
    def log_message(self, format: str, *args: Any) -> None:  # noqa: A002 - the base's name
        pass


@pytest.fixture(scope="session")
def site(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Any]:
    """The site, built once for the session as ``make site`` builds it (the same command),
    with Binder links; its folder and build report."""
    out = tmp_path_factory.mktemp("site") / "site"
    done = subprocess.run([sys.executable, "-m", "minimaxkit.site", str(out), "--binder", BINDER,
                           "--jobs", "2"], cwd=REPO_ROOT, capture_output=True, text=True,
                          timeout=1800)
    assert done.returncode == 0, done.stdout + done.stderr
    report = json.loads((out / "build-report.json").read_text())
    ARTIFACTS.mkdir(parents=True, exist_ok=True)
    (ARTIFACTS / "site-build-report.json").write_text(json.dumps(report, indent=1))
    return {"out": out, "report": report}


@pytest.fixture(scope="session")
def server(site: dict[str, Any]) -> Iterator[str]:
    """A plain file server of the site on 127.0.0.1; its address."""
    handler = functools.partial(_Quiet, directory=str(site["out"]))
    httpd = http.server.ThreadingHTTPServer(("127.0.0.1", 0), handler)
    thread = threading.Thread(target=httpd.serve_forever, daemon=True)
    thread.start()
    try:
        yield f"http://127.0.0.1:{httpd.server_address[1]}/"
    finally:
        httpd.shutdown()


_STATE = """(w) => {
    const shown = (e) => e.offsetParent !== null;
    const canvases = Array.from(w.querySelectorAll('canvas.mmk-frame-canvas'));
    return {
        readout: w.querySelector('.mmk-controls .mmk-readout').textContent,
        slider: w.querySelector('.mmk-controls input.mmk-slider').value,
        texts: Array.from(w.querySelectorAll('.mmk-frame')).filter(shown)
                    .map((e) => e.querySelector('.mmk-explain').innerText),
        labels: canvases.map((c) => c.getAttribute('aria-label')),
        pixels: canvases.map((c) => c.toDataURL()),
        nextOff: w.querySelector('.mmk-next').getAttribute('aria-disabled'),
        firstOff: w.querySelector('.mmk-first').getAttribute('aria-disabled'),
    };
}"""


def _state(widget: Any) -> dict[str, Any]:
    state: dict[str, Any] = widget.evaluate(_STATE)
    return state


def _steps(widget: Any) -> int:
    total = re.fullmatch(r"\d+ / (\d+)", _state(widget)["readout"])
    assert total, _state(widget)["readout"]
    return int(total.group(1))


def _at(widget: Any, step: int, steps: int) -> dict[str, Any]:
    """The widget's state, checked to show ``step`` of ``steps`` as a reader sees it."""
    state = _state(widget)
    assert state["readout"] == f"{step} / {steps}" and state["slider"] == str(step), state
    assert state["texts"], "no explanation is shown"
    for text in state["texts"]:  # a compare widget's shorter trace stays at its last step
        shown = re.match(r"step (\d+) / (\d+)", text)
        assert shown, text
        assert int(shown.group(1)) == min(step, int(shown.group(2))), (step, text)
    assert all(label for label in state["labels"]), state["labels"]
    return state


def _step_with_mouse(widget: Any, steps: int) -> None:
    first = _at(widget, 0, steps)
    assert first["firstOff"] == "true" and first["nextOff"] == "false"
    seen_labels = {tuple(first["labels"])}
    for step in range(1, steps + 1):
        widget.locator(".mmk-next").click()
        seen_labels.add(tuple(_at(widget, step, steps)["labels"]))
    last = _at(widget, steps, steps)
    assert last["nextOff"] == "true"
    assert last["pixels"] != first["pixels"], "the picture did not change"
    # each step's picture is named by what it shows: the names change as the search goes
    assert len(seen_labels) > steps // 2, seen_labels


def _step_with_keys(widget: Any, steps: int) -> None:
    widget.locator(".mmk-first").focus()
    widget.page.keyboard.press("Home")
    _at(widget, 0, steps)
    for step in range(1, steps + 1):
        widget.page.keyboard.press("ArrowRight")
        _at(widget, step, steps)
    widget.page.keyboard.press("Home")
    _at(widget, 0, steps)
    widget.page.keyboard.press("End")
    assert _at(widget, steps, steps)["nextOff"] == "true"


@pytest.mark.parametrize("lecture", LECTURES)
def test_every_widget_steps_offline(lecture: str, site: dict[str, Any], server: str,
                                    page: Any) -> None:
    entry = next(e for e in site["report"]["lectures"] if e["page"].endswith(f"/{lecture}.html"))
    watch = Watch(server)
    watch.attach(page)
    page.goto(f"{server}lectures/{lecture}.html")
    widgets = page.locator(WIDGETS)
    page.wait_for_function(RENDERED, timeout=60_000)
    assert widgets.count() == entry["stepping"]
    for i in range(widgets.count()):
        widget = widgets.nth(i)
        widget.scroll_into_view_if_needed()
        steps = _steps(widget)
        assert steps > 0
        _step_with_mouse(widget, steps)
        _step_with_keys(widget, steps)
    if entry["stepping"]:
        widgets.first.scroll_into_view_if_needed()
    ARTIFACTS.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=str(ARTIFACTS / f"site-{lecture}.png"))

    # pictures keep their text alternatives
    no_alt = page.evaluate("() => Array.from(document.images).filter((i) => "
                           "!(i.getAttribute('alt') || '').trim()).map((i) => i.outerHTML"
                           ".slice(0, 120))")
    assert no_alt == [], no_alt
    # widgets that need a kernel are not shown dead: a note links to Binder instead
    assert page.locator(".mmk-quiz, .mmk-play, .mmk-hand-trace").count() == 0
    notes = page.locator(".mmk-site-kernel-note")
    assert notes.count() == entry["kernel_notes"]
    for i in range(notes.count()):
        href = notes.nth(i).locator("a").first.get_attribute("href")
        assert href == (f"https://mybinder.org/v2/gh/{BINDER}/HEAD?urlpath=lab/tree/"
                        f"notebooks/{lecture}.ipynb")
    assert axe_violations(page, "body") == []
    assert watch.refused == [] and watch.failed == [] and watch.errors == [], watch


def test_the_index_lists_every_lecture(site: dict[str, Any], server: str, page: Any) -> None:
    watch = Watch(server)
    watch.attach(page)
    page.goto(server)
    links = page.locator(".mmk-site-lectures h2 a")
    assert links.count() == len(LECTURES)
    titles = links.all_inner_texts()
    assert titles[0] == "Lecture 1 · Game trees", titles
    assert titles[LECTURES.index("03_alphabeta")] == "Lecture 3 · Alpha-beta", titles
    for i, lecture in enumerate(LECTURES):
        assert links.nth(i).get_attribute("href") == f"lectures/{lecture}.html"
    links.nth(2).click()
    page.wait_for_url(f"{server}lectures/{LECTURES[2]}.html")
    assert page.locator("nav a[rel=next]").get_attribute("href") == f"{LECTURES[3]}.html"
    page.go_back()
    assert axe_violations(page, "body") == []
    assert watch.refused == [] and watch.failed == [] and watch.errors == [], watch
    # every file the site serves is its own: no page names another host in a src or href
    # that loads something (links to Binder are for the reader to follow)
    for html in site["out"].rglob("*.html"):
        text = html.read_text(encoding="utf-8")
        loads = re.findall(r'<(?:script|link|img)[^>]+(?:src|href)="(https?:)?//', text)
        assert loads == [], (html, loads)


def test_every_local_link_of_the_site_resolves(site: dict[str, Any]) -> None:
    """Every local href/src of every page names a file of the whole site: lectures link to
    lectures' pages, assignments to Binder (docs/site.md, *Links between pages*)."""
    assert dead_links(site["out"]) == []
    lecture6 = (site["out"] / "lectures" / "06_evaluation.html").read_text(encoding="utf-8")
    assert (f"https://mybinder.org/v2/gh/{BINDER}/HEAD?urlpath=lab/tree/assignments/"
            "a5_evaluation/a5_evaluation.ipynb") in lecture6
