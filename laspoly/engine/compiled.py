"""Which build of the engine is running: the pure-Python source or the extension modules mypyc built from it.

It asks the game's own module, so it sits above the game (the game's modules import
:mod:`~laspoly.engine.native`, which therefore cannot ask it).
"""

from __future__ import annotations

from importlib.machinery import EXTENSION_SUFFIXES

from laspoly.engine import game


def is_compiled() -> bool:
    """True when the engine runs as extension modules built by mypyc, False when it runs as the pure-Python source."""
    return str(game.__file__).endswith(tuple(EXTENSION_SUFFIXES))


def build_name() -> str:
    """Which build runs, in words: ``compiled (mypyc)`` or ``pure Python``."""
    return "compiled (mypyc)" if is_compiled() else "pure Python"
