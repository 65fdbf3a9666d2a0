"""The browser harness itself, and the student JupyterLab and Notebook 7 it serves."""

from __future__ import annotations

from typing import Any

import pytest

from .harness import (
    LabServer,
    active_plugins,
    error_outputs,
    has_command,
    http_status,
    open_notebook,
    run_all_cells,
    screenshot,
    visible_texts,
    wait_app_ready,
)

pytestmark = pytest.mark.browser

INSTRUCTOR_PLUGINS = (
    "@jupyter/nbgrader:formgrader",
    "@jupyter/nbgrader:course-list",
    "@jupyter/nbgrader:create-assignment",
    "@jupyter/nbgrader:assignment-list",
    "@jupyter/nbgrader:menu",
)


@pytest.fixture(scope="module")
def slider_notebook(lab_server: LabServer) -> str:
    return lab_server.add_notebook(
        "harness/slider.ipynb", ["import ipywidgets as w", "w.IntSlider(value=3)"]
    )


def test_notebook_runs_and_widget_renders(
    page: Any, lab_server: LabServer, slider_notebook: str
) -> None:
    open_notebook(page, lab_server, slider_notebook)
    assert run_all_cells(page)
    slider = page.locator(".jp-OutputArea-output .widget-slider")
    slider.wait_for(state="visible", timeout=30_000)
    assert page.locator(".widget-slider .widget-readout").inner_text().strip() == "3"
    assert error_outputs(page) == []
    assert screenshot(page, "harness-slider").stat().st_size > 0


def test_error_outputs_reports_a_failing_cell(page: Any, lab_server: LabServer) -> None:
    relpath = lab_server.add_notebook("harness/failing.ipynb", ["1 + 1", "1 / 0"])
    open_notebook(page, lab_server, relpath)
    assert run_all_cells(page) is False
    errors = error_outputs(page)
    assert len(errors) == 1 and "ZeroDivisionError" in errors[0]


@pytest.fixture
def student_notebook(jupyter: LabServer) -> str:
    return jupyter.add_notebook(
        "harness/slider.ipynb", ["import ipywidgets as w", "w.IntSlider(value=3)"]
    )


def test_no_news_popup(page: Any, jupyter: LabServer) -> None:
    page.goto(jupyter.url("lab?reset" if jupyter.app == "lab" else "tree"))
    wait_app_ready(page)
    assert active_plugins(page, ["@jupyterlab/apputils-extension:announcements"]) == []
    page.wait_for_timeout(3_000)  # the news question is a toast shown soon after start
    assert page.get_by_text("official Jupyter news").count() == 0
    assert page.get_by_text("Jupyter news", exact=False).count() == 0


def test_no_instructor_ui_but_validate_button(
    page: Any, jupyter: LabServer, student_notebook: str
) -> None:
    open_notebook(page, jupyter, student_notebook)
    # The nbgrader lab extension is loaded (Validate button) ...
    validate = page.locator(".jp-NotebookPanel-toolbar .validate-button")
    validate.wait_for(state="visible")
    assert "Validate" in validate.inner_text()
    # ... but none of its instructor plugins, panels, menus or commands are.
    assert active_plugins(page, INSTRUCTOR_PLUGINS) == []
    assert active_plugins(page, ["@jupyter/nbgrader:validate-assignment"]) == [
        "@jupyter/nbgrader:validate-assignment"
    ]
    for command in (
        "nbgrader:open-formgrader",
        "nbgrader:open-course-list",
        "nbgrader:open-create-assignment",
        "nbgrader:open-assignment-list",
    ):
        assert not has_command(page, command), command
    assert page.locator("#jp-mainmenu-nbgrader").count() == 0
    menus = visible_texts(page, ".lm-MenuBar-itemLabel")
    assert "File" in menus and "Nbgrader" not in menus
    assert page.locator("#nbgrader-create_assignemnt").count() == 0  # sic, nbgrader's id
    assert page.get_by_title("Nbgrader Create Assignment").count() == 0
    screenshot(page, f"harness-student-toolbar-{jupyter.app}")


def test_instructor_server_extensions_are_off(jupyter: LabServer) -> None:
    assert http_status(jupyter.url("formgrader")) == 404
    assert http_status(jupyter.url("formgraders")) == 404  # course list
    assert http_status(jupyter.url("assignments")) == 404  # assignment list
    assert http_status(jupyter.url("nbgrader_version?version=0.0")) == 200  # validate's


def test_validate_button_validates(page: Any, jupyter: LabServer, student_notebook: str) -> None:
    open_notebook(page, jupyter, student_notebook)
    page.locator(".jp-NotebookPanel-toolbar .validate-button").click()
    dialog = page.locator(".jp-Dialog")
    dialog.wait_for(state="visible", timeout=90_000)
    text = dialog.inner_text()
    assert "Validation Results" in text or "Success" in text, text
    assert "Cannot" not in text and "failed" not in text.lower(), text
