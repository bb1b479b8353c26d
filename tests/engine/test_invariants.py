"""The invariants the soak checks after every event name every way a game's state can break.

:func:`~laspoly.engine.invariants.always_problems` runs after each event that can change ownership,
buildings or cards, so it is written as plain loops; these tests pin that each broken state is still
found, with its words, and that a sound state has none.
"""

from __future__ import annotations

from collections.abc import Callable

import pytest

from laspoly.engine.game import Game
from laspoly.engine.invariants import always_problems, problems

Break = Callable[[Game], None]


def _street_group(g: Game) -> tuple[int, ...]:
    return next(iter(g.board.groups.values())).fields


def _own(g: Game, fields: tuple[int, ...], player: int = 0) -> None:
    for i in fields:
        g.owner[i] = player


def _uneven(g: Game) -> None:  # L17: a group held by one owner keeps its levels at most one apart
    a = _street_group(g)[0]
    _own(g, _street_group(g))
    g.level[a] = 2


def _factory_and_houses(g: Game) -> None:  # L12: a factory is a street's last building
    i = _street_group(g)[0]
    _own(g, (i,))
    g.factory[i], g.level[i], g.factories = True, 1, 1


def _mortgaged_with_buildings(g: Game) -> None:
    i = _street_group(g)[0]
    _own(g, _street_group(g))
    g.level[i], g.mortgaged[i] = 1, True


def _level_too_high(g: Game) -> None:
    group = _street_group(g)
    _own(g, group)
    for i in group:
        g.level[i] = g.hotel_level + 1


def _card_lost(g: Game) -> None:
    next(iter(g.decks.values())).pop()


BROKEN: dict[str, tuple[Break, str]] = {
    "money from nowhere": (lambda g: setattr(g.players[0], "cash", g.players[0].cash + 1), "money not conserved"),
    "a negative pot": (lambda g: (setattr(g, "pot", -5), setattr(g, "bank", g.bank + 5)), "the pot is negative: -5"),
    "an owner on a field nobody can own": (lambda g: g.owner.__setitem__(0, 0), "field 0 ("),
    "buildings on an unowned street": (lambda g: g.level.__setitem__(_street_group(g)[0], 1), "which is not an owned street"),
    "a factory and houses on one street": (_factory_and_houses, "has a factory and houses"),
    "a mortgaged street with buildings": (_mortgaged_with_buildings, "is mortgaged with buildings on it"),
    "a level above a hotel": (_level_too_high, f"has building level {5 + 1}"),
    "a mortgage on a field nobody owns": (lambda g: g.mortgaged.__setitem__(_street_group(g)[0], True), "is mortgaged but owned by nobody"),
    "a factory not counted": (lambda g: setattr(g, "factories", 1), "factory count 1 != 0"),
    "uneven buildings in a group (L17)": (_uneven, "uneven buildings in"),
    "a card lost from a deck": (_card_lost, "cards were lost or duplicated"),
}


@pytest.mark.parametrize("name", list(BROKEN))
def test_each_broken_state_is_named_by_the_invariants_checked_after_every_event(name: str) -> None:
    g = Game(2, preset="laspoly", seed=1)
    assert always_problems(g) == [] and problems(g) == []
    breaks, words = BROKEN[name]
    breaks(g)
    found = always_problems(g)
    assert any(words in problem for problem in found), found


def test_the_bank_s_building_supply_is_counted_when_it_runs_short() -> None:
    g = Game(2, preset="standard", seed=1, rules={"building_shortage": True})
    group = _street_group(g)
    _own(g, group)
    assert always_problems(g) == []
    g.level[group[0]], g.houses_left = 1, g.houses_left - 1  # a house bought from the bank: still sound
    g.level[group[1]], g.houses_left = g.hotel_level, g.houses_left + 1 - 4  # ...then a hotel for no houses back
    assert always_problems(g) == ["building supply miscounted: 1+28 houses, 1+12 hotels"]
