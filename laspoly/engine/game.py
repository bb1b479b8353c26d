"""The rules engine's face: one :class:`Game` plays any preset, exactly.

Design, after python-chess and OpenSpiel:

* A game's whole state is one :class:`~laspoly.engine.gamestate.GameState`, changed in place;
  the rules are modules of functions over it, each importing only the ones below:
  :mod:`~laspoly.engine.base` (the questions), :mod:`~laspoly.engine.wording`,
  :mod:`~laspoly.engine.legality`, :mod:`~laspoly.engine.payments` (money, debts, the turn
  order), :mod:`~laspoly.engine.turns` (the roll, the move, cards) and
  :mod:`~laspoly.engine.decisions` (what each action does).
* :class:`Game` holds the state (:attr:`Game.state`) and is the face the rest of laspoly
  uses: :meth:`Game.apply` checks an action against the rules and raises
  :class:`IllegalActionError` (changing nothing) when it is not allowed;
  :meth:`Game.push` trusts its caller and is the fast path that bots and replays of
  engine-generated actions use; :meth:`legal_actions`, :meth:`why_illegal`,
  :meth:`explain`, :meth:`observe`, :meth:`chance_outcomes` and the questions
  delegate to the rule modules, and the state's attributes read through it
  (``game.phase`` is ``game.state.phase``).
* Each action type is one entry of the action registry (:data:`ACTIONS`, at the
  bottom of this module, filed in :mod:`~laspoly.engine.registry`): its check,
  its effect, its candidates and its words.
* Chance enters only through :class:`Chance`, seeded per game.
* Every change is an :mod:`event <laspoly.engine.events>` in :attr:`Game.log`, shown
  as it happens to the game's observer, if it has one.
* Three hooks, passed to the constructor (or set on the state), watch or replace one step
  without subclassing: ``observer`` (every event), ``rent_policy`` (the rent of a landing)
  and ``salary`` (the salary for Start); see :mod:`~laspoly.engine.gamestate`.

The game moves through *phases*: ``turn`` (manage, roll, end the turn),
``buy``, ``travel``, ``auction``, ``debt`` (raise money to pay) and ``over``.
A debt suspends whatever was under way and a *continuation* tag says how to
carry on once it is paid.
"""

from __future__ import annotations

from collections import deque
from fractions import Fraction
from typing import Any, Final

from laspoly.engine import actions as A
from laspoly.engine import base, decisions, legality, payments, position_format, turns, wording
from laspoly.engine import decisions as D
from laspoly.engine import events as E
from laspoly.engine import legality as L
from laspoly.engine.actions import EndTurn, Roll  # named directly: the compiled build then checks a type natively
from laspoly.engine.chance import Chance, Outcome, parse_dice_script
from laspoly.engine.gamestate import GameState, Observer, RentPolicy, SalaryHook, check_rules_fit_board
from laspoly.engine.native import mypyc_attr
from laspoly.engine.observation import Observation
from laspoly.engine.registry import EFFECTS, NOT_LISTED, ActionEntry, any_seat, in_phase, on_field, register
from laspoly.engine.state import (
    AUCTION,
    BUYING,
    DEBT,
    MAX_PLAYERS,
    MIN_PLAYERS,
    OVER,
    TRAVEL,
    TURN,
    Auction,
    Debt,
    Phase,
    Player,
    TradeOffer,
    check_player_count,
    clean_name,
    name_key,
)
from laspoly.errors import IllegalActionError, SetupError
from laspoly.rules.board import Board, Field
from laspoly.rules.options import RuleOptions
from laspoly.rules.presets import Preset, load_preset

__all__ = [
    "AUCTION", "BUYING", "DEBT", "MAX_PLAYERS", "MIN_PLAYERS", "OVER", "TRAVEL", "TURN",
    "Auction", "Debt", "Game", "GameState", "Phase", "Player", "TradeOffer", "check_player_count", "clean_name",
]


@mypyc_attr(allow_interpreted_subclasses=True)  # copy.deepcopy copies it (figures.branch); a checked game subclasses it
class Game:
    """A game of any preset, from setup to winner.  See the module docstring."""

    #: Everything of the game that the rules read and change.
    state: GameState

    # ``| Any``: the set-up checks these itself and names a wrong one in a SetupError; a compiled build would
    # otherwise refuse a wrong type first with a bare TypeError that names nothing.
    def __init__(
        self,
        players: list[str] | int | Any = 4,
        *,
        preset: str | Preset | Any = "laspoly",
        seed: int | Any = 0,
        rules: dict[str, Any] | Any | None = None,
        dice: Any = None,
        max_rounds: int | Any | None = None,
        board: Board | None = None,
        record_events: bool = True,
        keep_history: bool = True,
        observer: Observer | None = None,
        rent_policy: RentPolicy | None = None,
        salary: SalaryHook | None = None,
        position: Any = None,
    ) -> None:
        """A new game; or, given ``position``, the game that plays on from it (:meth:`from_position`)."""
        if position is not None:
            self.state = position_format.state_from_position(
                position, record_events=record_events, keep_history=keep_history,
                observer=observer, rent_policy=rent_policy, salary=salary)
            return
        the_preset = preset if isinstance(preset, Preset) else load_preset(preset)
        the_board: Board = board or the_preset.board
        the_rules: RuleOptions = the_preset.rules.with_overrides(rules)
        if isinstance(players, int) and not isinstance(players, bool):
            # the names made here are printable and differ: checking them again cost a simulated game a few percent
            names: Any = [f"Player {i + 1}" for i in range(check_player_count(players))]
        else:
            names = players
            if not isinstance(names, list | tuple):
                raise SetupError(f"players must be a count or a list of names, not {type(names).__name__}")
            check_player_count(len(names))
            names = [clean_name(n) for n in names]
            if len({name_key(n) for n in names}) != len(names):
                raise SetupError("players' names must differ")
        if max_rounds is not None and (isinstance(max_rounds, bool) or not isinstance(max_rounds, int) or max_rounds < 1):
            raise SetupError(f"max_rounds must be a positive whole number, not {max_rounds!r}")
        script = parse_dice_script(dice)
        setup: dict[str, Any] = {
            "preset": the_preset.id, "players": list(names), "seed": seed,
            "rules": dict(rules or {}), "dice": [list(p) for p in script], "max_rounds": max_rounds,
        }
        check_rules_fit_board(the_rules, the_board)
        self.state = GameState(the_preset, the_board, the_rules, setup, Chance(seed, script), names,
                               record_events=record_events, keep_history=keep_history,
                               observer=observer, rent_policy=rent_policy, salary=salary)
        decisions.begin(self.state)

    @classmethod
    def from_position(cls, data: Any, *, record_events: bool = True, keep_history: bool = True) -> Game:
        """A game that plays on from a position (:mod:`~laspoly.engine.position_format`); a bad one raises PositionError."""
        return cls(position=data, record_events=record_events, keep_history=keep_history)

    def set_position(self, data: Any) -> None:
        """Replace the whole state by a position, as python-chess's ``Board.set_fen`` does; a bad one changes nothing."""
        position_format.set_position(self.state, data)

    def observe(self) -> Observation:
        """What a player at the table may know: the read-only view bots decide from (build it once per game)."""
        return Observation(self.state)

    # ------------------------------------------------------------ applying actions

    def apply(self, action: A.Action | Any) -> None:  # Any: anything else is refused with a reason, compiled too
        """Check ``action`` against the rules and play it; an illegal one raises and changes nothing."""
        s = self.state
        reason = legality.why_illegal(s, action)
        if reason is not None:
            who = wording.pname(s, getattr(action, "player", None))
            what = wording.describe_action(s, action) if isinstance(action, A.Action) else repr(action)
            raise IllegalActionError(who, what, reason)
        self.push(action)

    def push(self, action: A.Action) -> None:
        """Play an action already known to be legal (the fast path; no checks)."""
        s = self.state
        if s.keep_history:
            s.history.append(action)
        # the two actions of nearly every turn are called directly, the rest through the table: the compiled
        # build calls a function it knows natively, and one found in a table through Python's generic call
        if type(action) is Roll:
            turns.do_roll(s, action)
        elif type(action) is EndTurn:
            payments.next_turn(s)
        else:
            EFFECTS[type(action)](s, action)

    # ------------------------------------------------------------ legality

    def why_illegal(self, action: Any) -> str | None:
        """The reason ``action`` is not allowed now, in plain words, or None if it is legal."""
        return legality.why_illegal(self.state, action)

    def is_legal(self, action: A.Action) -> bool:
        """True if :meth:`apply` would accept ``action`` now: :meth:`why_illegal` without wording the refusal."""
        return legality.is_legal(self.state, action)

    def legal_actions(self, player: int | None = None) -> list[A.Action]:
        """Every legal action of ``player`` (default: the actor), except open-ended trade offers."""
        return legality.legal_actions(self.state, player)

    # ------------------------------------------------------------ chance

    def chance_outcomes(self) -> list[tuple[Outcome, Fraction]]:
        """The outcomes of the roll a :class:`~laspoly.engine.actions.Roll` would make now, with exact probabilities."""
        return turns.chance_outcomes(self.state)

    def card_outcomes(self, deck: str) -> list[tuple[Outcome, Fraction]]:
        """What a draw from ``deck`` gives now (:func:`~laspoly.engine.turns.card_outcomes`)."""
        return turns.card_outcomes(self.state, deck)

    def push_outcome(self, outcome: Outcome | Any) -> None:  # Any: bad input meets the check, compiled too
        """Decide a coming chance event (:func:`~laspoly.engine.turns.push_outcome`)."""
        turns.push_outcome(self.state, outcome)

    # ------------------------------------------------------------ the end

    def end_by_cap(self) -> None:
        """L20: stop now (a class period's time cap); the richest player by net worth wins."""
        payments.end_by_cap(self.state)

    def standings(self) -> list[tuple[int, int]]:
        """Active players with their net worth, richest first (L20)."""
        return payments.standings(self.state)

    # ------------------------------------------------------------ words

    def party_name(self, who: int, lang: str = "en") -> str:
        """A player's name, or the bank or the pot in ``lang``."""
        return wording.party_name(self.state, who, lang)

    def field_name(self, index: int, lang: str = "en") -> str:
        """A field's name in ``lang``."""
        return wording.field_name(self.state, index, lang)

    def card_text(self, deck: str, card: int, lang: str = "en") -> str:
        """A card's text in ``lang``."""
        return wording.card_text(self.state, deck, card, lang)

    def money(self, amount: int) -> str:
        """An amount with the board's currency: ``150 LPD``, ``$150``, ``150€``."""
        return wording.money(self.state, amount)

    def describe(self, event: E.Event, lang: str = "en") -> str:
        """One event as a sentence."""
        return wording.describe(self.state, event, lang)

    def explain(self, reason: str, lang: str = "en") -> str:
        """A reason from :meth:`why_illegal` in ``lang``, in this preset's own words where its rulebook has them."""
        return wording.explain(self.state, reason, lang)

    def describe_action(self, action: A.Action, lang: str = "en") -> str:
        """An action in words in ``lang``, naming fields and players: "build a house on Fremont Street"."""
        return wording.describe_action(self.state, action, lang)

    # ------------------------------------------------------------ questions (base)

    @property
    def actor(self) -> int:
        """The player who must decide now (the debtor or bidder, else the current player)."""
        return base.actor(self.state)

    @property
    def is_over(self) -> bool:
        """True once the game has a winner."""
        return self.state.phase == OVER

    @property
    def active_players(self) -> list[int]:
        """Indices of the players still in the game."""
        return base.active_players(self.state)

    def owned_by(self, player: int) -> list[int]:
        """Fields owned by ``player``, in board order."""
        return base.owned_by(self.state, player)

    def owns_group(self, player: int, index: int) -> bool:
        """True if ``player`` owns every street of ``index``'s colour group."""
        return base.owns_group(self.state, player, index)

    def group_has_buildings(self, index: int) -> bool:
        """True if any street of ``index``'s group has a house, hotel or factory."""
        return base.group_has_buildings(self.state, index)

    def house_price(self, index: int) -> int:
        """What one house costs on this street (C5: the mortgage value in ``classic``)."""
        return base.house_price(self.state, index)

    def hotel_price(self, index: int) -> int:
        """What the hotel costs on top of the houses (C5: one more house)."""
        return base.hotel_price(self.state, index)

    def build_cost(self, index: int, building: str) -> int:
        """What a house, hotel or factory costs on this street."""
        return base.build_cost(self.state, index, building)

    def cost_of(self, action: A.Action) -> int:
        """What a voluntary action would take from the player's cash now (0 for actions that pay nothing)."""
        return base.cost_of(self.state, action)

    def repay_price(self, index: int) -> int:
        """Mortgage value plus interest rounded up (L18) plus any flat fee (S7)."""
        return base.repay_price(self.state, index)

    def building_value(self, index: int) -> int:
        """What the buildings on ``index`` cost, at full price."""
        return base.building_value(self.state, index)

    def liquidation_value(self, player: int) -> int:
        """Cash the player could raise by selling every building and mortgaging or selling every property."""
        return base.liquidation_value(self.state, player)

    def net_worth(self, player: int) -> int:
        """L20: cash, plus property prices less mortgage values, plus buildings at their price."""
        return base.net_worth(self.state, player)

    def rent(self, index: int, dice_total: int | None = None) -> int:
        """Rent due on ``index`` now, for a lander who rolled ``dice_total`` (L5-L7, C3-C4, S1)."""
        return base.rent(self.state, index, dice_total)

    def train_fare(self, src: int, dst: int) -> int:
        """L10: 75 for each station passed in the direction of movement."""
        return base.train_fare(self.state, src, dst)

    def snapshot(self) -> dict[str, Any]:
        """The whole state as plain data: equal snapshots mean equal games."""
        return base.snapshot(self.state)

    def digest(self) -> str:
        """A short fingerprint of the state and the generator, stored in save files."""
        return base.digest(self.state)

    def total_money(self) -> int:
        """Players' cash plus the pot plus the bank's takings: constant over a game."""
        return base.total_money(self.state)

    # ------------------------------------------------------------ the state's attributes, read and set through the face

    @property
    def preset(self) -> Preset:
        return self.state.preset

    @preset.setter
    def preset(self, value: Preset) -> None:
        self.state.preset = value

    @property
    def board(self) -> Board:
        return self.state.board

    @board.setter
    def board(self, value: Board) -> None:
        self.state.board = value

    @property
    def rules(self) -> RuleOptions:
        return self.state.rules

    @rules.setter
    def rules(self, value: RuleOptions) -> None:
        self.state.rules = value

    @property
    def setup(self) -> dict[str, Any]:
        return self.state.setup

    @setup.setter
    def setup(self, value: dict[str, Any]) -> None:
        self.state.setup = value

    @property
    def chance(self) -> Chance:
        return self.state.chance

    @chance.setter
    def chance(self, value: Chance) -> None:
        self.state.chance = value

    @property
    def record_events(self) -> bool:
        return self.state.record_events

    @record_events.setter
    def record_events(self, value: bool) -> None:
        self.state.record_events = value

    @property
    def keep_history(self) -> bool:
        return self.state.keep_history

    @keep_history.setter
    def keep_history(self, value: bool) -> None:
        self.state.keep_history = value

    @property
    def fields(self) -> tuple[Field, ...]:
        return self.state.fields

    @fields.setter
    def fields(self, value: tuple[Field, ...]) -> None:
        self.state.fields = value

    @property
    def hotel_level(self) -> int:
        return self.state.hotel_level

    @hotel_level.setter
    def hotel_level(self, value: int) -> None:
        self.state.hotel_level = value

    @property
    def min_cash(self) -> int:
        return self.state.min_cash

    @min_cash.setter
    def min_cash(self, value: int) -> None:
        self.state.min_cash = value

    @property
    def group_of(self) -> list[tuple[int, ...]]:
        return self.state.group_of

    @group_of.setter
    def group_of(self, value: list[tuple[int, ...]]) -> None:
        self.state.group_of = value

    @property
    def board_groups(self) -> tuple[tuple[int, ...], ...]:
        return self.state.board_groups

    @board_groups.setter
    def board_groups(self, value: tuple[tuple[int, ...], ...]) -> None:
        self.state.board_groups = value

    @property
    def stations(self) -> tuple[int, ...]:
        return self.state.stations

    @stations.setter
    def stations(self, value: tuple[int, ...]) -> None:
        self.state.stations = value

    @property
    def attractions(self) -> tuple[int, ...]:
        return self.state.attractions

    @attractions.setter
    def attractions(self, value: tuple[int, ...]) -> None:
        self.state.attractions = value

    @property
    def prison(self) -> int | None:
        return self.state.prison

    @prison.setter
    def prison(self, value: int | None) -> None:
        self.state.prison = value

    @property
    def players(self) -> list[Player]:
        return self.state.players

    @players.setter
    def players(self, value: list[Player]) -> None:
        self.state.players = value

    @property
    def owner(self) -> list[int]:
        return self.state.owner

    @owner.setter
    def owner(self, value: list[int]) -> None:
        self.state.owner = value

    @property
    def owner_version(self) -> int:
        return self.state.owner_version

    @owner_version.setter
    def owner_version(self, value: int) -> None:
        self.state.owner_version = value

    @property
    def level(self) -> list[int]:
        return self.state.level

    @level.setter
    def level(self, value: list[int]) -> None:
        self.state.level = value

    @property
    def factory(self) -> list[bool]:
        return self.state.factory

    @factory.setter
    def factory(self, value: list[bool]) -> None:
        self.state.factory = value

    @property
    def mortgaged(self) -> list[bool]:
        return self.state.mortgaged

    @mortgaged.setter
    def mortgaged(self, value: list[bool]) -> None:
        self.state.mortgaged = value

    @property
    def houses_left(self) -> int:
        return self.state.houses_left

    @houses_left.setter
    def houses_left(self, value: int) -> None:
        self.state.houses_left = value

    @property
    def hotels_left(self) -> int:
        return self.state.hotels_left

    @hotels_left.setter
    def hotels_left(self, value: int) -> None:
        self.state.hotels_left = value

    @property
    def pot(self) -> int:
        return self.state.pot

    @pot.setter
    def pot(self, value: int) -> None:
        self.state.pot = value

    @property
    def bank(self) -> int:
        return self.state.bank

    @bank.setter
    def bank(self, value: int) -> None:
        self.state.bank = value

    @property
    def factories(self) -> int:
        return self.state.factories

    @factories.setter
    def factories(self, value: int) -> None:
        self.state.factories = value

    @property
    def decks(self) -> dict[str, deque[int]]:
        return self.state.decks

    @decks.setter
    def decks(self, value: dict[str, deque[int]]) -> None:
        self.state.decks = value

    @property
    def current(self) -> int:
        return self.state.current

    @current.setter
    def current(self, value: int) -> None:
        self.state.current = value

    @property
    def first(self) -> int:
        return self.state.first

    @first.setter
    def first(self, value: int) -> None:
        self.state.first = value

    @property
    def phase(self) -> Phase:
        return self.state.phase

    @phase.setter
    def phase(self, value: Phase) -> None:
        self.state.phase = value

    @property
    def rolls_due(self) -> bool:
        return self.state.rolls_due

    @rolls_due.setter
    def rolls_due(self, value: bool) -> None:
        self.state.rolls_due = value

    @property
    def doubles_count(self) -> int:
        return self.state.doubles_count

    @doubles_count.setter
    def doubles_count(self, value: int) -> None:
        self.state.doubles_count = value

    @property
    def prison_tries(self) -> int:
        return self.state.prison_tries

    @prison_tries.setter
    def prison_tries(self, value: int) -> None:
        self.state.prison_tries = value

    @property
    def dice(self) -> tuple[int, int]:
        return self.state.dice

    @dice.setter
    def dice(self, value: tuple[int, int]) -> None:
        self.state.dice = value

    @property
    def last_card(self) -> tuple[str, int] | None:
        return self.state.last_card

    @last_card.setter
    def last_card(self, value: tuple[str, int] | None) -> None:
        self.state.last_card = value

    @property
    def round(self) -> int:
        return self.state.round

    @round.setter
    def round(self, value: int) -> None:
        self.state.round = value

    @property
    def turns(self) -> int:
        return self.state.turns

    @turns.setter
    def turns(self, value: int) -> None:
        self.state.turns = value

    @property
    def pending_field(self) -> int:
        return self.state.pending_field

    @pending_field.setter
    def pending_field(self, value: int) -> None:
        self.state.pending_field = value

    @property
    def card_rent_multiplier(self) -> int:
        return self.state.card_rent_multiplier

    @card_rent_multiplier.setter
    def card_rent_multiplier(self, value: int) -> None:
        self.state.card_rent_multiplier = value

    @property
    def debt(self) -> Debt | None:
        return self.state.debt

    @debt.setter
    def debt(self, value: Debt | None) -> None:
        self.state.debt = value

    @property
    def auction(self) -> Auction | None:
        return self.state.auction

    @auction.setter
    def auction(self, value: Auction | None) -> None:
        self.state.auction = value

    @property
    def offers(self) -> dict[int, TradeOffer]:
        return self.state.offers

    @offers.setter
    def offers(self, value: dict[int, TradeOffer]) -> None:
        self.state.offers = value

    @property
    def next_offer(self) -> int:
        return self.state.next_offer

    @next_offer.setter
    def next_offer(self, value: int) -> None:
        self.state.next_offer = value

    @property
    def claims(self) -> list[tuple[int, int, int, int]]:
        return self.state.claims

    @claims.setter
    def claims(self, value: list[tuple[int, int, int, int]]) -> None:
        self.state.claims = value

    @property
    def collect_queue(self) -> list[tuple[int, int, int]]:
        return self.state.collect_queue

    @collect_queue.setter
    def collect_queue(self, value: list[tuple[int, int, int]]) -> None:
        self.state.collect_queue = value

    @property
    def winner(self) -> int:
        return self.state.winner

    @winner.setter
    def winner(self, value: int) -> None:
        self.state.winner = value

    @property
    def end_reason(self) -> str:
        return self.state.end_reason

    @end_reason.setter
    def end_reason(self, value: str) -> None:
        self.state.end_reason = value

    @property
    def log(self) -> list[E.Event]:
        return self.state.log

    @log.setter
    def log(self, value: list[E.Event]) -> None:
        self.state.log = value

    @property
    def history(self) -> list[A.Action]:
        return self.state.history

    @history.setter
    def history(self, value: list[A.Action]) -> None:
        self.state.history = value

    @property
    def observer(self) -> Observer | None:
        return self.state.observer

    @observer.setter
    def observer(self, value: Observer | None) -> None:
        self.state.observer = value

    @property
    def rent_policy(self) -> RentPolicy | None:
        return self.state.rent_policy

    @rent_policy.setter
    def rent_policy(self, value: RentPolicy | None) -> None:
        self.state.rent_policy = value

    @property
    def salary(self) -> SalaryHook | None:
        return self.state.salary

    @salary.setter
    def salary(self, value: SalaryHook | None) -> None:
        self.state.salary = value


#: The phases in which the player to move may build, sell, mortgage and repay on their own fields: all but an
#: auction (whether the phase allows it is the check's to say; a debt allows selling and mortgaging, C11).
_FIELD_PHASES: Final = (TURN, BUYING, TRAVEL, DEBT)


#: The action registry: one entry per action type (its check, effect, candidates and words), in the order
#: ``legal_actions`` lists their candidates.  Adding an action: its dataclass, its ``why_*`` check
#: (:mod:`~laspoly.engine.legality`) and ``do_*`` effect (:mod:`~laspoly.engine.decisions`), one entry here
#: and its messages in the catalogues (``laspoly/locale/*/LC_MESSAGES/laspoly.po``).
ACTIONS: Final[tuple[ActionEntry, ...]] = (
    ActionEntry(A.Roll, L.why_roll, turns.do_roll, in_phase(TURN, seats=A.ROLL), "action.Roll"),
    ActionEntry(A.EndTurn, L.why_end_turn, D.do_end_turn, in_phase(TURN, seats=A.END_TURN), "action.EndTurn"),
    ActionEntry(A.Buy, L.why_buy, D.do_buy, in_phase(BUYING, seats=A.BUY), "action.Buy"),
    ActionEntry(A.DeclineBuy, L.why_decline, D.do_decline, in_phase(BUYING, seats=A.DECLINE_BUY), "action.DeclineBuy"),
    ActionEntry(A.Travel, L.why_travel, D.do_travel,
                in_phase(TRAVEL, lambda g, p: [A.Travel(p, s) for s in g.stations]), "action.Travel"),
    ActionEntry(A.StayPut, L.why_stay, D.do_stay, in_phase(TRAVEL, seats=A.STAY_PUT), "action.StayPut"),
    ActionEntry(A.Build, L.why_build, D.do_build,
                on_field(_FIELD_PHASES, lambda p, i: (A.Build(p, i, "house"), A.Build(p, i, "hotel"), A.Build(p, i, "factory"))),
                "action.Build.{building}"),
    ActionEntry(A.SellBuilding, L.why_sell_building, D.do_sell_building,
                on_field(_FIELD_PHASES, lambda p, i: (A.SellBuilding(p, i),)), "action.SellBuilding"),
    ActionEntry(A.SellProperty, L.why_sell_property, D.do_sell_property,
                on_field(_FIELD_PHASES, lambda p, i: (A.SellProperty(p, i),)), "action.SellProperty"),
    ActionEntry(A.Mortgage, L.why_mortgage, D.do_mortgage,
                on_field(_FIELD_PHASES, lambda p, i: (A.Mortgage(p, i),)), "action.Mortgage"),
    ActionEntry(A.Repay, L.why_repay, D.do_repay, on_field(_FIELD_PHASES, lambda p, i: (A.Repay(p, i),)), "action.Repay"),
    ActionEntry(A.PayFine, L.why_pay_fine, D.do_pay_fine, in_phase(TURN, seats=A.PAY_FINE), "action.PayFine"),
    ActionEntry(A.UseJailCard, L.why_jail_card, D.do_jail_card, in_phase(TURN, seats=A.USE_JAIL_CARD), "action.UseJailCard"),
    ActionEntry(A.ProposeTrade, L.why_propose, D.do_propose, NOT_LISTED, "action.ProposeTrade"),
    ActionEntry(A.AcceptTrade, L.why_accept, D.do_accept,
                in_phase(TURN, lambda g, p: [A.AcceptTrade(p, o.id) for o in g.offers.values() if o.receiver == p]),
                "action.AcceptTrade"),
    ActionEntry(A.DeclineTrade, L.why_decline_trade, D.do_decline_trade,
                in_phase(TURN, lambda g, p: [A.DeclineTrade(p, o.id) for o in g.offers.values() if o.receiver == p]),
                "action.DeclineTrade"),
    ActionEntry(A.PlaceBid, L.why_bid, D.do_bid, in_phase(AUCTION, lambda g, p: (A.PlaceBid(p, g.auction.high + 1),)),
                "action.PlaceBid"),
    ActionEntry(A.PassAuction, L.why_pass_auction, D.do_pass_auction, in_phase(AUCTION, seats=A.PASS_AUCTION),
                "action.PassAuction"),
    ActionEntry(A.ClaimRent, L.why_claim, D.do_claim,
                any_seat(lambda g, p: [A.ClaimRent(p, f) for (_, o, f, _) in g.claims if o == p]), "action.ClaimRent"),
)

register(ACTIONS)
