"""The engine's words: names of players, the bank and the pot, fields, cards, money, events and actions."""

from __future__ import annotations

from typing import Any

from laspoly.engine import actions as A
from laspoly.engine import events as E
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
            return "the bank" if lang == "en" else "la banca"
        if who == POT:
            pot = "the casino pot" if self.rules.pot_payout == "casino_doubles" else "the pot"
            return pot if lang == "en" else ("el bote del casino" if self.rules.pot_payout == "casino_doubles" else "el BOTE")
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
        """An action in words, naming fields: "build a house on Fremont Street"."""
        name = type(action).__name__
        fld = getattr(action, "field", None)
        words = {
            "Roll": "roll", "EndTurn": "end the turn", "Buy": "buy", "DeclineBuy": "decline to buy",
            "StayPut": "stay", "PayFine": "pay the prison fine", "UseJailCard": "use a Get-Out-of-Prison card",
            "PassAuction": "leave the auction",
        }
        if name in words:
            return words[name]
        if isinstance(action, A.Build):
            return f"build a {action.building} on {self._fname(fld)}"
        if isinstance(action, A.Travel):
            return f"take the train to {self._fname(fld)}"
        if isinstance(action, A.ProposeTrade):
            return f"offer a trade to {self._pname(action.to)}"
        if isinstance(action, A.PlaceBid):
            return f"bid {action.amount}"
        if isinstance(action, A.AcceptTrade | A.DeclineTrade):
            return f"{'accept' if isinstance(action, A.AcceptTrade) else 'decline'} trade #{action.offer}"
        verb = {"SellBuilding": "sell a building on", "SellProperty": "sell", "Mortgage": "mortgage",
                "Repay": "repay the mortgage on", "ClaimRent": "claim the rent for"}[name]
        return f"{verb} {self._fname(fld)}"

    def _fname(self, index: Any) -> str:
        return self.fields[index].label() if isinstance(index, int) and 0 <= index < len(self.fields) else f"field {index!r}"

    def _pname(self, index: Any) -> str:
        return self.players[index].name if isinstance(index, int) and 0 <= index < len(self.players) else f"player {E.player_number(index)}"
