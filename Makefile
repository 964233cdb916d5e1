# regnum — developer entry points. Everything runs in a local virtual environment, .venv/,
# created on first use; the editable install is redone only when pyproject.toml changes.

PYTHON ?= python3
VENV   := .venv
BIN    := $(VENV)/bin
STAMP  := $(VENV)/.installed
PIP    := $(BIN)/python -m pip --disable-pip-version-check

.PHONY: setup demo test bench clean

setup: $(STAMP)

$(BIN)/python:
	$(PYTHON) -m venv $(VENV)

# The ray extra lets tests/cli/test_ray_backend.py run `simulate --backend ray` on a local Ray
# instance (measured: ~10 s more to install, ~35 s more of tests on 2 cores). The compiled extra
# (Cython) lets tests/unit/test_compiled_backend.py build the optional compiled backend and run
# the engine's suites on it too.
$(STAMP): pyproject.toml | $(BIN)/python
	$(PIP) install --quiet -e '.[test,ray,compiled]'
	touch $@

demo: $(STAMP)
	$(BIN)/regnum play kings_road --players 4 --bots all --seed 1 --quiet-board

# The suite on every core (pytest-xdist's `-n auto`: 5 min on 2 cores, against 8–10 in one
# process); `.venv/bin/python -m pytest -q` runs it in one. `--dist loadfile` runs the tests of
# one file on one worker, one after the other: the tutorial's commands share a file of the
# checkout (tests/cli/test_tutorial.py, `my_nobles.rules`).
test: $(STAMP)
	$(BIN)/python -m pytest -q -n auto --dist loadfile

bench: $(STAMP)
	$(BIN)/regnum bench

clean:
	rm -rf $(VENV) dist build .pytest_cache .hypothesis
	find . -name __pycache__ -type d -prune -exec rm -rf {} +
