"""Principle 1: the engine imports no UI (and no numerical library)."""

from __future__ import annotations

import subprocess
import sys

HEAVY = ("panel", "bokeh", "param", "numpy", "dask", "tqdm")


def test_importing_the_engine_loads_neither_panel_nor_bokeh() -> None:
    code = (
        "import sys, laspoly, laspoly.engine.game, laspoly.engine.invariants, laspoly.bots.runner, laspoly.record, laspoly.cli\n"
        f"print(','.join(m for m in {HEAVY!r} if m in sys.modules))"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == ""
