"""The optional compiled build: ``LASPOLY_COMPILE=1`` compiles the engine, rules and bots with mypyc.

Without the variable this is a plain pure-Python package (``pip install -e .`` needs no compiler).  With it,
the modules below become C extension modules built from the same source; mypy (which brings mypyc) and a C
compiler must then be installed, so build without isolation::

    LASPOLY_COMPILE=1 pip install --no-build-isolation .

``make compiled`` builds them into ``build/compiled/`` instead, beside a copy of the package, so that the
source tree never holds extension modules (an extension module beside a ``.py`` file wins the import).
"""

from __future__ import annotations

import os
from typing import Any

from setuptools import setup

#: The modules compiled: the engine, the rules and the bots.  Left interpreted: ``native.py``, which only tells
#: the compiler things (compiled, its interpreter-only branch would be dead code), and ``compiled.py``, which
#: asks which build runs.  The movement chain (``laspoly/chain``) that the trading bots read stays Python: it is numpy.
COMPILED = [
    "laspoly/errors.py",
    "laspoly/engine/actions.py",
    "laspoly/engine/base.py",
    "laspoly/engine/chance.py",
    "laspoly/engine/checked.py",
    "laspoly/engine/decisions.py",
    "laspoly/engine/events.py",
    "laspoly/engine/game.py",
    "laspoly/engine/gamestate.py",
    "laspoly/engine/invariants.py",
    "laspoly/engine/legality.py",
    "laspoly/engine/observation.py",
    "laspoly/engine/payments.py",
    "laspoly/engine/position_checks.py",
    "laspoly/engine/position_format.py",
    "laspoly/engine/reasons.py",
    "laspoly/engine/registry.py",
    "laspoly/engine/state.py",
    "laspoly/engine/turns.py",
    "laspoly/engine/wording.py",
    "laspoly/engine/words.py",
    "laspoly/rules/board.py",
    "laspoly/rules/options.py",
    "laspoly/rules/presets.py",
    "laspoly/bots/basic.py",
    "laspoly/bots/registry.py",
    "laspoly/bots/runner.py",
    "laspoly/bots/trader.py",
    "laspoly/bots/valuation.py",
]


def extensions() -> list[Any]:
    """The C extension modules when ``LASPOLY_COMPILE=1`` asks for them, else none."""
    if os.environ.get("LASPOLY_COMPILE") != "1":
        return []
    from mypyc.build import mypycify  # only the compiled build needs mypy

    # -O1 builds in half the time of -O3 and ran as fast in alternating runs; one C file per module lets
    # `build_ext --parallel` compile them side by side
    return mypycify(COMPILED, opt_level="1", debug_level="0", multi_file=True)


setup(ext_modules=extensions())
