# The two commands of the quickstart: `make app` and `make test`.
PYTHON ?= python3
VENV   := .venv
BIN    := $(VENV)/bin
PORT   ?= 5006

.PHONY: app test lint lab bench soak load clean chromium postgres

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

## chromium: the system browser for the browser tests (installed with apt-get when root and missing)
chromium:
	@if [ ! -x /usr/bin/chromium ]; then \
	  if [ "$$(id -u)" = "0" ] && command -v apt-get >/dev/null 2>&1; then \
	    echo "Installing Chromium for the browser tests"; \
	    apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq chromium >/dev/null; \
	  else \
	    echo "Chromium is missing and cannot be installed here: browser tests will be skipped (under CI=true they fail)"; \
	  fi; \
	fi

## postgres: PostgreSQL binaries for the storage tests (the tests start their own server on loopback)
postgres:
	@if ! ls /usr/lib/postgresql/*/bin/initdb >/dev/null 2>&1; then \
	  if [ "$$(id -u)" = "0" ] && command -v apt-get >/dev/null 2>&1; then \
	    echo "Installing PostgreSQL for the storage tests"; \
	    apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq postgresql >/dev/null; \
	  else \
	    echo "PostgreSQL is missing and cannot be installed here: its storage tests will be skipped (under CI=true they fail)"; \
	  fi; \
	fi

## test: install laspoly with the test extras (and Chromium and PostgreSQL) and run ruff, mypy and the whole suite
test: $(VENV)/.test-installed chromium postgres
	$(BIN)/ruff check laspoly tests benchmarks apps tools notebooks
	$(BIN)/mypy
	$(BIN)/python -m pytest

## lint: ruff, and mypy --strict on the engine, rules, errors and bots (settings in pyproject.toml)
lint: $(VENV)/.test-installed
	$(BIN)/ruff check laspoly tests benchmarks apps tools notebooks
	$(BIN)/mypy

## soak: 100,000 checked bot games across presets and seeds (kept out of make test)
soak: $(VENV)/.app-installed
	$(BIN)/laspoly soak --games 100000 --workers 2

## load: 30 concurrent dashboard sessions on one server (3 in Chromium), 3 rounds; figures in docs/reliability.md
load: $(VENV)/.test-installed chromium
	mkdir -p .benchmarks
	$(BIN)/python benchmarks/load.py --json .benchmarks/load.json

## lab: open the lessons in JupyterLab from the project's .venv
lab: $(VENV)/.test-installed
	$(BIN)/python -m pip install --quiet --disable-pip-version-check jupyterlab
	$(BIN)/jupyter lab notebooks

## bench: speed figures (median of repeated runs)
bench: $(VENV)/.test-installed chromium
	$(BIN)/python benchmarks/bench_engine.py
	$(BIN)/python benchmarks/bench_analysis.py
	$(BIN)/python benchmarks/bench_dashboard.py

clean:
	rm -rf $(VENV) .pytest_cache .benchmarks
