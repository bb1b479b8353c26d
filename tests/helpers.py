"""Small helpers for scenario tests: scripted games and hand-placed positions.

Positions are set by writing the state directly (as python-chess tests set up
a board); everything after that goes through the validating ``Game.apply``.
"""

from __future__ import annotations

from collections import deque
from typing import Any

from laspoly.engine import actions as A
from laspoly.engine.game import Game

ANA, BEN, CY = 0, 1, 2
#: With this seed Ana (seat 0) plays first in 2- and 3-player Las Poly games.
SEED_ANA_FIRST = 4


def new_game(dice: str | None = None, players: int = 2, preset: str = "laspoly",
             rules: dict[str, Any] | None = None, seed: int = SEED_ANA_FIRST) -> Game:
    """A game of Ana, Ben (and Cy) with scripted dice, Ana to move first."""
    names = ["Ana", "Ben", "Cy", "Di"][:players]
    game = Game(names, preset=preset, seed=seed, rules=rules, dice=dice)
    return game


def give(game: Game, player: int, *names: str) -> list[int]:
    """Hand fields to a player (test set-up)."""
    idx = [game.board.find(n) for n in names]
    for i in idx:
        game.owner[i] = player
    return idx


def place(game: Game, player: int, name_or_index: str | int) -> None:
    """Put a player's token on a field (test set-up)."""
    i = name_or_index if isinstance(name_or_index, int) else game.board.find(name_or_index)
    game.players[player].pos = i


def stack(game: Game, deck: str, *card_ids: str) -> None:
    """Put the named cards on top of a deck, in order (test set-up)."""
    cards = game.board.decks[deck]
    top = [next(k for k, c in enumerate(cards) if c.id == cid) for cid in card_ids]
    rest = [k for k in game.decks[deck] if k not in top]
    game.decks[deck] = deque(top + rest)


def fund_pot(game: Game, amount: int) -> None:
    """Put money in the pot as if players had paid it (keeps the money count balanced)."""
    game.pot += amount
    game.bank -= amount


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
