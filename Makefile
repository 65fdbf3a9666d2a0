# minimaxkit: a fresh clone needs only Python (>= 3.11) to run these targets.
#   make lab    set up .venv with what a student needs (the kit and its base dependencies),
#               configure JupyterLab for students, open the first lecture (its own URL)
#   make test   add the developer's tools (the dev and hub extras), then ruff, mypy and
#               pytest (all of it, browser tests included; npm ci for axe-core)
#   make venv   .venv with the kit and the developer's tools, no student setup, no server
#               (instructors: nbgrader and the kit's grading commands)
#   make test-fast  ruff, then the tests that need no nbgrader course and no browser (the edit loop)
#   make bench  run the benchmarks
#   make student  build the students' copy (no solutions) in build/student, a git repository
#   make site   the course as a static website in build/site (docs/site.md; npm ci for its scripts)
#   make clean  remove the venv, caches and test artifacts

PYTHON ?= python3
VENV   := .venv
BIN    := $(VENV)/bin
# what a student needs (make lab), and that plus the developer's tools (make test)
STAMP  := $(VENV)/.installed-base
DEV_STAMP := $(VENV)/.installed-dev
FIRST_LECTURE := notebooks/01_game_trees.ipynb
# Jupyter refuses to run as root without this (containers, CI machines).
ALLOW_ROOT := $(if $(filter 0,$(shell id -u)),--allow-root)

.PHONY: lab test test-fast lint typecheck pytest bench clean venv student site

venv: $(DEV_STAMP)

$(BIN)/python:
	$(PYTHON) -m venv $(VENV)

# jsonschema's "format-nongpl" extra, which jupyter-events asks for, brings rfc3987-syntax,
# which builds Lark parsers when it is imported: 1.2 to 1.8 processor seconds in every process
# that imports nbformat or a Jupyter server (each nbgrader command, each server, each lecture
# run) for the "iri" format, which no Jupyter schema uses (jsonschema issue #1428).
# jsonschema leaves that format unchecked without it, and pip check stays clean. Taken out
# after every install, which would bring it back (docs/benchmarks.md, *The test suite*).
SLOW_IMPORTS := rfc3987-syntax

# (Re)install whenever pyproject.toml is newer than the stamp.
$(STAMP): pyproject.toml | $(BIN)/python
	$(BIN)/python -m pip install --upgrade pip
	$(BIN)/python -m pip install -e .
	$(BIN)/python -m pip uninstall --yes $(SLOW_IMPORTS)
	touch $@

$(DEV_STAMP): $(STAMP)
	$(BIN)/python -m pip install -e ".[dev,hub]"
	$(BIN)/python -m pip uninstall --yes $(SLOW_IMPORTS)
	touch $@

# The server opens the first lecture itself, and prints its URL (with the token): the one
# to open on a remote machine, where no browser starts.
lab: $(STAMP)
	$(BIN)/python tools/student_setup.py
	$(BIN)/python -m jupyter lab $(ALLOW_ROOT) --ServerApp.root_dir="$(CURDIR)" \
		--LabApp.default_url=/lab/tree/$(FIRST_LECTURE)

test: lint typecheck pytest

# The edit loop: no nbgrader course, no browser, no hub (the tests marked slow or browser).
test-fast: lint
	$(BIN)/python -m pytest -m "not slow and not browser"

lint: $(DEV_STAMP)
	$(BIN)/python -m ruff check .

typecheck: $(DEV_STAMP)
	$(BIN)/python -m mypy

# axe-core for the browser tests' accessibility checks (package-lock.json pins it).
AXE := node_modules/axe-core/axe.min.js
$(AXE): package-lock.json
	npm ci --no-audit --no-fund
	touch $@  # npm keeps the package's old file times: without this it would run every time

pytest: $(DEV_STAMP) $(AXE)
	$(BIN)/python -m pytest

bench: $(DEV_STAMP)
	@if [ -f benchmarks/run_all.py ]; then \
		$(BIN)/python benchmarks/run_all.py; \
	else \
		echo "benchmarks/run_all.py not found: nothing to run"; \
	fi

# The students' copy of the course: lectures, released assignments, the kit, Binder's files;
# no solutions/, hidden tests or instructor tools (tools/make_student.py; README, "Students").
STUDENT_DIR ?= build/student
student:
	$(PYTHON) tools/make_student.py "$(STUDENT_DIR)" --git

# The course as a static website (docs/site.md): every lecture executed with its widgets'
# frames, the widget renderer, require.js, anywidget and MathJax copied from node_modules
# (package-lock.json pins them). SITE_BINDER=OWNER/REPO adds Binder links; SITE_HUB and
# SITE_GIT (together) add links to a JupyterHub with nbgitpuller.
SITE_DIR ?= build/site
SITE_BINDER ?=
SITE_HUB ?=
SITE_GIT ?=
SITE_BUDGET_MB ?= 12
site: $(STAMP) $(AXE)
	$(BIN)/python -m minimaxkit.site "$(SITE_DIR)" --jobs 2 --budget-mb $(SITE_BUDGET_MB) \
		$(if $(SITE_BINDER),--binder "$(SITE_BINDER)") \
		$(if $(SITE_HUB),--hub "$(SITE_HUB)" --git "$(SITE_GIT)")

clean:
	rm -rf $(VENV) *.egg-info .pytest_cache .mypy_cache .ruff_cache .test-cache tests/artifacts \
		node_modules
	find . -name __pycache__ -type d -prune -exec rm -rf {} +
