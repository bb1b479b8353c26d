"""Small helpers for scenario tests: scripted games, and positions set through the position API.

A helper edits the game's position (``position_of``) and sets it back with
``Game.set_position``, which checks it as it checks any position file: a test
cannot set up a position the rules make impossible.  Everything after that goes
through the validating ``Game.apply``.
"""

from __future__ import annotations

import copy
import functools
import importlib.util
import re
from collections.abc import Callable
from pathlib import Path
from typing import Any

from hypothesis import strategies as st

from laspoly.engine import actions as A
from laspoly.engine.chance import parse_dice_script
from laspoly.engine.game import Game
from laspoly.engine.position_format import position_of

ANA, BEN, CY = 0, 1, 2
#: With this seed Ana (seat 0) plays first in 2- and 3-player Las Poly games.
SEED_ANA_FIRST = 4


def new_game(dice: str | None = None, players: int = 2, preset: str = "laspoly",
             rules: dict[str, Any] | None = None, seed: int = SEED_ANA_FIRST) -> Game:
    """A game of Ana, Ben (and Cy) with scripted dice, Ana to move first."""
    names = ["Ana", "Ben", "Cy", "Di"][:players]
    game = Game(names, preset=preset, seed=seed, rules=rules, dice=dice)
    return game


def edit(game: Game, change: Callable[[dict[str, Any]], None]) -> None:
    """Change the game's position with ``change`` and set it back (an impossible position raises)."""
    position = position_of(game)
    change(position)
    game.set_position(position)


def _index(game: Game, name_or_index: str | int) -> int:
    return name_or_index if isinstance(name_or_index, int) else game.board.find(name_or_index)


def _owned(position: dict[str, Any], i: int) -> dict[str, Any]:
    return next(d for d in position["properties"] if d["field"] == i)


def give(game: Game, player: int, *names: str) -> list[int]:
    """Hand fields to a player."""
    idx = [game.board.find(n) for n in names]

    def change(position: dict[str, Any]) -> None:
        position["properties"] = [d for d in position["properties"] if d["field"] not in idx]
        position["properties"] += [{"field": i, "owner": player} for i in idx]

    edit(game, change)
    return idx


def build(game: Game, buildings: dict[int | str, int | str]) -> None:
    """Put buildings on owned streets, all at once: a number of houses, "hotel" or "factory" per street."""
    def change(position: dict[str, Any]) -> None:
        for where, what in buildings.items():
            d = _owned(position, _index(game, where))
            d.update(houses=what if isinstance(what, int) else 0, hotel=what == "hotel", factory=what == "factory")

    edit(game, change)


def mortgage(game: Game, *fields: int | str) -> None:
    """Mortgage owned properties."""
    def change(position: dict[str, Any]) -> None:
        for f in fields:
            _owned(position, _index(game, f))["mortgaged"] = True

    edit(game, change)


def place(game: Game, player: int, name_or_index: str | int) -> None:
    """Put a player's token on a field."""
    edit(game, lambda position: position["players"][player].update(field=_index(game, name_or_index)))


def jail(game: Game, player: int) -> None:
    """Put a player in prison (on the prison field)."""
    edit(game, lambda position: position["players"][player].update(in_prison=True, field=game.board.prison))


def set_cash(game: Game, player: int, amount: int) -> None:
    """Give a player exactly ``amount`` (the bank's figure follows: money stays conserved)."""
    edit(game, lambda position: position["players"][player].update(cash=amount))


def fund_pot(game: Game, amount: int) -> None:
    """Put money in the pot (the bank's figure follows: money stays conserved)."""
    edit(game, lambda position: position.update(pot=position["pot"] + amount))


def stack(game: Game, deck: str, *card_ids: str) -> None:
    """Put the named cards on top of a deck, in order."""
    def change(position: dict[str, Any]) -> None:
        position["decks"][deck] = list(card_ids) + [c for c in position["decks"][deck] if c not in card_ids]

    edit(game, change)


def give_jail_card(game: Game, player: int, deck: str, card_id: str) -> None:
    """Take a Get-Out-of-Prison card out of its deck into a player's hand."""
    def change(position: dict[str, Any]) -> None:
        position["decks"][deck].remove(card_id)
        position["players"][player]["jail_cards"].append([deck, card_id])

    edit(game, change)


def script(game: Game, dice: str) -> None:
    """Script the next rolls, replacing any scripted rolls still to come."""
    edit(game, lambda position: position.update(dice=[list(pair) for pair in parse_dice_script(dice)]))


def act(game: Game, cls: type[A.Action], *args: Any) -> None:
    """The actor plays ``cls(actor, *args)`` through the validating path."""
    game.apply(cls(game.actor, *args))


def cash(game: Game) -> list[int]:
    """Every player's cash."""
    return [p.cash for p in game.players]


def texts(game: Game, lang: str = "en") -> list[str]:
    """The log as sentences."""
    return [game.describe(e, lang) for e in game.log]

#: With this seed Ana plays first in 2- and 3-player Sculptprice games.
SEED_ANA_FIRST_SCULPTPRICE = 1


def new_sculptprice(dice: str | None = None, players: int = 2, rules: dict[str, Any] | None = None) -> Game:
    """A Sculptprice game of Ana and Ben (and Cy), Ana first."""
    return new_game(dice, players, "sculptprice", rules, SEED_ANA_FIRST_SCULPTPRICE)


def new_classic(dice: str = "", players: int = 2, preset: str = "classic", rules: dict[str, Any] | None = None) -> Game:
    """A classic or standard game, Ana first: the roll-off (C10) dice come first in the script."""
    roll_off = "6-6 " + "1-1 " * (players - 1)
    return new_game(roll_off + dice, players, preset, rules)


# ---------------------------------------------------------------- hostile files: mutated documents

#: Values a mutated file may hold where a valid one has something else.
NASTY = st.one_of(st.none(), st.booleans(), st.integers(-(10**30), 10**30), st.floats(allow_nan=True),
                  st.text(max_size=30), st.lists(st.integers(), max_size=5), st.dictionaries(st.text(max_size=5), st.integers(), max_size=3))


def paths(obj: Any, prefix: tuple[Any, ...] = ()) -> list[tuple[Any, ...]]:
    """Every place in a JSON document (the first few items of each list), as key paths."""
    out = [prefix]
    if isinstance(obj, dict):
        for k, v in obj.items():
            out += paths(v, (*prefix, k))
    elif isinstance(obj, list):
        for i, v in enumerate(obj[:6]):
            out += paths(v, (*prefix, i))
    return out


def mutate(doc: Any, path: tuple[Any, ...], value: Any) -> Any:
    """A copy of ``doc`` with ``value`` put at ``path``."""
    doc = copy.deepcopy(doc)
    if not path:
        return value
    target = doc
    for key in path[:-1]:
        target = target[key]
    target[path[-1]] = value
    return doc


#: English catalogue texts that are also ordinary Spanish words ("un total de 3"), so a Spanish page may show them.
SPANISH_TOO = {"total", "hotel"}


def english_patterns() -> list[tuple[str, re.Pattern[str]]]:
    """Every English text of the catalogues (the dashboard's and the engine's words) that differs from its Spanish, as a pattern.

    Each form of a plural message is a text.  A placeholder matches any text; a
    match must start and end at a word's edge, so "turn" does not match inside
    "turno".  The language switch names English in English on purpose, and is left out.
    """
    from laspoly.engine.words import table

    out = []
    for key, texts in table().items():
        for en in texts["en"]:
            if en in texts["es"] or key.startswith("lang.") or en in SPANISH_TOO:
                continue
            parts = re.split(r"\{[^}]*\}", en)
            body = ".+?".join(re.escape(p) for p in parts)
            out.append((key, re.compile(rf"(?<![\wÀ-ÿ]){body}(?![\wÀ-ÿ])")))
    return out


def english_in(lines: list[str]) -> list[tuple[str, str]]:
    """The (catalogue key, line) pairs where an English-only text of the catalogues appears in ``lines``."""
    patterns = english_patterns()
    return [(key, line) for line in lines for key, pattern in patterns if pattern.search(line)]


@functools.cache
def load_tool(name: str) -> Any:
    """The script ``tools/<name>.py`` as a module: a test recomputes exactly what a pinning tool stored."""
    path = Path(__file__).parents[1] / "tools" / f"{name}.py"
    spec = importlib.util.spec_from_file_location(name, path)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module
