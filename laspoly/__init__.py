"""laspoly: an exact rules engine, bots and probability lab for Las Poly and related rulebooks.

Importing ``laspoly`` loads only the standard library: the engine imports no
UI and no numerical library.
"""

from laspoly.engine import actions
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

__all__ = [
    "BoardError", "ChanceError", "Game", "IllegalActionError", "LaspolyError", "RuleOptionError", "RuleOptions",
    "SaveFileError", "SetupError", "actions", "load_preset", "preset_names",
]
