# The two commands of the quickstart: `make app` and `make test`.
PYTHON ?= python3
VENV   := .venv
BIN    := $(VENV)/bin
PORT   ?= 5006

.PHONY: app test lint bench soak clean

$(BIN)/python:
	$(PYTHON) -m venv $(VENV)

$(VENV)/.app-installed: pyproject.toml | $(BIN)/python
	$(BIN)/python -m pip install --quiet --disable-pip-version-check -e .
	touch $@

$(VENV)/.test-installed: pyproject.toml | $(BIN)/python
	$(BIN)/python -m pip install --quiet --disable-pip-version-check -e '.[test]'
	touch $@ $(VENV)/.app-installed

## app: install laspoly into .venv and serve the dashboard at http://localhost:$(PORT)
app: $(VENV)/.app-installed
	$(BIN)/laspoly serve --port $(PORT)

## test: install laspoly with the test extras into .venv and run the whole suite, with ruff
test: $(VENV)/.test-installed
	$(BIN)/ruff check laspoly tests benchmarks apps
	$(BIN)/python -m pytest

lint: $(VENV)/.test-installed
	$(BIN)/ruff check laspoly tests benchmarks apps

## bench: speed figures (median of repeated runs)
bench: $(VENV)/.test-installed
	$(BIN)/python benchmarks/bench_engine.py
	$(BIN)/python benchmarks/bench_analysis.py

clean:
	rm -rf $(VENV) .pytest_cache .benchmarks
