"""Presets: a board plus rule option values, looked up by name.

Each preset is a small JSON file in ``laspoly/data/presets``.  It names its
board file and overrides the Las Poly defaults of :class:`RuleOptions`.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from functools import cache
from importlib import resources
from typing import Any

from laspoly.errors import BoardError, RuleOptionError
from laspoly.rules.board import Board, board_from_dict
from laspoly.rules.options import RuleOptions

PRESET_FORMAT = "laspoly-preset"


@dataclass(frozen=True, slots=True)
class Preset:
    """A named rulebook: its board, default rule options and default language."""

    id: str
    name: dict[str, str]
    board: Board
    rules: RuleOptions
    lang: str


def _data_file(*parts: str) -> Any:
    return resources.files("laspoly.data").joinpath(*parts)


def preset_names() -> tuple[str, ...]:
    """Names of every preset shipped with laspoly, the default first."""
    names = sorted(p.name[:-5] for p in _data_file("presets").iterdir() if p.name.endswith(".json"))
    return tuple(sorted(names, key=lambda n: n != "laspoly"))


@cache
def load_shipped_board(name: str) -> Board:
    """The validated board shipped under ``laspoly/data/boards/<name>.json``."""
    path = _data_file("boards", f"{name}.json")
    if not path.is_file():
        raise BoardError(f"no shipped board named {name!r}")
    return board_from_dict(json.loads(path.read_text(encoding="utf-8")), f"{name}.json")


def preset_title(name: str, lang: str = "en") -> str:
    """A preset's name for people, in ``lang`` ("Clásico (edición web)" for ``classic`` in Spanish).

    Lists and tables show this, not the id; an id that is not shipped is shown as it is.
    """
    if name not in preset_names():
        return name
    title = load_preset(name).name
    return title.get(lang) or title.get("en") or name


@cache
def load_preset(name: str = "laspoly") -> Preset:
    """Look up a shipped preset by name, e.g. ``load_preset("standard")``."""
    if not isinstance(name, str) or name not in preset_names():
        raise RuleOptionError(f"unknown preset {name!r}; presets are: {', '.join(preset_names())}")
    data = json.loads(_data_file("presets", f"{name}.json").read_text(encoding="utf-8"))
    if data.get("format") != PRESET_FORMAT:
        raise BoardError(f"{name}.json: not a laspoly preset")
    rules = RuleOptions().with_overrides(data.get("rules", {}))
    return Preset(
        id=data["id"],
        name=data["name"],
        board=load_shipped_board(data["board"]),
        rules=rules,
        lang=data.get("lang", "en"),
    )
