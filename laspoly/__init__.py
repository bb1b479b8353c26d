"""laspoly: an exact rules engine, bots and probability lab for Las Poly and related rulebooks.

Importing ``laspoly`` loads only the standard library: the engine imports no
UI and no numerical library.
"""

from laspoly.engine import actions
from laspoly.engine.compiled import is_compiled
from laspoly.engine.game import Game
from laspoly.errors import (
    BoardError,
    ChanceError,
    IllegalActionError,
    LaspolyError,
    RuleOptionError,
    SaveFileError,
    SetupError,
)
from laspoly.rules.options import RuleOptions
from laspoly.rules.presets import load_preset, preset_names

__version__ = "0.1.0"
#: True when the engine, rules and bots run compiled by mypyc (``make compiled``), False for the pure-Python source.
COMPILED = is_compiled()

__all__ = [
    "COMPILED", "BoardError", "ChanceError", "Game", "IllegalActionError", "LaspolyError", "RuleOptionError", "RuleOptions",
    "SaveFileError", "SetupError", "actions", "load_preset", "preset_names",
]
