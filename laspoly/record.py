"""Save, load and replay games as versioned JSON: the setup, then every action.

A game started from a position (:mod:`laspoly.engine.position_format`) records that
position in its setup, and its replay starts from it.

A save file never holds code: it is read with :func:`json.loads` and every
value is checked before the game is rebuilt by replaying the actions through
the validating :meth:`Game.apply`.  The file also stores a digest of the final
state, so a file whose actions were edited is refused rather than silently
giving another game.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from laspoly.engine.game import Game
from laspoly.engine.registry import action_from_dict
from laspoly.engine.words import worded_error
from laspoly.errors import LaspolyError, SaveFileError

SAVE_FORMAT = "laspoly-save"
SAVE_VERSION = 1
#: Save files larger than this are refused before they are read (about 50,000 actions fit in 5 MB).
MAX_SAVE_BYTES = 5_000_000
#: The longest save file the command line replays (the server stores fewer: :data:`laspoly.server.limits.ROOM_MAX_ACTIONS`).
MAX_ACTIONS = 200_000
_SETUP_KEYS = {"preset", "players", "seed", "rules", "dice", "max_rounds", "position"}


def game_to_dict(game: Game) -> dict[str, Any]:
    """The save-file form of a game: format tag, setup, actions and final digest."""
    return {
        "format": SAVE_FORMAT,
        "version": SAVE_VERSION,
        "setup": game.setup,
        "actions": [a.as_dict() for a in game.history],
        "digest": game.digest(),
    }


def save_game(game: Game, path: str | Path) -> Path:
    """Write the game to ``path`` as JSON (atomically: a crash leaves the old file intact)."""
    path = Path(path)
    tmp = path.with_name(path.name + ".tmp")
    tmp.write_text(json.dumps(game_to_dict(game), ensure_ascii=False, separators=(",", ":")), encoding="utf-8")
    tmp.replace(path)
    return path


def new_game_from_setup(setup: Any) -> Game:
    """A fresh game from a save file's ``setup`` block, every value checked."""
    if not isinstance(setup, dict):
        raise worded_error(SaveFileError, "save.setup_object")
    unknown = set(setup) - _SETUP_KEYS
    if unknown:
        raise worded_error(SaveFileError, "save.setup_keys", keys=", ".join(sorted(map(str, unknown)))[:200])
    if "position" in setup:
        return _game_from_position_setup(setup)
    try:
        return Game(
            setup.get("players"), preset=setup.get("preset", "laspoly"), seed=setup.get("seed", 0),
            rules=setup.get("rules") or None, dice=setup.get("dice") or None, max_rounds=setup.get("max_rounds"),
        )
    except LaspolyError as exc:
        raise worded_error(SaveFileError, "save.setup_invalid", error=exc) from None
    except (TypeError, AttributeError) as exc:
        raise worded_error(SaveFileError, "save.setup_type", error=str(exc)[:240]) from None


def _game_from_position_setup(setup: dict[str, Any]) -> Game:
    """A game that started from a position: the position is rebuilt, and the rest of the setup must agree with it."""
    try:
        game = Game.from_position(setup["position"])
    except LaspolyError as exc:
        raise worded_error(SaveFileError, "save.position_invalid", error=exc) from None
    if game.setup != setup:
        raise worded_error(SaveFileError, "save.position_mismatch")
    return game


def replay(setup: dict[str, Any], actions: list[Any]) -> Game:
    """Rebuild a game by replaying ``actions`` (dicts or actions) through the validating path."""
    game = new_game_from_setup(setup)
    for k, raw in enumerate(actions):
        action = raw if not isinstance(raw, dict) else action_from_dict(raw)
        try:
            game.apply(action)
        except LaspolyError as exc:
            raise worded_error(SaveFileError, "save.action", n=k + 1, error=exc) from None
    return game


class TooManyActions(SaveFileError):
    """A save file with more actions than the reader takes (refused before any of them is replayed)."""

    def __init__(self, count: int, limit: int) -> None:
        super().__init__(f"the save file's actions must be a list of at most {limit} (it has {count})")
        self.count = count
        self.limit = limit


def game_from_dict(data: Any, max_actions: int = MAX_ACTIONS) -> Game:
    """Check a decoded save file and replay it into the identical game (at most ``max_actions`` actions)."""
    if not isinstance(data, dict) or data.get("format") != SAVE_FORMAT:
        raise worded_error(SaveFileError, "save.not_save")
    if data.get("version") != SAVE_VERSION:
        raise worded_error(SaveFileError, "save.version", version=str(data.get("version"))[:20], supported=SAVE_VERSION)
    unknown = set(data) - {"format", "version", "setup", "actions", "digest"}
    if unknown:
        raise worded_error(SaveFileError, "save.keys", keys=", ".join(sorted(map(str, unknown)))[:200])
    actions = data.get("actions")
    if not isinstance(actions, list):
        raise worded_error(SaveFileError, "save.actions", max=max_actions)
    if len(actions) > max_actions:
        raise TooManyActions(len(actions), max_actions)
    setup: Any = data.get("setup")  # checked by the set-up's own reader
    game = replay(setup, actions)
    digest = data.get("digest")
    if digest is not None and digest != game.digest():
        raise worded_error(SaveFileError, "save.digest")
    return game


def load_game(path: str | Path) -> Game:
    """Read a save file; a corrupt, truncated, foreign or oversized one raises :class:`SaveFileError`."""
    path = Path(path)
    return game_from_json(read_limited(path, MAX_SAVE_BYTES, "save files"), path.name)


def game_from_json(raw: bytes | str, name: str = "save file", max_actions: int = MAX_ACTIONS) -> Game:
    """Decode and replay save-file text of at most ``max_actions`` actions; every failure is a :class:`SaveFileError`."""
    return game_from_dict(decode_json(raw, name, MAX_SAVE_BYTES, "save files"), max_actions)


def read_limited(path: Path, limit: int, kind: str, error: type[LaspolyError] = SaveFileError) -> bytes:
    """A file's bytes; a file over ``limit`` is refused before it is read (``kind`` names it: "save files")."""
    try:
        size = path.stat().st_size
        if size > limit:
            raise error(f"{path.name} is {size} bytes; {kind} are limited to {limit} bytes")
        with path.open("rb") as fh:
            return fh.read(limit + 1)
    except OSError as exc:
        raise error(f"cannot read {path.name}: {exc.strerror}") from None


def decode_json(raw: bytes | str, name: str, limit: int, kind: str, error: type[LaspolyError] = SaveFileError) -> Any:
    """Decoded JSON text of at most ``limit`` bytes; truncated, damaged or too deep text raises ``error``."""
    if len(raw) > limit:
        raise error(f"{name} is over the {limit}-byte limit for {kind}")
    try:
        return json.loads(raw)
    except (UnicodeDecodeError, json.JSONDecodeError) as exc:
        raise worded_error(error, "error.json_invalid", name=name, detail=str(exc)[:200]) from None
    except (RecursionError, ValueError):
        raise worded_error(error, "error.json_deep", name=name) from None


def rewind(game: Game, n: int = 1) -> Game:
    """The game as it was ``n`` decisions ago (undo), rebuilt by replay."""
    if not 0 <= n <= len(game.history):
        raise SaveFileError(f"cannot undo {n} decision(s); the game has {len(game.history)}")
    return replay(game.setup, list(game.history[: len(game.history) - n]))
