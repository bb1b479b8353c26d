"""`pip install laspoly` is enough for the engine, the analysis and the terminal commands; the rest are extras.

Each test runs laspoly in a fresh interpreter in which the optional libraries cannot be imported (a finder at
the head of ``sys.meta_path`` refuses them), as on a machine where only the base install was made.  A command
that needs a missing extra prints one line naming the ``pip install`` that adds it and exits with status 2.
"""

from __future__ import annotations

import os
import subprocess
import sys
import tomllib
from pathlib import Path

import pytest

from laspoly.extras import EXTRAS, MissingExtraError, require

ROOT = Path(__file__).resolve().parents[2]
#: The libraries of the app, dask and postgres extras, as imported (tornado comes with bokeh).
OPTIONAL = ("panel", "bokeh", "param", "segno", "tornado", "dask", "distributed", "psycopg")

#: Run the ``laspoly`` command line with the modules named in argv[1] (comma-separated) refused on import.
LAUNCHER = """
import sys

BLOCKED = tuple(filter(None, sys.argv[1].split(",")))


class Refuse:
    '''Refuse the blocked libraries, as if they were not installed.'''

    def find_spec(self, name, path=None, target=None):
        if name.split(".")[0] in BLOCKED:
            raise ModuleNotFoundError(f"No module named {name!r}", name=name)
        return None


sys.meta_path.insert(0, Refuse())
del sys.argv[1]
if sys.argv[1] == "-c":
    exec(sys.argv[2])
else:
    from laspoly.cli import main

    sys.exit(main(sys.argv[1:]))
"""


def _run(tmp_path: Path, blocked: tuple[str, ...], *args: str, env: dict[str, str] | None = None,
         timeout: float = 120) -> subprocess.CompletedProcess[str]:
    launcher = tmp_path / "without_extras.py"
    launcher.write_text(LAUNCHER, encoding="utf-8")
    return subprocess.run([sys.executable, str(launcher), ",".join(blocked), *args], capture_output=True, text=True,
                          timeout=timeout, cwd=tmp_path, env=env)


def _one_clear_line(out: subprocess.CompletedProcess[str], extra: str) -> None:
    assert out.returncode == 2, (out.returncode, out.stdout, out.stderr)
    assert "Traceback" not in out.stderr, out.stderr
    lines = out.stderr.strip().splitlines()
    assert len(lines) == 1, out.stderr
    assert lines[0].startswith("laspoly: error: ") and f"pip install 'laspoly[{extra}]'" in lines[0], lines[0]


def test_the_base_modules_import_without_any_optional_library(tmp_path: Path) -> None:
    code = (
        "import sys, laspoly, laspoly.engine.game, laspoly.bots.runner, laspoly.record, laspoly.position_files, laspoly.cli\n"
        "import laspoly.analysis.markov, laspoly.analysis.landings, laspoly.analysis.simulate, laspoly.analysis.soak\n"
        "import laspoly.analysis.figures, laspoly.analysis.odds, laspoly.analysis.stats, laspoly.analysis.trades\n"
        f"print(','.join(sorted(m for m in sys.modules if m.split('.')[0] in {OPTIONAL!r})))"
    )
    out = _run(tmp_path, OPTIONAL, "-c", code)
    assert out.returncode == 0, out.stderr
    assert out.stdout.strip() == ""


@pytest.mark.parametrize("args, shows", [
    (("play", "--players", "3", "--seed", "7", "--quiet"), "Winner: "),
    (("simulate", "--games", "4", "--players", "2", "--quiet"), "4 games"),
    (("markov", "--variant", "standard", "--per", "roll"), "expected rolls per turn"),
    (("positions",), "casino-6-6"),
])
def test_the_terminal_commands_run_on_the_base_install(tmp_path: Path, args: tuple[str, ...], shows: str) -> None:
    out = _run(tmp_path, OPTIONAL, *args)
    assert out.returncode == 0, out.stderr
    assert shows in out.stdout, out.stdout


def test_serve_without_the_app_extra_says_how_to_install_it(tmp_path: Path) -> None:
    _one_clear_line(_run(tmp_path, OPTIONAL, "serve", "--port", "5999"), "app")


def test_simulate_on_dask_without_the_dask_extra_says_how_to_install_it(tmp_path: Path) -> None:
    out = _run(tmp_path, ("dask", "distributed"), "simulate", "--games", "4", "--dask", "local", "--quiet")
    _one_clear_line(out, "dask")
    _one_clear_line(_run(tmp_path, ("dask", "distributed"), "tournament", "--bots", "greedy,hotel", "--dask", "local"), "dask")


def test_a_postgres_database_without_psycopg_says_how_to_install_it(tmp_path: Path) -> None:
    env = {**os.environ, "LASPOLY_DB": "postgresql://nobody@127.0.0.1:1/rooms"}
    _one_clear_line(_run(tmp_path, ("psycopg",), "serve", "--port", "5999", env=env), "postgres")
    code = (
        "from laspoly.errors import StoreError\n"
        "from laspoly.server.store import open_store\n"
        "try:\n    open_store('postgresql://nobody@127.0.0.1:1/rooms')\n"
        "except StoreError as exc:\n    print(exc)\n"
    )
    out = _run(tmp_path, ("psycopg",), "-c", code)
    assert out.returncode == 0 and "pip install 'laspoly[postgres]'" in out.stdout, (out.stdout, out.stderr)


def test_a_dask_worker_needs_no_dashboard(tmp_path: Path) -> None:
    """What a worker unpickles and runs (the games of one chunk) imports no Panel, Bokeh or param."""
    code = (
        "import sys\n"
        "from laspoly.analysis.simulate import Spec, play_many, simulate\n"
        "assert simulate(games=2, players=2).records\n"
        "print(','.join(sorted(m for m in sys.modules if m.split('.')[0] in ('panel', 'bokeh', 'param', 'segno'))))"
    )
    out = _run(tmp_path, ("panel", "bokeh", "param", "segno", "tornado"), "-c", code)
    assert out.returncode == 0, out.stderr
    assert out.stdout.strip() == ""


def test_require_names_the_extra_and_the_missing_library() -> None:
    require("postgres", "a database")  # installed here: nothing to say
    EXTRAS["missing-for-test"] = ("laspoly_no_such_module",)
    try:
        with pytest.raises(MissingExtraError, match=r"^x needs the 'missing-for-test' extra \(laspoly_no_such_module is not"):
            require("missing-for-test", "x")
    finally:
        del EXTRAS["missing-for-test"]


def test_the_extras_of_pyproject_match_what_the_code_requires() -> None:
    project = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))["project"]
    extras = project["optional-dependencies"]
    base = " ".join(project["dependencies"])
    for extra, modules in EXTRAS.items():
        assert extra in extras, f"pyproject.toml has no [{extra}] extra"
        for module in modules:
            assert module.split(".")[0] not in base, f"{module} is in the base install, not only in [{extra}]"
    own = [e for e in extras["test"] if e.startswith("laspoly[")]
    parts = set(own[0][len("laspoly["):-1].split(",")) if own else set()
    assert {"app", "dask", "postgres"} <= parts, "the test extra must install every part the suite tests"
    assert "laspoly[app]" in extras["lab"], "the lessons show the dashboard inline"
