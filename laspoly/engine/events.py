"""Typed events: every change of a game's state, with a sentence in English or Spanish.

Events hold indices (players, fields) and integers only, so they are cheap to
create during fast simulation.  :meth:`Event.text` turns one into a sentence
using a :class:`Namer` that knows the players' and fields' names.  The
sentences are the catalogues' ``event.<Type>`` messages (:mod:`laspoly.engine.words`);
a payment's or a prison's reason is its ``reason.<key>`` message and a building
its ``building.<kind>`` message.

``who`` and ``to`` hold a player index, or :data:`BANK` or :data:`POT`.
"""

from __future__ import annotations

from dataclasses import dataclass, fields
from typing import Any, Protocol

from laspoly.engine import words

BANK = -1
POT = -2


class Namer(Protocol):
    """What a game offers to put names into event sentences."""

    def party_name(self, who: int, lang: str) -> str: ...
    def field_name(self, index: int, lang: str) -> str: ...
    def card_text(self, deck: str, card: int, lang: str) -> str: ...
    def money(self, amount: int) -> str: ...


@dataclass(slots=True)
class Event:
    """Base class: a change of state with a plain sentence.

    The events a game makes on most turns write their ``__init__`` out (``init=False``).  In the compiled
    build a dataclass's generated ``__init__`` runs as interpreted Python, looked up by name on every event,
    several times the cost of a written one; in the pure-Python build the two cost the same.
    """

    def text(self, namer: Namer, lang: str = "en") -> str:
        """The event as a sentence in ``lang`` (English when no translation exists)."""
        return _contract(words.text(f"event.{type(self).__name__}", lang, **self._values(namer, lang)), lang)

    def _values(self, namer: Namer, lang: str) -> dict[str, Any]:
        out: dict[str, Any] = {}
        for f in fields(self):
            value = getattr(self, f.name)
            if f.name in ("who", "to", "winner", "owner", "bidder"):
                out[f.name] = namer.party_name(value, lang)
            elif f.name in ("field", "src", "dst"):
                out[f.name] = namer.field_name(value, lang)
            elif f.name in ("amount", "price", "fare"):
                out[f.name] = namer.money(value)
            else:
                out[f.name] = value
        if "card" in out and "deck" in out:
            out["card"] = namer.card_text(out["deck"], out["card"], lang)
        if "reason" in out:
            out["reason"] = _word("reason", out["reason"], lang)
        if "building" in out:
            out["building"] = _word("building", out["building"], lang)
        return out

    def as_dict(self) -> dict[str, Any]:
        """A JSON-ready dict: the event's type and its fields."""
        d: dict[str, Any] = {"type": type(self).__name__}
        for f in fields(self):
            d[f.name] = getattr(self, f.name)
        return d


def _word(kind: str, value: Any, lang: str) -> Any:
    """A reason or a building in ``lang`` (its ``kind.value`` message), or the value as it is when it has none."""
    key = f"{kind}.{value}"
    return words.text(key, lang) if words.has(key) else value


def default_names(count: int, lang: str = "en") -> list[str]:
    """Names for ``count`` players nobody named, in ``lang``: "Player 1", ... or "Jugador 1", ..."""
    return [words.text("name.player", lang, n=i + 1) for i in range(count)]


def player_number(index: Any) -> str:
    """A player index as people count players, from 1 (``0`` is "1"); anything else as typed."""
    return str(index + 1) if isinstance(index, int) and not isinstance(index, bool) else repr(index)


def _contract(text: str, lang: str) -> str:
    """Spanish contracts "a el" and "de el"; a sentence that starts with the bank or the pot gets a capital."""
    if lang == "es":
        text = text.replace(" a el ", " al ").replace(" de el ", " del ")
    if text.startswith(("the ", "el ", "la ")):  # never a player's name: those are shown as typed
        text = text[:1].upper() + text[1:]
    return text


@dataclass(slots=True, init=False)
class GameStarted(Event):
    who: int

    def __init__(self, who: int) -> None:
        self.who = who


@dataclass(slots=True, init=False)
class TurnStarted(Event):
    who: int
    round: int

    def __init__(self, who: int, round: int) -> None:
        self.who = who
        self.round = round


@dataclass(slots=True, init=False)
class Rolled(Event):
    who: int
    d1: int
    d2: int

    def __init__(self, who: int, d1: int, d2: int) -> None:
        self.who = who
        self.d1 = d1
        self.d2 = d2


@dataclass(slots=True, init=False)
class Moved(Event):
    who: int
    src: int
    dst: int

    def __init__(self, who: int, src: int, dst: int) -> None:
        self.who = who
        self.src = src
        self.dst = dst


@dataclass(slots=True, init=False)
class Paid(Event):
    """Money moved between a player, another player, the bank or the pot."""

    who: int
    to: int
    amount: int
    reason: str
    field: int = -1

    def __init__(self, who: int, to: int, amount: int, reason: str, field: int = -1) -> None:
        self.who = who
        self.to = to
        self.amount = amount
        self.reason = reason
        self.field = field

    def text(self, namer: Namer, lang: str = "en") -> str:
        """Rent names its field: "Ana paid 150 LPD rent to Ben for Fremont Street"."""
        if self.reason == "rent" and self.field >= 0:
            return _contract(words.text("event.Paid.rent", lang, **self._values(namer, lang)), lang)
        return Event.text(self, namer, lang)


@dataclass(slots=True, init=False)
class Bought(Event):
    who: int
    field: int
    price: int

    def __init__(self, who: int, field: int, price: int) -> None:
        self.who = who
        self.field = field
        self.price = price


@dataclass(slots=True, init=False)
class Declined(Event):
    who: int
    field: int

    def __init__(self, who: int, field: int) -> None:
        self.who = who
        self.field = field


@dataclass(slots=True, init=False)
class Built(Event):
    who: int
    field: int
    building: str
    price: int

    def __init__(self, who: int, field: int, building: str, price: int) -> None:
        self.who = who
        self.field = field
        self.building = building
        self.price = price


@dataclass(slots=True, init=False)
class SoldBuilding(Event):
    who: int
    field: int
    building: str
    price: int

    def __init__(self, who: int, field: int, building: str, price: int) -> None:
        self.who = who
        self.field = field
        self.building = building
        self.price = price


@dataclass(slots=True)
class SoldProperty(Event):
    who: int
    field: int
    price: int


@dataclass(slots=True, init=False)
class Mortgaged(Event):
    who: int
    field: int
    amount: int

    def __init__(self, who: int, field: int, amount: int) -> None:
        self.who = who
        self.field = field
        self.amount = amount


@dataclass(slots=True, init=False)
class Repaid(Event):
    who: int
    field: int
    amount: int

    def __init__(self, who: int, field: int, amount: int) -> None:
        self.who = who
        self.field = field
        self.amount = amount


@dataclass(slots=True, init=False)
class CardDrawn(Event):
    who: int
    deck: str
    card: int

    def __init__(self, who: int, deck: str, card: int) -> None:
        self.who = who
        self.deck = deck
        self.card = card


@dataclass(slots=True, init=False)
class SentToPrison(Event):
    who: int
    reason: str

    def __init__(self, who: int, reason: str) -> None:
        self.who = who
        self.reason = reason


@dataclass(slots=True, init=False)
class LeftPrison(Event):
    who: int
    reason: str

    def __init__(self, who: int, reason: str) -> None:
        self.who = who
        self.reason = reason


@dataclass(slots=True, init=False)
class StayedInPrison(Event):
    who: int

    def __init__(self, who: int) -> None:
        self.who = who


@dataclass(slots=True)
class Travelled(Event):
    who: int
    src: int
    dst: int
    fare: int


@dataclass(slots=True, init=False)
class DebtStarted(Event):
    who: int
    amount: int

    def __init__(self, who: int, amount: int) -> None:
        self.who = who
        self.amount = amount


@dataclass(slots=True)
class Eliminated(Event):
    who: int
    to: int
    amount: int


@dataclass(slots=True, init=False)
class TradeProposed(Event):
    who: int
    to: int
    offer: int

    def __init__(self, who: int, to: int, offer: int) -> None:
        self.who = who
        self.to = to
        self.offer = offer


@dataclass(slots=True, init=False)
class TradeAccepted(Event):
    who: int
    to: int
    offer: int

    def __init__(self, who: int, to: int, offer: int) -> None:
        self.who = who
        self.to = to
        self.offer = offer


@dataclass(slots=True, init=False)
class TradeDeclined(Event):
    who: int
    to: int
    offer: int

    def __init__(self, who: int, to: int, offer: int) -> None:
        self.who = who
        self.to = to
        self.offer = offer


@dataclass(slots=True)
class TradeLapsed(Event):
    offer: int


@dataclass(slots=True, init=False)
class AuctionStarted(Event):
    field: int

    def __init__(self, field: int) -> None:
        self.field = field


@dataclass(slots=True, init=False)
class Bid(Event):
    who: int
    amount: int

    def __init__(self, who: int, amount: int) -> None:
        self.who = who
        self.amount = amount


@dataclass(slots=True, init=False)
class AuctionPassed(Event):
    who: int

    def __init__(self, who: int) -> None:
        self.who = who


@dataclass(slots=True, init=False)
class AuctionEnded(Event):
    who: int
    field: int
    price: int

    def __init__(self, who: int, field: int, price: int) -> None:
        self.who = who
        self.field = field
        self.price = price


@dataclass(slots=True)
class RentDue(Event):
    who: int
    owner: int
    field: int
    amount: int


@dataclass(slots=True)
class RentLapsed(Event):
    owner: int
    field: int


@dataclass(slots=True)
class LostTurn(Event):
    who: int


@dataclass(slots=True)
class GotJailCard(Event):
    who: int


@dataclass(slots=True)
class GameOver(Event):
    winner: int
    reason: str


# Listed, not found by ``Event.__subclasses__()``: compiled, that list can also hold the throw-away copies a
# slotted dataclass decorator makes of each class until the garbage collector takes them.
EVENT_TYPES: dict[str, type[Event]] = {cls.__name__: cls for cls in (
    GameStarted, TurnStarted, Rolled, Moved, Paid, Bought, Declined, Built, SoldBuilding, SoldProperty,
    Mortgaged, Repaid, CardDrawn, SentToPrison, LeftPrison, StayedInPrison, Travelled, DebtStarted, Eliminated,
    TradeProposed, TradeAccepted, TradeDeclined, TradeLapsed, AuctionStarted, Bid, AuctionPassed, AuctionEnded,
    RentDue, RentLapsed, LostTurn, GotJailCard, GameOver
)}
