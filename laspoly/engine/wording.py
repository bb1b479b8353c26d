"""The engine's words: names of players, the bank and the pot, fields, cards, money, events and actions."""

from __future__ import annotations

from dataclasses import fields
from typing import Any

from laspoly.engine import actions as A
from laspoly.engine import events as E
from laspoly.engine import words
from laspoly.engine.base import GameBase
from laspoly.engine.events import BANK, POT
from laspoly.engine.native import mypyc_attr
from laspoly.engine.reasons import word
from laspoly.engine.registry import action_words


@mypyc_attr(allow_interpreted_subclasses=True)  # a layer of Game, which Python classes subclass
class Wording(GameBase):
    """How a game names things, in English or Spanish (the :class:`~laspoly.engine.events.Namer` of its events)."""

    def party_name(self, who: int, lang: str = "en") -> str:
        """A player's name, or the bank or the pot in ``lang``."""
        if who == BANK:
            return words.text("name.bank", lang)
        if who == POT:
            return words.text("name.casino_pot" if self.rules.pot_payout == "casino_doubles" else "name.pot", lang)
        return self.players[who].name

    def field_name(self, index: int, lang: str = "en") -> str:
        """A field's name in ``lang``."""
        return self.fields[index].label(lang) if index >= 0 else "-"

    def card_text(self, deck: str, card: int, lang: str = "en") -> str:
        """A card's text in ``lang``."""
        return self.board.decks[deck][card].label(lang)

    def money(self, amount: int) -> str:
        """An amount with the board's currency: ``150 LPD``, ``$150``, ``150€``."""
        c = self.board.currency
        if c == "$":
            return f"${amount}"
        return f"{amount}{c}" if c == "€" else f"{amount} {c}"

    def describe(self, event: E.Event, lang: str = "en") -> str:
        """One event as a sentence."""
        return event.text(self, lang)

    def explain(self, reason: str, lang: str = "en") -> str:
        """A reason from :meth:`why_illegal` in ``lang``, in this preset's own words where its rulebook has them."""
        return word(reason, self, lang, self.preset.id)

    def describe_action(self, action: A.Action, lang: str = "en") -> str:
        """An action in words in ``lang``, naming fields and players: "build a house on Fremont Street".

        The words are the row its registry entry names (:func:`~laspoly.engine.registry.action_words`), in
        this preset's own terms where its rulebook has them; the dashboard describes actions through here too.
        A field or player that does not exist is named by its number, as a refusal of it is.
        """
        values: dict[str, Any] = {}
        for f in fields(action):
            v = getattr(action, f.name)
            if f.name == "field":
                v = self.field_name(v, lang) if isinstance(v, int) and 0 <= v < len(self.fields) \
                    else words.text("name.unknown_field", lang, value=repr(v))
            elif f.name == "to":
                v = self._pname(v)
            values[f.name] = v
        return action_words(action, values, lang, self.preset.id)

    def _pname(self, index: Any) -> str:
        if isinstance(index, int) and 0 <= index < len(self.players):
            return self.players[index].name
        return words.text("name.unknown_player", "en", number=E.player_number(index))
