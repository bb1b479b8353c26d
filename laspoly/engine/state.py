"""The state types of a game: phases, players, trade offers, debts and auctions, and the setup limits.

Plain data with no rules in it; :mod:`laspoly.engine.game` plays the rules on them.
"""

from __future__ import annotations

import dataclasses
import unicodedata
from dataclasses import dataclass
from enum import StrEnum
from typing import Any, Final, Literal

from laspoly.engine.native import mypyc_attr
from laspoly.engine.words import worded_error
from laspoly.errors import SetupError


class Phase(StrEnum):
    """What the game waits for: a turn's decisions, a purchase, a train journey, bids, a debt, or nothing."""

    TURN = "turn"
    BUYING = "buy"
    TRAVEL = "travel"
    AUCTION = "auction"
    DEBT = "debt"
    OVER = "over"


# Final: the compiled build reads each from a C static, not from the module's dict, in every decision
TURN: Final[Phase] = Phase.TURN
BUYING: Final[Phase] = Phase.BUYING
TRAVEL: Final[Phase] = Phase.TRAVEL
AUCTION: Final[Phase] = Phase.AUCTION
DEBT: Final[Phase] = Phase.DEBT
OVER: Final[Phase] = Phase.OVER
#: How a payment the rules imposed carries on once it is paid: a debt (L19) keeps one of these tags.
Continuation = Literal["after_landing", "end_move", "prison_move", "collect_next", "resume"]
#: What follows an auction (C2, C8): the landing's aftermath, the next turn, or the suspended phase.
AfterAuction = Literal["after_landing", "next_turn", "resume"]
MANAGING = (TURN, BUYING, TRAVEL)  # phases in which the current player may build, sell, mortgage
MAX_NAME = 40
HOUSES, HOTELS = 32, 12  # the bank's supply with the building_shortage option
MIN_PLAYERS, MAX_PLAYERS = 2, 8


def check_player_count(count: Any) -> int:
    """The one player limit of every preset, the command line and the dashboard: 2 to 8 players."""
    if isinstance(count, bool) or not isinstance(count, int) or not MIN_PLAYERS <= count <= MAX_PLAYERS:
        raise worded_error(SetupError, "error.player_count", low=MIN_PLAYERS, high=MAX_PLAYERS, value=repr(count)[:40])
    return count


#: The zero-width joiner, which joins emoji into one picture (👩🏽‍🏫 is a woman, a skin tone and a school).
ZWJ = "\u200d"


def _joins_emoji(before: str, after: str) -> bool:
    """True if a joiner between these two characters is inside an emoji sequence.

    Before it: a pictograph (a symbol), a skin tone or the emoji presentation
    selector; after it: a pictograph.  Between letters (``"A\u200dna"``) a joiner
    only makes a name look like another.
    """
    return ((unicodedata.category(before) == "So" or "\U0001F3FB" <= before <= "\U0001F3FF" or before == "\ufe0f")
            and unicodedata.category(after) == "So")


def clean_name(name: Any) -> str:
    """Check a player's name: 1-40 printable characters.  Markup is kept as text; views escape it.

    Python's ``isprintable`` refuses every invisible format character, among them
    the direction overrides that could make a name read backwards.  The one
    allowed is the zero-width joiner, and only inside an emoji sequence, which needs it.
    """
    if not isinstance(name, str):
        raise worded_error(SetupError, "error.name_type", kind=type(name).__name__)
    text = " ".join(name.split())
    if not text:
        raise worded_error(SetupError, "error.name_empty")
    if len(text) > MAX_NAME:
        raise worded_error(SetupError, "error.name_long", max=MAX_NAME, start=repr(text[:MAX_NAME]))
    padded = f" {text} "
    stray_joiner = any(padded[k] == ZWJ and not _joins_emoji(padded[k - 1], padded[k + 1]) for k in range(1, len(padded) - 1))
    visible = text.replace(ZWJ, "")
    if not visible or not visible.isprintable() or stray_joiner:
        raise worded_error(SetupError, "error.name_unprintable", name=repr(text))
    return text


def name_key(name: str) -> str:
    """The form in which two names are compared: invisible characters dropped, then compatibility forms and case folded.

    So "Ana", "ANA", "Ａｎａ" and "A\u200dna" are one name, and two players can never look alike that way.
    """
    visible = "".join(ch for ch in name if unicodedata.category(ch) != "Cf" and not "\ufe00" <= ch <= "\ufe0f")
    return unicodedata.normalize("NFKC", visible).casefold()


#: A player's attributes, in the order of :meth:`Player.snapshot` (and of a saved position's player).
PLAYER_FIELDS = (
    "active",
    "cash",
    "has_passed_start",
    "in_prison",
    "index",
    "jail_cards",
    "lose_turn",
    "name",
    "pos",
    "prison_turns",
)


@mypyc_attr(allow_interpreted_subclasses=True)  # compiled, this is what lets copy.deepcopy copy it (figures.branch)
class Player:
    """One seat: cash, position and prison status.  Ownership lives on the game."""

    __slots__ = PLAYER_FIELDS

    def __init__(self, index: int, name: str, cash: int) -> None:
        self.index = index
        self.name = name
        self.cash = cash
        self.pos = 0
        self.active = True
        self.in_prison = False
        self.prison_turns = 0
        self.jail_cards: list[tuple[str, int]] = []
        self.lose_turn = False
        self.has_passed_start = False

    def snapshot(self) -> dict[str, Any]:
        """Every attribute as plain data."""
        return {k: getattr(self, k) if k != "jail_cards" else [list(c) for c in self.jail_cards] for k in PLAYER_FIELDS}


@mypyc_attr(allow_interpreted_subclasses=True)  # compiled, this is what lets copy.deepcopy copy it (figures.branch)
@dataclass(slots=True, init=False)
class TradeOffer:
    """A pending offer (L16): ``cash`` > 0 is paid by the proposer, < 0 by the receiver.

    Its ``__init__`` (and the debt's and the auction's) is written out: the compiled build runs a dataclass's
    generated one as interpreted Python, and every proposed offer is checked by making one.
    """

    id: int
    proposer: int
    receiver: int
    give: tuple[int, ...]
    take: tuple[int, ...]
    cash: int
    give_cards: int = 0
    take_cards: int = 0

    def __init__(self, id: int, proposer: int, receiver: int, give: tuple[int, ...], take: tuple[int, ...], cash: int,
                 give_cards: int = 0, take_cards: int = 0) -> None:
        self.id = id
        self.proposer = proposer
        self.receiver = receiver
        self.give = give
        self.take = take
        self.cash = cash
        self.give_cards = give_cards
        self.take_cards = take_cards


@mypyc_attr(allow_interpreted_subclasses=True)  # compiled, this is what lets copy.deepcopy copy it (figures.branch)
@dataclass(slots=True, init=False)
class Debt:
    """A payment that cash could not cover: the debtor must raise money (L19)."""

    payer: int
    payments: list[tuple[int, int]]
    reason: str
    field: int
    then: Continuation
    resume: tuple[Phase, int] = (TURN, -1)

    def __init__(self, payer: int, payments: list[tuple[int, int]], reason: str, field: int, then: Continuation,
                 resume: tuple[Phase, int] = (TURN, -1)) -> None:
        self.payer = payer
        self.payments = payments
        self.reason = reason
        self.field = field
        self.then = then
        self.resume = resume

    @property
    def total(self) -> int:
        return sum(amount for _, amount in self.payments)


@mypyc_attr(allow_interpreted_subclasses=True)  # compiled, this is what lets copy.deepcopy copy it (figures.branch)
@dataclass(slots=True, init=False)
class Auction:
    """An open ascending auction (C2): bidders take turns to bid or leave."""

    field: int
    bidders: list[int]
    turn: int = 0
    high: int = 0
    high_bidder: int = -1
    then: AfterAuction = "after_landing"
    # ``dataclasses.field`` in full: inside this class ``field`` names the auctioned field
    queue: list[int] = dataclasses.field(default_factory=list)

    def __init__(self, field: int, bidders: list[int], turn: int = 0, high: int = 0, high_bidder: int = -1,
                 then: AfterAuction = "after_landing", queue: list[int] | None = None) -> None:
        self.field = field
        self.bidders = bidders
        self.turn = turn
        self.high = high
        self.high_bidder = high_bidder
        self.then = then
        self.queue = [] if queue is None else queue

