"""The engine's words: names of players, the bank and the pot, fields, cards, money, events and actions.

Functions over a :class:`~laspoly.engine.gamestate.GameState`, and :class:`Names`, the
:class:`~laspoly.engine.events.Namer` of a state that events and refusals are worded with.
"""

from __future__ import annotations

from dataclasses import fields
from typing import Any

from laspoly.engine import actions as A
from laspoly.engine import events as E
from laspoly.engine import words
from laspoly.engine.events import BANK, POT
from laspoly.engine.gamestate import GameState
from laspoly.engine.reasons import word
from laspoly.engine.registry import action_words


class Names:
    """A state's names for events and refusals: players, the bank and the pot, fields, cards and money."""

    __slots__ = ("state",)

    def __init__(self, state: GameState) -> None:
        self.state = state

    def party_name(self, who: int, lang: str = "en") -> str:
        """A player's name, or the bank or the pot in ``lang``."""
        return party_name(self.state, who, lang)

    def field_name(self, index: int, lang: str = "en") -> str:
        """A field's name in ``lang``."""
        return field_name(self.state, index, lang)

    def card_text(self, deck: str, card: int, lang: str = "en") -> str:
        """A card's text in ``lang``."""
        return card_text(self.state, deck, card, lang)

    def money(self, amount: int) -> str:
        """An amount with the board's currency."""
        return money(self.state, amount)


def party_name(s: GameState, who: int, lang: str = "en") -> str:
    """A player's name, or the bank or the pot in ``lang``."""
    if who == BANK:
        return words.text("name.bank", lang)
    if who == POT:
        return words.text("name.casino_pot" if s.rules.pot_payout == "casino_doubles" else "name.pot", lang)
    return s.players[who].name


def field_name(s: GameState, index: int, lang: str = "en") -> str:
    """A field's name in ``lang``."""
    return s.fields[index].label(lang) if index >= 0 else "-"


def card_text(s: GameState, deck: str, card: int, lang: str = "en") -> str:
    """A card's text in ``lang``."""
    return s.board.decks[deck][card].label(lang)


def money(s: GameState, amount: int) -> str:
    """An amount with the board's currency: ``150 LPD``, ``$150``, ``150€``."""
    c = s.board.currency
    if c == "$":
        return f"${amount}"
    return f"{amount}{c}" if c == "€" else f"{amount} {c}"


def describe(s: GameState, event: E.Event, lang: str = "en") -> str:
    """One event as a sentence."""
    return event.text(Names(s), lang)


def explain(s: GameState, reason: str, lang: str = "en") -> str:
    """A reason from :meth:`why_illegal` in ``lang``, in this preset's own words where its rulebook has them."""
    return word(reason, Names(s), lang, s.preset.id)


def describe_action(s: GameState, action: A.Action, lang: str = "en") -> str:
    """An action in words in ``lang``, naming fields and players: "build a house on Fremont Street".

    The words are the row its registry entry names (:func:`~laspoly.engine.registry.action_words`), in
    this preset's own terms where its rulebook has them; the dashboard describes actions through here too.
    A field or player that does not exist is named by its number, as a refusal of it is.
    """
    values: dict[str, Any] = {}
    for f in fields(action):
        v = getattr(action, f.name)
        if f.name == "field":
            v = field_name(s, v, lang) if isinstance(v, int) and 0 <= v < len(s.fields) \
                else words.text("name.unknown_field", lang, value=repr(v))
        elif f.name == "to":
            v = pname(s, v)
        values[f.name] = v
    return action_words(action, values, lang, s.preset.id)


def pname(s: GameState, index: Any) -> str:
    if isinstance(index, int) and 0 <= index < len(s.players):
        return s.players[index].name
    return words.text("name.unknown_player", "en", number=E.player_number(index))
