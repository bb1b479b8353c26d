"""The state of one game: a single object holding everything that changes as the game is played.

:class:`GameState` is built in one way only, its constructor, which a new game
(:class:`~laspoly.engine.game.Game`) and a position
(:mod:`~laspoly.engine.position_format`) both call; snapshots and digests
(:func:`~laspoly.engine.base.snapshot`) read it, and the rules are modules of
functions over it (:mod:`~laspoly.engine.base`, :mod:`~laspoly.engine.wording`,
:mod:`~laspoly.engine.legality`, :mod:`~laspoly.engine.payments`,
:mod:`~laspoly.engine.turns`, :mod:`~laspoly.engine.decisions`).  A new piece of
state is one attribute here, set in the constructor, and one row of
:data:`~laspoly.engine.position_format.STATE_IN_POSITION` saying where a position keeps it.

Three hooks let code outside the rules watch or replace one step, each a documented attribute that the
constructor (and so ``Game(...)``) takes; ``None`` plays the rules as written:

* :attr:`GameState.observer`, called with every event as it happens (a checked game checks the invariants there);
* :attr:`GameState.rent_policy`, asked for the rent of every landing on another player's property
  (the exact movement chain records a card's rent multiplier there instead of charging it);
* :attr:`GameState.salary`, which pays the salary for passing or landing on Start (the soak's
  deliberately broken rule pays it wrongly there).
"""

from __future__ import annotations

from collections import deque
from collections.abc import Callable
from typing import Any, Final, Protocol

from laspoly.engine import actions as A
from laspoly.engine import events as E
from laspoly.engine.chance import Chance
from laspoly.engine.native import mypyc_attr
from laspoly.engine.state import HOTELS, HOUSES, TURN, Auction, Debt, Phase, Player, TradeOffer
from laspoly.errors import SetupError
from laspoly.rules.board import Board, Field
from laspoly.rules.options import RuleOptions
from laspoly.rules.presets import Preset

#: A hook called with every event of a game as it happens (after it is logged, if the game keeps a log).
Observer = Callable[[E.Event], None]
#: A hook asked for the rent a landing on field ``i`` charges: ``(state, i)`` to the amount (0 for none).
RentPolicy = Callable[["GameState", int], int]
#: A hook that pays the salary of ``player`` for passing Start, or for landing on it when ``landed``.
SalaryHook = Callable[["GameState", Player, bool], None]

#: Every attribute of a game's state, in one place: the slots of :class:`GameState`.
STATE_FIELDS: Final = (
    # what the game is: the preset, its board and rules, the set-up a save file records, the dice and the log's switches
    "preset", "board", "rules", "setup", "chance", "record_events", "keep_history",
    # read from the board and rules once, kept for speed
    "fields", "hotel_level", "min_cash", "group_of", "board_groups", "stations", "attractions", "prison",
    # the table: players, ownership and buildings, money, decks
    "players", "owner", "owner_version", "level", "factory", "mortgaged", "houses_left", "hotels_left",
    "pot", "bank", "factories", "decks",
    # the turn
    "current", "first", "phase", "rolls_due", "doubles_count", "prison_tries", "dice", "last_card", "round",
    "turns", "pending_field", "card_rent_multiplier",
    # what is pending: a debt, an auction, offers, rent claims, a collect-from-each card
    "debt", "auction", "offers", "next_offer", "claims", "collect_queue",
    # the end, and the record
    "winner", "end_reason", "log", "history", "landings",
    # while only legality is asked (no refusal is worded), and the hooks
    "quiet", "observer", "rent_policy", "salary",
)


def check_rules_fit_board(rules: RuleOptions, board: Board) -> None:
    """Refuse rule options this board cannot play (a prison rule without a prison, a pot field with no payout)."""
    if board.prison is None and rules.three_doubles == "prison":
        raise SetupError("three_doubles=prison needs a board with a prison; choose lose_turn or nothing")
    if rules.pot_payout == "none" and any(f.kind == "pot" for f in board.fields):
        raise SetupError("this board has a pot field but pot_payout is none")


@mypyc_attr(allow_interpreted_subclasses=True)  # compiled, this is what lets copy.deepcopy copy it (figures.branch)
class GameState:
    """Everything of one game that the rules read and change; see the module docstring."""

    __slots__ = STATE_FIELDS

    preset: Preset
    board: Board
    rules: RuleOptions
    setup: dict[str, Any]
    chance: Chance
    record_events: bool
    keep_history: bool
    fields: tuple[Field, ...]
    hotel_level: int
    min_cash: int
    group_of: list[tuple[int, ...]]
    board_groups: tuple[tuple[int, ...], ...]
    stations: tuple[int, ...]
    attractions: tuple[int, ...]
    prison: int | None
    players: list[Player]
    owner: list[int]
    owner_version: int
    level: list[int]
    factory: list[bool]
    mortgaged: list[bool]
    houses_left: int
    hotels_left: int
    pot: int
    bank: int
    factories: int
    decks: dict[str, deque[int]]
    current: int
    first: int
    phase: Phase
    rolls_due: bool
    doubles_count: int
    prison_tries: int
    dice: tuple[int, int]
    last_card: tuple[str, int] | None
    round: int
    turns: int
    pending_field: int
    card_rent_multiplier: int
    debt: Debt | None
    auction: Auction | None
    offers: dict[int, TradeOffer]
    next_offer: int
    claims: list[tuple[int, int, int, int]]
    collect_queue: list[tuple[int, int, int]]
    winner: int
    end_reason: str
    log: list[E.Event]
    history: list[A.Action]
    #: the moves that ended on each field, counted for a caller who asks (``None``: not counted): a simulation
    #: counts its landings without keeping the event log
    landings: list[int] | None
    quiet: int
    observer: Observer | None
    rent_policy: RentPolicy | None
    salary: SalaryHook | None

    def __init__(
        self,
        preset: Preset,
        board: Board,
        rules: RuleOptions,
        setup: dict[str, Any],
        chance: Chance,
        names: list[str],
        *,
        record_events: bool = True,
        keep_history: bool = True,
        observer: Observer | None = None,
        rent_policy: RentPolicy | None = None,
        salary: SalaryHook | None = None,
    ) -> None:
        """The state before the first turn: every player at Start with the start money, the decks shuffled by ``chance``."""
        self.preset = preset
        self.board = b = board
        self.rules = rules
        self.setup = setup
        self.chance = chance
        self.record_events = record_events
        self.keep_history = keep_history  # off only for throw-away simulations: such a game cannot be saved
        n = b.size
        self.players = [Player(i, name, rules.start_money) for i, name in enumerate(names)]
        self.fields = b.fields
        self.owner = [-1] * n
        self.owner_version = 0  # bumped by every change of ownership
        self.level = [0] * n  # houses 0..max_houses; max_houses + 1 is a hotel
        self.factory = [False] * n
        self.mortgaged = [False] * n
        self.hotel_level = rules.max_houses + 1
        self.min_cash = 1 if rules.elimination == "zero" else 0  # L19: the least cash a payment may leave
        self.houses_left = HOUSES if rules.building_shortage else 0  # the bank's supply (counted always,
        self.hotels_left = HOTELS if rules.building_shortage else 0  # enforced with building_shortage)
        self.group_of = [b.groups[f.group].fields if f.group in b.groups else (f.index,) for f in b.fields]
        self.board_groups = tuple(g.fields for g in b.groups.values())
        self.stations = b.fields_of_kind("station")
        self.attractions = b.fields_of_kind("attraction")
        self.prison = b.prison
        self.pot = 0
        self.bank = 0  # money the bank has taken in, less what it paid out
        self.factories = 0
        self.decks = {}
        for name, cards in b.decks.items():
            order = list(range(len(cards)))
            chance.shuffle(order)
            self.decks[name] = deque(order)
        self.current = 0
        self.first = 0
        self.phase = TURN
        self.rolls_due = True
        self.doubles_count = 0
        self.prison_tries = 0
        self.dice = (0, 0)
        self.last_card = None
        self.round = 1
        self.turns = 0
        self.pending_field = -1
        self.card_rent_multiplier = 0
        self.debt = None
        self.auction = None
        self.offers = {}
        self.next_offer = 1
        self.claims = []  # (payer, owner, field, amount)
        self.collect_queue = []  # (payer, payee, amount)
        self.winner = -1
        self.end_reason = ""
        self.log = []
        self.history = []
        self.landings = None
        self.quiet = 0
        self.observer = observer
        self.rent_policy = rent_policy
        self.salary = salary


class HasState(Protocol):
    """A game's face (``Game``): what reads a game's state takes it or its face alike."""

    @property
    def state(self) -> GameState: ...


def state_of(game: GameState | HasState) -> GameState:
    """The state of ``game``, handed either a state or a game's face."""
    return game if isinstance(game, GameState) else game.state
