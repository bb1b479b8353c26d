"""Typed events: every change of a game's state, with a sentence in English or Spanish.

Events hold indices (players, fields) and integers only, so they are cheap to
create during fast simulation.  :meth:`Event.text` turns one into a sentence
using a :class:`Namer` that knows the players' and fields' names.

``who`` and ``to`` hold a player index, or :data:`BANK` or :data:`POT`.
"""

from __future__ import annotations

from dataclasses import dataclass, fields
from typing import Any, Protocol

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
        templates = TEMPLATES[type(self).__name__]
        template = templates.get(lang) or templates["en"]
        return _contract(template.format(**self._values(namer, lang)), lang)

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
            out["reason"] = REASONS.get(lang, REASONS["en"]).get(out["reason"], out["reason"])
        if "building" in out:
            out["building"] = BUILDINGS.get(lang, {}).get(out["building"], out["building"])
        return out

    def as_dict(self) -> dict[str, Any]:
        """A JSON-ready dict: the event's type and its fields."""
        d: dict[str, Any] = {"type": type(self).__name__}
        for f in fields(self):
            d[f.name] = getattr(self, f.name)
        return d


REASONS = {
    "en": {
        "rent": "rent", "tax": "tax", "salary": "passing Start", "landing_salary": "landing on Start",
        "fare": "a train fare", "fine": "the prison fine", "card": "a card", "casino": "the casino",
        "factory_income": "factory income", "trade": "a trade", "bankruptcy": "bankruptcy",
        "repairs": "repairs", "third_doubles": "a third doubles", "field": "the Go-Into-Prison field",
        "forced_fine": "three turns without leaving prison", "doubles": "doubles", "total_3": "a total of 3",
        "any_die_3": "a die showing 3", "jail_card": "a Get-Out-of-Prison card", "last_player": "last player left",
        "net_worth": "highest net worth at the cap", "mortgage": "a mortgage",
    },
    "es": {
        "rent": "alquiler", "tax": "impuesto", "salary": "pasar por la salida", "landing_salary": "caer en la salida",
        "fare": "un billete de tren", "fine": "la multa de prisión", "card": "una carta", "casino": "el casino",
        "factory_income": "ingresos de la fábrica", "trade": "un intercambio", "bankruptcy": "bancarrota",
        "repairs": "reparaciones", "third_doubles": "tres dobles seguidos", "field": "la casilla Ve a prisión",
        "forced_fine": "tres turnos sin salir de prisión", "doubles": "dobles", "total_3": "un total de 3",
        "any_die_3": "un dado con 3", "jail_card": "una carta de salir de prisión", "last_player": "último jugador en pie",
        "net_worth": "mayor patrimonio al límite", "mortgage": "una hipoteca",
    },
}


#: What a player nobody named is called: "Player 1" in English, "Jugador 1" in Spanish.
PLAYER_WORD = {"en": "Player", "es": "Jugador"}

#: The closing lines of a game told in full (``laspoly play`` and ``replay``).
RESULT_LINES = {
    "en": {
        "not_over": "The game is not over (round {round}).",
        "net_worth": "Winner: {winner}, richest by net worth at the round cap (L20): {ranking}",
        "last_player": "Winner: {winner}, the last player left, after {round} rounds.",
        "saved": "Saved to {path}",
    },
    "es": {
        "not_over": "La partida no ha terminado (ronda {round}).",
        "net_worth": "Gana {winner}, con el mayor patrimonio al llegar al límite de rondas (L20): {ranking}",
        "last_player": "Gana {winner}, el último jugador en pie, tras {round} rondas.",
        "saved": "Partida guardada en {path}",
    },
}


def default_names(count: int, lang: str = "en") -> list[str]:
    """Names for ``count`` players nobody named, in ``lang``: "Player 1", ... or "Jugador 1", ..."""
    word = PLAYER_WORD.get(lang, PLAYER_WORD["en"])
    return [f"{word} {i + 1}" for i in range(count)]


def player_number(index: Any) -> str:
    """A player index as people count players, from 1 (``0`` is "1"); anything else as typed."""
    return str(index + 1) if isinstance(index, int) and not isinstance(index, bool) else repr(index)


#: Buildings in Spanish, with their article ("construyó una casa"); English templates say "a {building}" themselves.
BUILDINGS = {"es": {"house": "una casa", "hotel": "un hotel", "factory": "una fábrica"}}


def _contract(text: str, lang: str) -> str:
    """Spanish contracts "a el" and "de el"; a sentence that starts with the bank or the pot gets a capital."""
    if lang == "es":
        text = text.replace(" a el ", " al ").replace(" de el ", " del ")
    if text.startswith(("the ", "el ", "la ")):  # never a player's name: those are shown as typed
        text = text[:1].upper() + text[1:]
    return text


def _t(en: str, es: str) -> dict[str, str]:
    return {"en": en, "es": es}


@dataclass(slots=True)
class GameStarted(Event):
    who: int


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
            v = self._values(namer, lang)
            return _contract(_t("{who} paid {amount} rent to {to} for {field}.", "{who} pagó {amount} de alquiler a {to} por {field}.")
                             .get(lang, "{who} paid {amount} rent to {to} for {field}.").format(**v), lang)
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


@dataclass(slots=True)
class Repaid(Event):
    who: int
    field: int
    amount: int


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


@dataclass(slots=True)
class DebtStarted(Event):
    who: int
    amount: int


@dataclass(slots=True)
class Eliminated(Event):
    who: int
    to: int
    amount: int


@dataclass(slots=True)
class TradeProposed(Event):
    who: int
    to: int
    offer: int


@dataclass(slots=True)
class TradeAccepted(Event):
    who: int
    to: int
    offer: int


@dataclass(slots=True)
class TradeDeclined(Event):
    who: int
    to: int
    offer: int


@dataclass(slots=True)
class TradeLapsed(Event):
    offer: int


@dataclass(slots=True)
class AuctionStarted(Event):
    field: int


@dataclass(slots=True)
class Bid(Event):
    who: int
    amount: int


@dataclass(slots=True)
class AuctionPassed(Event):
    who: int


@dataclass(slots=True)
class AuctionEnded(Event):
    who: int
    field: int
    price: int


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


#: Each event's sentence in English and Spanish, by the event's type.  Kept beside the classes, not on them, so
#: that the event classes compile (mypyc's dataclasses take no class-level dicts).
TEMPLATES: dict[str, dict[str, str]] = {
    "GameStarted": _t("The game begins; {who} plays first.", "Empieza la partida; juega primero {who}."),
    "TurnStarted": _t("Round {round}: {who}'s turn.", "Ronda {round}: turno de {who}."),
    "Rolled": _t("{who} rolled {d1} and {d2}.", "{who} sacó {d1} y {d2}."),
    "Moved": _t("{who} moved from {src} to {dst}.", "{who} avanzó de {src} a {dst}."),
    "Paid": _t("{who} paid {amount} to {to} for {reason}.", "{who} pagó {amount} a {to} por {reason}."),
    "Bought": _t("{who} bought {field} for {price}.", "{who} compró {field} por {price}."),
    "Declined": _t("{who} did not buy {field}.", "{who} no compró {field}."),
    "Built": _t("{who} built a {building} on {field} for {price}.", "{who} construyó {building} en {field} por {price}."),
    "SoldBuilding": _t("{who} sold a {building} on {field} to the bank for {price}.", "{who} vendió {building} en {field} a la banca por {price}."),
    "SoldProperty": _t("{who} sold {field} to the bank for {price}.", "{who} vendió {field} a la banca por {price}."),
    "Mortgaged": _t("{who} mortgaged {field} for {amount}.", "{who} hipotecó {field} por {amount}."),
    "Repaid": _t("{who} repaid the mortgage on {field} for {amount}.", "{who} levantó la hipoteca de {field} por {amount}."),
    "CardDrawn": _t('{who} drew a card: "{card}"', '{who} cogió una carta: "{card}"'),
    "SentToPrison": _t("{who} went to prison for {reason}.", "{who} fue a prisión por {reason}."),
    "LeftPrison": _t("{who} left prison with {reason}.", "{who} salió de prisión con {reason}."),
    "StayedInPrison": _t("{who} stays in prison.", "{who} sigue en prisión."),
    "Travelled": _t("{who} took the train from {src} to {dst} for {fare}.", "{who} tomó el tren de {src} a {dst} por {fare}."),
    "DebtStarted": _t("{who} owes {amount} and must raise money.", "{who} debe {amount} y tiene que conseguir dinero."),
    "Eliminated": _t("{who} is out of the game; {to} receives {amount}.", "{who} queda eliminado; {to} recibe {amount}."),
    "TradeProposed": _t("{who} offered trade #{offer} to {to}.", "{who} ofreció el intercambio #{offer} a {to}."),
    "TradeAccepted": _t("{who} accepted trade #{offer} from {to}.", "{who} aceptó el intercambio #{offer} de {to}."),
    "TradeDeclined": _t("{who} declined trade #{offer} from {to}.", "{who} rechazó el intercambio #{offer} de {to}."),
    "TradeLapsed": _t("Trade #{offer} lapsed: it no longer matches what the players own.", "El intercambio #{offer} caducó: ya no coincide con lo que tienen los jugadores."),
    "AuctionStarted": _t("{field} goes to auction.", "{field} sale a subasta."),
    "Bid": _t("{who} bid {amount}.", "{who} pujó {amount}."),
    "AuctionPassed": _t("{who} left the auction.", "{who} abandonó la subasta."),
    "AuctionEnded": _t("{who} won {field} at auction for {price}.", "{who} ganó {field} en subasta por {price}."),
    "RentDue": _t("{owner} may claim {amount} rent from {who} for {field}.", "{owner} puede cobrar {amount} de alquiler a {who} por {field}."),
    "RentLapsed": _t("{owner} did not claim the rent for {field} in time.", "{owner} no reclamó a tiempo el alquiler de {field}."),
    "LostTurn": _t("{who} loses this turn.", "{who} pierde este turno."),
    "GotJailCard": _t("{who} keeps a Get-Out-of-Prison card.", "{who} guarda una carta para salir de prisión."),
    "GameOver": _t("{winner} wins ({reason}).", "{winner} gana ({reason})."),
}

# Listed, not found by ``Event.__subclasses__()``: compiled, that list can also hold the throw-away copies a
# slotted dataclass decorator makes of each class until the garbage collector takes them.
EVENT_TYPES: dict[str, type[Event]] = {cls.__name__: cls for cls in (
    GameStarted, TurnStarted, Rolled, Moved, Paid, Bought, Declined, Built, SoldBuilding, SoldProperty,
    Mortgaged, Repaid, CardDrawn, SentToPrison, LeftPrison, StayedInPrison, Travelled, DebtStarted, Eliminated,
    TradeProposed, TradeAccepted, TradeDeclined, TradeLapsed, AuctionStarted, Bid, AuctionPassed, AuctionEnded,
    RentDue, RentLapsed, LostTurn, GotJailCard, GameOver
)}
