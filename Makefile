# minimaxkit: a fresh clone needs only Python (>= 3.11) to run these targets.
#   make lab    set up .venv, configure JupyterLab for students, open the first lecture
#   make test   ruff, mypy, then pytest (all of it, browser tests included; npm ci for axe-core)
#   make test-fast  ruff, then the tests that need no nbgrader course and no browser (the edit loop)
#   make bench  run the benchmarks
#   make student  build the students' copy (no solutions) in build/student, a git repository
#   make clean  remove the venv, caches and test artifacts

PYTHON ?= python3
VENV   := .venv
BIN    := $(VENV)/bin
STAMP  := $(VENV)/.installed
FIRST_LECTURE := notebooks/01_game_trees.ipynb
# Jupyter refuses to run as root without this (containers, CI machines).
ALLOW_ROOT := $(if $(filter 0,$(shell id -u)),--allow-root)

.PHONY: lab test test-fast lint typecheck pytest bench clean venv student

venv: $(STAMP)

$(BIN)/python:
	$(PYTHON) -m venv $(VENV)

# (Re)install whenever pyproject.toml is newer than the stamp.
$(STAMP): pyproject.toml | $(BIN)/python
	$(BIN)/python -m pip install --upgrade pip
	$(BIN)/python -m pip install -e ".[dev,hub]"
	touch $@

lab: $(STAMP)
	$(BIN)/python tools/student_setup.py
	$(BIN)/python -m jupyter lab $(ALLOW_ROOT) --ServerApp.root_dir="$(CURDIR)" $(FIRST_LECTURE)

test: lint typecheck pytest

# The edit loop: no nbgrader course, no browser, no hub (the tests marked slow or browser).
test-fast: lint $(STAMP)
	$(BIN)/python -m pytest -m "not slow and not browser"

lint: $(STAMP)
	$(BIN)/python -m ruff check .

typecheck: $(STAMP)
	$(BIN)/python -m mypy

# axe-core for the browser tests' accessibility checks (package-lock.json pins it).
AXE := node_modules/axe-core/axe.min.js
$(AXE): package-lock.json
	npm ci --no-audit --no-fund
	touch $@  # npm keeps the package's old file times: without this it would run every time

pytest: $(STAMP) $(AXE)
	$(BIN)/python -m pytest

bench: $(STAMP)
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

clean:
	rm -rf $(VENV) *.egg-info .pytest_cache .mypy_cache .ruff_cache .test-cache tests/artifacts \
		node_modules
	find . -name __pycache__ -type d -prune -exec rm -rf {} +
