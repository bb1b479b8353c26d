"""Position files and the shipped demonstrations: read, write and list them.

The format and its checks live in :mod:`laspoly.engine.position_format`; this module adds
the files: a size limit checked before reading, JSON decoding, a readable layout for
writing, and the demonstrations shipped in ``laspoly/data/positions``, each a position
with a title and a two-line explanation in English and Spanish, and dice scripted so
that its point happens on the next roll.

For the command line and the dashboard, one call each:

* ``demonstrations(lang)``: the list of (id, title, explanation) to show;
* ``game_from(id_or_path)``: a game that plays on from a demonstration or a position file;
* ``load_position(path)``: a position file, checked (``laspoly check``);
* ``position_summary(position)``: one line saying what a position is.
"""

from __future__ import annotations

import json
from functools import cache
from importlib import resources
from pathlib import Path
from typing import Any, NamedTuple

from laspoly.engine.game import Game
from laspoly.engine.position_format import MAX_POSITION_BYTES, POSITION_FORMAT, position_of, problem_lines
from laspoly.errors import PositionError
from laspoly.record import decode_json, read_limited

__all__ = [
    "MAX_POSITION_BYTES", "POSITION_FORMAT", "Demonstration", "demonstration_ids", "demonstrations", "dumps_position",
    "game_from", "load_demonstration", "load_position", "normalise_position", "position_from_json", "position_problems",
    "position_summary", "save_position",
]


def normalise_position(data: Any) -> dict[str, Any]:
    """A position in normal form (every key, indices for names, the decks listed); a bad one raises."""
    return position_of(Game.from_position(data))


def position_problems(data: Any) -> list[str]:
    """Every problem of a position, or an empty list when it is valid (for an editor that shows them all)."""
    try:
        Game.from_position(data)
    except PositionError as exc:
        return problem_lines(str(exc))
    return []


class Demonstration(NamedTuple):
    """A shipped demonstration as a menu shows it."""

    id: str
    title: str
    explanation: tuple[str, ...]


def _shipped() -> Any:
    return resources.files("laspoly.data").joinpath("positions")


@cache
def demonstration_ids() -> tuple[str, ...]:
    """The ids of the shipped demonstrations, in the order a menu lists them."""
    files = sorted(p.name for p in _shipped().iterdir() if p.name.endswith(".json"))
    return tuple(name[:-5].split("_", 1)[1] for name in files)


@cache
def _demonstration_file(demo_id: str) -> str:
    for p in _shipped().iterdir():
        if p.name.endswith(f"_{demo_id}.json"):
            return str(p.read_text(encoding="utf-8"))
    raise PositionError(f"no demonstration {demo_id!r}; the demonstrations are: {', '.join(demonstration_ids())}")


def load_demonstration(demo_id: str) -> dict[str, Any]:
    """A shipped demonstration's position, checked, in normal form (a fresh copy each call)."""
    if not isinstance(demo_id, str) or demo_id not in demonstration_ids():
        raise PositionError(f"no demonstration {demo_id!r}; the demonstrations are: {', '.join(demonstration_ids())}")
    return position_from_json(_demonstration_file(demo_id), f"demonstration {demo_id}")


def demonstrations(lang: str = "en") -> list[Demonstration]:
    """Every shipped demonstration: its id, title and explanation in ``lang`` (English when missing)."""
    out = []
    for demo_id in demonstration_ids():
        about = json.loads(_demonstration_file(demo_id))["about"]
        title = about["title"].get(lang) or about["title"]["en"]
        explanation = about["explanation"].get(lang) or about["explanation"]["en"]
        out.append(Demonstration(demo_id, title, tuple(explanation)))
    return out


def position_from_json(raw: bytes | str, name: str = "position file") -> dict[str, Any]:
    """Decode and check position text; every failure is one :class:`PositionError` naming the file."""
    data = decode_json(raw, name, MAX_POSITION_BYTES, "position files", PositionError)
    try:
        return normalise_position(data)
    except PositionError as exc:
        raise PositionError(f"{name}: {exc}") from None


def load_position(path: str | Path) -> dict[str, Any]:
    """Read and check a position file; an oversized one is refused before it is read."""
    path = Path(path)
    return position_from_json(read_limited(path, MAX_POSITION_BYTES, "position files", PositionError), path.name)


def game_from(id_or_path: str | Path) -> Game:
    """A game that plays on from a shipped demonstration (by id) or from a position file (by path)."""
    if isinstance(id_or_path, str) and id_or_path in demonstration_ids():
        return Game.from_position(load_demonstration(id_or_path))
    path = Path(id_or_path)
    if not path.exists():
        raise PositionError(f"{id_or_path} is neither a demonstration ({', '.join(demonstration_ids())}) nor a file")
    return Game.from_position(load_position(path))


def dumps_position(position: dict[str, Any]) -> str:
    """A position as JSON text laid out for reading: one line per player, property, deck and list of dice."""
    return _layout(position, "") + "\n"


def _layout(value: Any, indent: str) -> str:
    inner = indent + " "
    if isinstance(value, dict) and not _is_flat(value):
        items = [f"{inner}{json.dumps(k)}: {_layout(v, inner)}" for k, v in value.items()]
        return "{\n" + ",\n".join(items) + "\n" + indent + "}" if items else "{}"
    if isinstance(value, list) and any(isinstance(v, dict) for v in value):
        return "[\n" + ",\n".join(inner + _layout(v, inner) for v in value) + "\n" + indent + "]"
    return json.dumps(value, ensure_ascii=False)


def _is_flat(d: dict[str, Any]) -> bool:
    """A small object of plain values (a player, a property, the turn) reads best on one line."""
    plain = all(not isinstance(v, dict) and not (isinstance(v, list) and len(v) > 8) for v in d.values())
    return plain and len(json.dumps(d, ensure_ascii=False)) <= 240


def save_position(game_or_position: Game | dict[str, Any], path: str | Path) -> Path:
    """Write a game's position (or a position) to ``path``, checked first and atomically."""
    position = position_of(game_or_position) if isinstance(game_or_position, Game) else normalise_position(game_or_position)
    path = Path(path)
    tmp = path.with_name(path.name + ".tmp")
    tmp.write_text(dumps_position(position), encoding="utf-8")
    tmp.replace(path)
    return path


def position_summary(position: dict[str, Any], lang: str = "en") -> str:
    """One line saying what a checked position is: preset, players, round and who is to do what."""
    t = position["turn"]
    who = position["players"][t["player"]]["name"]
    doing = {"turn": "to roll" if t["roll_due"] else "to end the turn", "buy": "to decide on a purchase",
             "travel": "to decide on the train"}[t["phase"]]
    about = position.get("about")
    title = f" '{about['title'].get(lang) or about['title']['en']}'" if about else ""
    return (f"a valid {position['preset']} position{title}: {len(position['players'])} players, "
            f"round {t['round']}, {who} {doing}")
