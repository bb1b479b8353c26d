"""Principle 1: the engine imports no UI (and no numerical library), and every import runs downwards."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

HEAVY = ("panel", "bokeh", "param", "numpy", "dask", "tqdm")


def test_importing_the_engine_loads_neither_panel_nor_bokeh() -> None:
    code = (
        "import sys, laspoly, laspoly.engine.game, laspoly.engine.checked, laspoly.engine.compiled, laspoly.bots.registry,"
        " laspoly.bots.runner, laspoly.record, laspoly.position_files, laspoly.cli\n"
        f"print(','.join(m for m in {HEAVY!r} if m in sys.modules))"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == ""


def test_the_import_contracts_hold() -> None:
    """`lint-imports` keeps every contract of pyproject.toml: no import loop in the engine, no arrow running back up."""
    lint = Path(sys.executable).with_name("lint-imports")
    if not lint.exists():
        pytest.skip("import-linter is not installed (it comes with the test extra: pip install -e '.[test]')")
    root = Path(__file__).resolve().parents[2]
    env = {**os.environ, "PYTHONPATH": str(root)}
    out = subprocess.run([str(lint), "--no-cache"], capture_output=True, text=True, cwd=root, env=env, timeout=300)
    assert out.returncode == 0, out.stdout[-3000:] + out.stderr[-2000:]
    assert " broken" in out.stdout and "0 broken" in out.stdout


def test_importing_the_bots_loads_no_numerical_library_until_a_trade_is_weighed() -> None:
    """The trading bots import the movement chain (and numpy with it) only when they first price a trade."""
    code = (
        "import sys, laspoly.bots.registry as r\n"
        "r.make_bot('dealer'); r.make_bot('companion')\n"
        "print('numpy' in sys.modules)\n"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "False"


def test_the_analysis_names_the_chain_the_bots_price_rents_by() -> None:
    from laspoly.analysis import markov
    from laspoly.chain import movement

    assert markov.MovementChain is movement.MovementChain and markov.chain_tables is movement.chain_tables


def test_the_phases_and_the_shared_actions_have_different_names() -> None:
    """A module that imports both never meets one name for a phase and for a tuple of actions (``BUYING``, ``BUY``)."""
    from laspoly.engine import actions, state

    phases = {name for name, value in vars(state).items() if isinstance(value, state.Phase)}
    shared = {name for name, value in vars(actions).items() if isinstance(value, tuple) and value
              and all(isinstance(a, actions.Action) for a in value)}
    assert "BUYING" in phases and "BUY" in shared and not phases & shared
