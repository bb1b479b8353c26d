"""Actions: every decision a player can make, as small immutable values.

A person's click, a bot's choice and a replayed save all arrive as one of
these, and :meth:`laspoly.engine.game.Game.apply` checks it against the rules
before anything changes.  Actions serialise to plain dicts for save files.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import MISSING, dataclass, fields
from typing import Any, Final, TypeVar

from laspoly.engine.state import MAX_PLAYERS
from laspoly.errors import SaveFileError


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


# Listed, not found by ``Action.__subclasses__()``: compiled, that list can also hold the throw-away copies a
# slotted dataclass decorator makes of each class until the garbage collector takes them.
ACTION_TYPES: dict[str, type[Action]] = {cls.__name__: cls for cls in (
    Roll, EndTurn, Buy, DeclineBuy, Travel, StayPut, Build, SellBuilding, SellProperty, Mortgage, Repay, PayFine,
    UseJailCard, ProposeTrade, AcceptTrade, DeclineTrade, PlaceBid, PassAuction, ClaimRent,
)}

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

#: Each seat's actions on each field, made the first time :func:`on_field` is asked for them and then shared.
_ON_FIELD: Final[dict[int, tuple[Action, ...]]] = {}


def on_field(player: int, index: int) -> tuple[Action, ...]:
    """What ``player`` may try on field ``index`` on their turn: build each kind, sell, mortgage, repay.

    ``legal_actions`` checks these for every field a player owns; being immutable, they are made once
    per seat and field.  A seat that cannot exist gets new values (its actions are refused anyway).
    """
    key = index * MAX_PLAYERS + player if 0 <= player < MAX_PLAYERS and index >= 0 else -1
    acts = _ON_FIELD.get(key)
    if acts is None:
        acts = (Build(player, index, "house"), Build(player, index, "hotel"), Build(player, index, "factory"),
                SellBuilding(player, index), SellProperty(player, index), Mortgage(player, index), Repay(player, index))
        if key >= 0:
            _ON_FIELD[key] = acts
    return acts


ActionT = TypeVar("ActionT", bound=Action)
OwnerT = TypeVar("OwnerT")
ResultT = TypeVar("ResultT")


def per_action(kind: type[ActionT], method: Callable[[OwnerT, ActionT], ResultT]) -> tuple[type[Action], Callable[[OwnerT, Any], ResultT]]:
    """One row of a table of methods keyed by action type: the type checker holds that ``method`` takes a ``kind``.

    The engine's tables (legality checks, handlers) look a method up by ``type(action)``, so the
    method is only ever called with that type of action.
    """
    return kind, method


def action_from_dict(data: Any) -> Action:
    """Rebuild an action from :meth:`Action.as_dict` output, checking every field's type."""
    if not isinstance(data, dict) or not isinstance(data.get("type"), str) or data["type"] not in ACTION_TYPES:
        raise SaveFileError(f"not an action: {str(data)[:120]}")
    cls = ACTION_TYPES[data["type"]]
    kwargs: dict[str, Any] = {}
    for f in fields(cls):
        if f.name not in data:
            if f.name == "player" or (f.default is MISSING and f.default_factory is MISSING):
                raise SaveFileError(f"{cls.__name__} needs {f.name!r}")
            continue
        value = data[f.name]
        # every value gets its field's type here: a compiled action refuses any other with a bare TypeError
        if f.name in ("give", "take"):  # a trade's lists of fields
            if not isinstance(value, list) or len(value) > 80 or not all(_is_int(v) for v in value):
                raise SaveFileError(f"{cls.__name__}.{f.name} must be a short list of whole numbers")
            value = tuple(value)
        elif f.name == "building":
            if value not in ("house", "hotel", "factory"):
                raise SaveFileError(f"Build.building must be house, hotel or factory, not {str(value)[:40]!r}")
        elif not _is_int(value):
            raise SaveFileError(f"{cls.__name__}.{f.name} must be a whole number, not {str(value)[:40]!r}")
        kwargs[f.name] = value
    extra = set(data) - {f.name for f in fields(cls)} - {"type"}
    if extra:
        raise SaveFileError(f"{cls.__name__} has unknown field(s) {sorted(extra)}")
    return cls(**kwargs)


def _is_int(value: Any) -> bool:
    return isinstance(value, int) and not isinstance(value, bool) and -10**9 <= value <= 10**9
