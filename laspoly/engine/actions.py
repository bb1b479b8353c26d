"""Actions: every decision a player can make, as small immutable values.

A person's click, a bot's choice and a replayed save all arrive as one of
these, and :meth:`laspoly.engine.game.Game.apply` checks it against the rules
before anything changes.  Actions serialise to plain dicts for save files.

What the engine does with each type (its check, its effect, when it is offered, its words) is
its entry in :mod:`~laspoly.engine.registry`.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, fields
from typing import Any, Final, TypeVar

from laspoly.engine.state import MAX_PLAYERS


@dataclass(frozen=True, slots=True)
class Action:
    """Base class.  ``player`` is the index of the player who decides."""

    player: int

    def as_dict(self) -> dict[str, Any]:
        """A JSON-ready dict: the action's type and its fields."""
        d: dict[str, Any] = {"type": type(self).__name__}
        for f in fields(self):
            value = getattr(self, f.name)
            d[f.name] = list(value) if isinstance(value, tuple) else value
        return d


@dataclass(frozen=True, slots=True)
class Roll(Action):
    """Roll the dice: to move, or in prison to try for the way out."""


@dataclass(frozen=True, slots=True)
class EndTurn(Action):
    """Finish the turn once no roll is due."""


@dataclass(frozen=True, slots=True)
class Buy(Action):
    """Buy the unowned property just landed on, at its price."""


@dataclass(frozen=True, slots=True)
class DeclineBuy(Action):
    """Do not buy; with auctions on, the property goes to auction."""


@dataclass(frozen=True, slots=True)
class Travel(Action):
    """Take the train from the station just landed on to station ``field`` (L10)."""

    field: int


@dataclass(frozen=True, slots=True)
class StayPut(Action):
    """Do not take the train."""


@dataclass(frozen=True, slots=True)
class Build(Action):
    """Build a ``house``, ``hotel`` or ``factory`` on street ``field``."""

    field: int
    building: str = "house"


@dataclass(frozen=True, slots=True)
class SellBuilding(Action):
    """Sell the top building of ``field`` back to the bank: hotel, house or factory."""

    field: int


@dataclass(frozen=True, slots=True)
class SellProperty(Action):
    """Sell an unbuilt, unmortgaged property back to the bank."""

    field: int


@dataclass(frozen=True, slots=True)
class Mortgage(Action):
    """Mortgage a property whose group has no buildings."""

    field: int


@dataclass(frozen=True, slots=True)
class Repay(Action):
    """Lift the mortgage on ``field``."""

    field: int


@dataclass(frozen=True, slots=True)
class PayFine(Action):
    """Pay the prison fine before rolling."""


@dataclass(frozen=True, slots=True)
class UseJailCard(Action):
    """Leave prison with a Get-Out-of-Prison card before rolling."""


@dataclass(frozen=True, slots=True)
class ProposeTrade(Action):
    """Offer ``give`` (own properties) and ``cash`` for ``take`` (their properties).

    ``cash`` is paid by the proposer when positive, by the receiver when
    negative.  ``give_cards``/``take_cards`` count Get-Out-of-Prison cards.
    """

    to: int
    give: tuple[int, ...] = ()
    take: tuple[int, ...] = ()
    cash: int = 0
    give_cards: int = 0
    take_cards: int = 0


@dataclass(frozen=True, slots=True)
class AcceptTrade(Action):
    """Accept the pending trade offer ``offer`` (on one's own turn, L16)."""

    offer: int


@dataclass(frozen=True, slots=True)
class DeclineTrade(Action):
    """Decline the pending trade offer ``offer``."""

    offer: int


@dataclass(frozen=True, slots=True)
class PlaceBid(Action):
    """Bid ``amount`` in the running auction (C2)."""

    amount: int


@dataclass(frozen=True, slots=True)
class PassAuction(Action):
    """Leave the running auction."""


@dataclass(frozen=True, slots=True)
class ClaimRent(Action):
    """Claim the rent owed for landing on ``field`` (C6, S9)."""

    field: int


# The actions that name nothing but their player, one value per seat (``ROLL[2]`` is ``Roll(2)``).  Actions are
# immutable, so bots and the runner hand out these values instead of building a new one for every decision.
# Final: the compiled build reads each from a C static, not from the module's dict.
ROLL: Final[tuple[Roll, ...]] = tuple(Roll(i) for i in range(MAX_PLAYERS))
END_TURN: Final[tuple[EndTurn, ...]] = tuple(EndTurn(i) for i in range(MAX_PLAYERS))
BUY: Final[tuple[Buy, ...]] = tuple(Buy(i) for i in range(MAX_PLAYERS))
DECLINE_BUY: Final[tuple[DeclineBuy, ...]] = tuple(DeclineBuy(i) for i in range(MAX_PLAYERS))
STAY_PUT: Final[tuple[StayPut, ...]] = tuple(StayPut(i) for i in range(MAX_PLAYERS))
PAY_FINE: Final[tuple[PayFine, ...]] = tuple(PayFine(i) for i in range(MAX_PLAYERS))
USE_JAIL_CARD: Final[tuple[UseJailCard, ...]] = tuple(UseJailCard(i) for i in range(MAX_PLAYERS))
PASS_AUCTION: Final[tuple[PassAuction, ...]] = tuple(PassAuction(i) for i in range(MAX_PLAYERS))

# The actions a bot makes on a field (a building, a sale, a mortgage, a repayment) and its bids, shared the same
# way: made once per seat and field (or amount), then handed out again.  The compiled build runs a dataclass's
# generated ``__init__`` as interpreted Python, several times the cost of a look-up; the pure build gains a little.
_BUILDINGS: Final[dict[str, int]] = {"house": 0, "hotel": 1, "factory": 2}
_BUILDS: Final[dict[int, Build]] = {}
_SELL_BUILDINGS: Final[dict[int, SellBuilding]] = {}
_MORTGAGES: Final[dict[int, Mortgage]] = {}
_REPAYS: Final[dict[int, Repay]] = {}
_BIDS: Final[dict[int, PlaceBid]] = {}
#: Bids kept at most (then the table starts again): bids are amounts of money, not a closed set.
_BIDS_KEPT: Final = 4096


_A = TypeVar("_A")


def _seat_field(player: int, field: int) -> int:
    """One whole number per seat and field, or -1 for a seat or field that cannot exist (made anew, refused anyway)."""
    return field * MAX_PLAYERS + player if 0 <= player < MAX_PLAYERS and field >= 0 else -1


def build(player: int, field: int, building: str = "house") -> Build:
    """``Build(player, field, building)``, one shared value per seat, field and building."""
    kind = _BUILDINGS.get(building, -1)
    key = _seat_field(player, field)
    if kind < 0 or key < 0:
        return Build(player, field, building)
    key = key * 4 + kind
    a = _BUILDS.get(key)
    if a is None:
        a = _BUILDS[key] = Build(player, field, building)
    return a


def _shared(kept: dict[int, _A], make: Callable[[int, int], _A], player: int, value: int, most: int = 0) -> _A:
    """``make(player, value)``, kept in ``kept`` under its seat and value (at most ``most`` kept, when given)."""
    key = _seat_field(player, value)
    a = kept.get(key)
    if a is None:
        a = make(player, value)
        if key >= 0:
            if most and len(kept) >= most:
                kept.clear()
            kept[key] = a
    return a


def sell_building(player: int, field: int) -> SellBuilding:
    """``SellBuilding(player, field)``, one shared value per seat and field."""
    return _shared(_SELL_BUILDINGS, SellBuilding, player, field)


def mortgage(player: int, field: int) -> Mortgage:
    """``Mortgage(player, field)``, one shared value per seat and field."""
    return _shared(_MORTGAGES, Mortgage, player, field)


def repay(player: int, field: int) -> Repay:
    """``Repay(player, field)``, one shared value per seat and field."""
    return _shared(_REPAYS, Repay, player, field)


def place_bid(player: int, amount: int) -> PlaceBid:
    """``PlaceBid(player, amount)``, one shared value per seat and amount."""
    return _shared(_BIDS, PlaceBid, player, amount, _BIDS_KEPT)
