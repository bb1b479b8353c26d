# The two commands of the quickstart: `make app` and `make test`; `make help` lists the others.
PYTHON ?= python3
VENV   := .venv
BIN    := $(VENV)/bin
PORT   ?= 5006
PIP    := $(BIN)/python -m pip install --quiet --disable-pip-version-check
#: pytest workers of `make test` (pytest-xdist): the browser tests wait on a server and a browser much of the time,
#: so two workers on two cores nearly halve the suite; `make test WORKERS=0` runs it in one process
WORKERS ?= 2
#: what `make test` runs a second time against the compiled build: each ruling's scenario tests, the rules the
#: engine checks on every action, save files, positions, chance, bots, the builds' own checks, and every fifth
#: of the 800 pinned games (`make soak` replays all 800 on both builds)
COMPILED_TESTS := tests/engine/test_compiled_build.py tests/engine/test_invariants.py tests/rules/test_rules_laspoly.py tests/rules/test_rules_classic.py \
          tests/rules/test_rules_sculptprice.py tests/engine/test_conformance.py tests/engine/test_observation.py tests/engine/test_positions.py \
          tests/engine/test_chance.py tests/engine/test_record.py tests/engine/test_hostile_files.py tests/bots/test_bots.py tests/bots/test_trading.py \
          tests/engine/test_digests.py tests/bots/test_trading_digests.py
#: the quick check of `make smoke`: the rules of every preset, save files, the command line, the docs
SMOKE  := tests/rules/test_rules_laspoly.py tests/rules/test_rules_classic.py tests/rules/test_rules_sculptprice.py tests/engine/test_options.py \
          tests/engine/test_boards.py tests/engine/test_record.py tests/docs/test_cli.py tests/docs/test_cli_errors.py tests/server/test_serving.py \
          tests/docs/test_import_boundary.py tests/docs/test_docs.py tests/docs/test_readme.py

.PHONY: help app app-build test smoke lint lab lessons bench soak load clean chromium postgres screenshots compiled test-compiled \
        typecheck compiled-when-possible

## help: list the make targets
help:
	@sed -n 's/^## //p' Makefile

$(BIN)/python:
	$(PYTHON) -m venv $(VENV)

# Each target installs only what it uses (the extras of pyproject.toml): `make app` the dashboard, `make lab` the
# lessons with the dashboard, `make test` everything the suite tests. A later, larger install marks the smaller ones.
$(VENV)/.app-installed: pyproject.toml | $(BIN)/python
	$(PIP) -e '.[app]'
	touch $@

$(VENV)/.test-installed: pyproject.toml | $(BIN)/python
	$(PIP) -e '.[test]'
	touch $@ $(VENV)/.app-installed $(VENV)/.mypyc-installed

# What the compiled build needs beyond the app: mypy, which brings mypyc, and setuptools to run setup.py.
$(VENV)/.mypyc-installed: pyproject.toml | $(BIN)/python
	$(PIP) 'mypy>=1.11' 'setuptools>=68'
	touch $@

$(VENV)/.lab-installed: pyproject.toml | $(BIN)/python
	$(PIP) -e '.[lab]'
	touch $@ $(VENV)/.app-installed

## app: install laspoly and its dashboard (the app extra) into .venv and serve it at http://localhost:5006 (another port: make app PORT=8080);
##      with gcc and the Python headers, the engine compiled by mypyc (make app-build)
app: app-build
	$(BIN)/laspoly serve --port $(PORT)

## app-build: what make app serves: the compiled build where gcc and the Python headers are present (a minute or two
##            of compiling, once), else the pure-Python build; one line says which (.venv/bin/laspoly then runs it)
# A failed compile is no reason not to serve: the line says so and the pure build serves (laspoly/launch.py runs the
# compiled build only when its stamp is newer than every source file).
app-build: $(VENV)/.app-installed
	@if $(HAVE_COMPILER); then \
	  $(MAKE) --no-print-directory -q build/compiled/.built 2>/dev/null || \
	    echo "Compiling the engine with mypyc into build/compiled (about 1-2 minutes on 2 cores; later runs reuse it)"; \
	  if $(MAKE) --no-print-directory -s compiled; then echo "Build: compiled (mypyc), from build/compiled"; \
	  else echo "Build: pure Python (the compile failed, see build/compiled/build.log)"; fi; \
	else echo "Build: pure Python (no C compiler (gcc) or Python headers here for the compiled one)"; fi

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

## test: install laspoly with the test extras (and Chromium and PostgreSQL), run ruff, the import contracts, mypy
##       and the whole suite,
##       then the engine's tests again against the compiled build (make test-compiled)
test: $(VENV)/.test-installed chromium postgres
	$(BIN)/ruff check laspoly tests benchmarks apps tools notebooks
	$(BIN)/lint-imports
	$(MAKE) --no-print-directory -j2 --output-sync=target typecheck compiled-when-possible
	$(BIN)/python -m pytest -n $(WORKERS) --dist worksteal -m "not load"
	$(MAKE) --no-print-directory test-compiled

# mypy runs on one core; the compiled build's C compiler runs beside it on the other, which saves most of a
# minute of `make test` over doing one after the other.
typecheck: $(VENV)/.test-installed
	$(BIN)/mypy

# The test for a C compiler and the Python headers, which the compiled build needs.
HAVE_COMPILER = command -v gcc >/dev/null 2>&1 && \
  [ -f "$$($(BIN)/python -c 'import sysconfig; print(sysconfig.get_paths()["include"])')/Python.h" ]

compiled-when-possible: $(VENV)/.test-installed
	@if $(HAVE_COMPILER); then $(MAKE) --no-print-directory compiled; fi

## compiled: the engine, rules and bots compiled with mypyc into build/compiled/ (needs a C compiler); .venv/bin/laspoly
##           runs it while it is current (laspoly/launch.py), make app builds it where it can
compiled: build/compiled/.synced

# A full copy of the package with the extension modules beside it, so the source tree never holds a .so that
# would win the import over its .py; `PYTHONPATH=build/compiled` runs the compiled build. Compiled again when a
# compiled module's source changes (.built); any other file (the dashboard, the data) is copied again (.synced).
build/compiled/.built: setup.py $(shell find laspoly -name '*.py' -not -path '*/ui/*') | $(VENV)/.mypyc-installed
	rm -rf build/compiled && mkdir -p build/compiled
	cp -r laspoly setup.py pyproject.toml README.md build/compiled/
	find build/compiled/laspoly -name __pycache__ -prune -exec rm -rf {} +
	cd build/compiled && LASPOLY_COMPILE=1 $(abspath $(BIN))/python setup.py --quiet build_ext --inplace --parallel 2 >build.log 2>&1 \
	  || { tail -30 build.log; exit 1; }
	touch $@

build/compiled/.synced: build/compiled/.built $(shell find laspoly -type f -not -path '*/__pycache__/*')
	find build/compiled/laspoly -type f -not -name '*.so' -delete
	cp -r laspoly build/compiled/
	find build/compiled/laspoly -name __pycache__ -prune -exec rm -rf {} +
	touch $@

## test-compiled: build with mypyc and run the engine, rules and bot tests and every fifth pinned game against it
# `pytest` runs from .venv/bin, not `python -m pytest`, which would put the source tree first on sys.path.
test-compiled: $(VENV)/.test-installed
	@if ! { $(HAVE_COMPILER); }; then \
	  if [ "$$CI" = "true" ]; then echo "gcc or the Python headers are missing: the compiled build cannot be tested"; exit 1; fi; \
	  echo "gcc or the Python headers are missing: skipping the compiled build's tests (the pure-Python build was tested)"; \
	  exit 0; \
	fi; \
	$(MAKE) --no-print-directory compiled && \
	PYTHONPATH=build/compiled LASPOLY_EXPECT_COMPILED=1 $(BIN)/pytest -p no:cacheprovider -q -n $(WORKERS) $(COMPILED_TESTS)

## smoke: ruff and a quick subset of the tests (no browser, notebooks or long runs), under a minute
smoke: $(VENV)/.test-installed
	$(BIN)/ruff check laspoly tests benchmarks apps tools notebooks
	$(BIN)/python -m pytest -q -m "not slow and not browser" $(SMOKE)

## lint: ruff, the import contracts (lint-imports) and mypy --strict on the engine, rules, errors, chain, bots and
##       analysis (settings in pyproject.toml)
lint: $(VENV)/.test-installed
	$(BIN)/ruff check laspoly tests benchmarks apps tools notebooks
	$(BIN)/lint-imports
	$(BIN)/mypy

## soak: 100,000 checked bot games across presets and seeds, and all 800 pinned seeded games on both builds
##       (the compiled one when gcc can build it; kept out of make test)
soak: $(VENV)/.test-installed
	$(BIN)/python tools/pin_game_digests.py --check
	if $(HAVE_COMPILER) && $(MAKE) --no-print-directory compiled; then \
	  PYTHONPATH=build/compiled $(BIN)/python tools/pin_game_digests.py --check; fi
	$(BIN)/laspoly soak --games 100000 --workers 2

## load: 30 concurrent dashboard sessions on one server (3 in Chromium), 3 rounds, a 4th in which 5 run a 1,000-game lab
##       and a 5th of one class (30 students on phones, its teacher's page and projector); then the class round again
##       on 2 server processes over PostgreSQL; figures in docs/reliability.md
load: $(VENV)/.test-installed chromium postgres
	mkdir -p .benchmarks
	$(BIN)/python -m pytest -q -n 0 -m load tests
	@# both runs go to their end; make load fails if either missed a goal
	$(BIN)/python benchmarks/load.py --lab-sessions 5 --class-round --json .benchmarks/load.json; one=$$?; \
	$(BIN)/python benchmarks/load.py --rounds 0 --class-round --num-procs 2 --db postgresql \
	  --json .benchmarks/load-class-postgresql.json; two=$$?; \
	test $$one = 0 && test $$two = 0

## lab: install the lab extra (JupyterLab, nbconvert, the dashboard) and open the lessons in JupyterLab, offline, from
##      copies in .lab/ (the tracked lessons stay as committed; delete .lab/ for fresh copies)
# JupyterLab autosaves every open notebook with its outputs, so opening notebooks/ itself would write outputs
# into the tracked teacher lessons: the lessons are copied into .lab/ (ignored by git), a copy replaced only when
# its lesson is newer, so a teacher's own edits there survive. PANEL_INLINE puts Bokeh's and Panel's JavaScript
# into the notebook, so dashboards and figures show with no network, as in make lessons. JupyterLab's settings for
# the lessons (tools/lab-settings, copied into .lab/settings) keep every cell attached to the page, so a dashboard
# drawn while its cell is off screen gets its size (the default "contentVisibility" mode lays it out at none).
lab: $(VENV)/.lab-installed
	mkdir -p .lab/student
	cp -u notebooks/[0-9][0-9]_*.ipynb .lab/
	cp -u notebooks/student/*.ipynb .lab/student/
	mkdir -p .lab/settings && cp -rn tools/lab-settings/. .lab/settings/
	cd .lab && PANEL_INLINE=true JUPYTERLAB_SETTINGS_DIR=$(CURDIR)/.lab/settings ../$(BIN)/jupyter lab $$([ "$$(id -u)" = "0" ] && echo --allow-root)

## lessons: run each lesson (teacher version) and write it with its outputs as HTML to docs/lessons/, offline:
##          Bokeh's and Panel's JavaScript inlined, MathJax copied beside the pages from a package
lessons: $(VENV)/.lab-installed
	$(BIN)/python tools/render_lessons.py --out docs/lessons
	@echo "The lessons are in docs/lessons/ (open the .html files in a browser; the folder works offline)"

## bench: speed figures (median of repeated runs); the engine's and the long runs' (simulate, tournament, soak,
##        lab) on both builds when gcc can build the compiled one; `make bench PEER=path/to/a/checkout` of
##        github.com/gamescomputersplay/monopoly also times that simulator in the same run and prints each
##        target with its ratio (benchmarks/bench_peer.py; without PEER one line says it is skipped)
PEER ?=
bench: $(VENV)/.test-installed chromium
	if $(HAVE_COMPILER) && $(MAKE) --no-print-directory compiled; then \
	  $(BIN)/python benchmarks/bench_engine.py --builds pure,compiled && \
	  $(BIN)/python benchmarks/bench_runs.py --builds pure,compiled && \
	  $(BIN)/python benchmarks/bench_peer.py --peer "$(PEER)" --builds pure,compiled; \
	else $(BIN)/python benchmarks/bench_engine.py && $(BIN)/python benchmarks/bench_runs.py --builds pure && \
	  $(BIN)/python benchmarks/bench_peer.py --peer "$(PEER)" --builds pure; fi
	$(BIN)/python benchmarks/bench_analysis.py
	$(BIN)/python benchmarks/bench_dashboard.py

## screenshots: the Play table at four screen sizes, in English and Spanish, into docs/img/ (Chromium)
screenshots: $(VENV)/.test-installed chromium
	$(BIN)/python tools/screenshots.py --out docs/img

## clean: remove .venv, caches and the rendered lessons
clean:
	rm -rf $(VENV) .pytest_cache .benchmarks docs/lessons build
