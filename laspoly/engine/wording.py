"""The engine's words: names of players, the bank and the pot, fields, cards, money, events and actions."""

from __future__ import annotations

from typing import Any

from laspoly.engine import actions as A
from laspoly.engine import events as E
from laspoly.engine import words
from laspoly.engine.base import GameBase
from laspoly.engine.events import BANK, POT
from laspoly.engine.native import mypyc_attr
from laspoly.engine.reasons import word


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

    def describe_action(self, action: A.Action) -> str:
        """An action in words (the catalogues' ``action.*`` messages in English), naming fields: "build a house on Fremont Street"."""
        name = type(action).__name__
        values: dict[str, Any] = {}
        fld = getattr(action, "field", None)
        if fld is not None:
            values["field"] = self._fname(fld)
        if isinstance(action, A.Build):
            values["building"] = action.building
            name = f"Build.{action.building}" if words.has(f"action.Build.{action.building}") else "Build"
        elif isinstance(action, A.ProposeTrade):
            values["name"] = self._pname(action.to)
        elif isinstance(action, A.PlaceBid):
            values["amount"] = action.amount
        elif isinstance(action, A.AcceptTrade | A.DeclineTrade):
            values["offer"] = action.offer
        return words.text(f"action.{name}", "en", **values)

    def _fname(self, index: Any) -> str:
        if isinstance(index, int) and 0 <= index < len(self.fields):
            return self.fields[index].label()
        return words.text("name.unknown_field", "en", value=repr(index))

    def _pname(self, index: Any) -> str:
        if isinstance(index, int) and 0 <= index < len(self.players):
            return self.players[index].name
        return words.text("name.unknown_player", "en", number=E.player_number(index))
