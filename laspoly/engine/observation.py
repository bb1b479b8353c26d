"""What a player at the table may know: the read-only view of a game that bots decide from.

A person at the table sees the board, the rules, every player's cash, position
and prison status, who owns what and what is built or mortgaged, the pot, the
dice, the last card, offers, claims and auctions.  They do not see the order of
the decks, the generator that rolls the dice, a dice script, or the list of
decisions, and they cannot move pieces or money.  :class:`Observation` is that
view, after OpenSpiel's observers: bots get one instead of the :class:`Game`.

It is built once per game and reads the live game: the names it shows are an
explicit allow-list, each a property or a question delegated to the game, and
nothing is copied.  The stable parts (board, rules, the lists of owners and
buildings, the players) are the game's own objects, held in slots, so that a
simulation that asks millions of questions pays almost nothing for the view.
Being read-only is a promise of the interface, as far as Python can promise
it: the view has no setters and no method that changes the game, it keeps the
game under a private name (a plain one, not a mangled ``__game``, which the
compiled build would not mangle alike), and the lists it shows are the
game's own (copies would cost every decision), which a bot reads and never
writes.
"""

from __future__ import annotations

from typing import Any

from laspoly.engine import actions as A
from laspoly.engine import base, legality, payments, wording
from laspoly.engine import events as E
from laspoly.engine.gamestate import GameState, HasState, state_of
from laspoly.engine.state import Auction, Debt, Phase, Player, TradeOffer
from laspoly.rules.board import Board, Field
from laspoly.rules.options import RuleOptions
from laspoly.rules.presets import Preset

#: The parts of a game that keep their identity from set-up to the end (lists and dicts change in place, never replaced).
_STABLE = (
    "preset", "board", "rules", "fields", "board_groups", "group_of", "stations", "attractions", "prison",
    "hotel_level", "players", "owner", "level", "factory", "mortgaged", "offers",
)


class Observation:
    """A player's view of a game: every public fact and question, and no secret and no move.

    ``Observation(game)`` (or ``game.observe()``) is cheap and reads the game as
    it changes, so one view serves a whole game.
    """

    __slots__ = ("_source", *_STABLE)  # the game under a private name that no bot is told: `obs._game` is no way in

    _source: GameState
    preset: Preset
    board: Board
    rules: RuleOptions
    fields: tuple[Field, ...]
    board_groups: tuple[tuple[int, ...], ...]
    group_of: list[tuple[int, ...]]
    stations: tuple[int, ...]
    attractions: tuple[int, ...]
    prison: int | None
    hotel_level: int
    players: list[Player]
    owner: list[int]
    level: list[int]
    factory: list[bool]
    mortgaged: list[bool]
    offers: dict[int, TradeOffer]  # pending trade offers by id (L16)

    def __init__(self, game: GameState | HasState) -> None:
        game = state_of(game)
        # the parts that keep their identity for the whole game, held here to be read at the speed of an attribute
        for name in _STABLE:
            object.__setattr__(self, name, getattr(game, name))
        object.__setattr__(self, "_source", game)

    def __setattr__(self, name: str, value: Any) -> None:
        """Refuse every assignment: the view never changes the game."""
        raise AttributeError(f"an observation is read-only: cannot set {name!r}")

    def __delattr__(self, name: str) -> None:
        """Refuse every deletion: the view never changes the game."""
        raise AttributeError(f"an observation is read-only: cannot delete {name!r}")

    def __repr__(self) -> str:
        return f"<Observation: round {self.round}, phase {self.phase}, player {self.actor} to decide>"

    # ------------------------------------------------------------ the state of play

    @property
    def phase(self) -> Phase:
        """What the game waits for: ``turn``, ``buy``, ``travel``, ``auction``, ``debt`` or ``over``."""
        return self._source.phase

    @property
    def actor(self) -> int:
        """The player who must decide now (the debtor or bidder, else the current player)."""
        return base.actor(self._source)

    @property
    def current(self) -> int:
        """The player whose turn it is."""
        return self._source.current

    @property
    def is_over(self) -> bool:
        """True once the game has a winner."""
        return self._source.phase == Phase.OVER

    @property
    def winner(self) -> int:
        """The winner's index once the game is over, else -1."""
        return self._source.winner

    @property
    def end_reason(self) -> str:
        """Why the game ended (``last_player`` or ``net_worth``), else empty."""
        return self._source.end_reason

    @property
    def round(self) -> int:
        """The round being played, from 1."""
        return self._source.round

    @property
    def turns(self) -> int:
        """Turns started so far, over all players."""
        return self._source.turns

    @property
    def max_rounds(self) -> int | None:
        """The round cap of the game (L20), or None."""
        cap: int | None = self._source.setup["max_rounds"]
        return cap

    @property
    def rolls_due(self) -> bool:
        """Whether the current player still has to roll (a first roll, or doubles)."""
        return self._source.rolls_due

    @property
    def doubles_count(self) -> int:
        """Doubles rolled in a row this turn."""
        return self._source.doubles_count

    @property
    def prison_tries(self) -> int:
        """Rolls a prisoner has tried this turn."""
        return self._source.prison_tries

    @property
    def dice(self) -> tuple[int, int]:
        """The last roll, ``(0, 0)`` before the first."""
        return self._source.dice

    @property
    def last_card(self) -> tuple[str, int] | None:
        """The last card drawn, as (deck, card index), or None."""
        return self._source.last_card

    @property
    def pending_field(self) -> int:
        """The field on offer (to buy or at auction), else -1."""
        return self._source.pending_field

    @property
    def pot(self) -> int:
        """The casino or BOTE pot."""
        return self._source.pot

    @property
    def houses_left(self) -> int:
        """Houses the bank still has (counted always, enforced with ``building_shortage``)."""
        return self._source.houses_left

    @property
    def hotels_left(self) -> int:
        """Hotels the bank still has (counted always, enforced with ``building_shortage``)."""
        return self._source.hotels_left

    @property
    def owner_version(self) -> int:
        """A counter bumped by every change of ownership, for a bot's caches."""
        return self._source.owner_version

    @property
    def claims(self) -> list[tuple[int, int, int, int]]:
        """Rent waiting to be claimed (C6, S9): (payer, owner, field, amount)."""
        return self._source.claims

    @property
    def auction(self) -> Auction | None:
        """The running auction (C2), or None."""
        return self._source.auction

    @property
    def debt(self) -> Debt | None:
        """The debt being raised (L19), or None."""
        return self._source.debt

    @property
    def active_players(self) -> list[int]:
        """Indices of the players still in the game."""
        return base.active_players(self._source)

    # ------------------------------------------------------------ questions

    def why_illegal(self, action: Any) -> str | None:
        """The reason ``action`` is not allowed now, in plain words, or None if it is legal."""
        return legality.why_illegal(self._source, action)

    def is_legal(self, action: A.Action) -> bool:
        """True if the game would accept ``action`` now (without wording why not)."""
        return legality.is_legal(self._source, action)

    def legal_actions(self, player: int | None = None) -> list[A.Action]:
        """Every legal action of ``player`` (default: the actor), except open-ended trade offers."""
        return legality.legal_actions(self._source, player)

    def cost_of(self, action: A.Action) -> int:
        """What a voluntary action would take from the player's cash now (0 for actions that pay nothing)."""
        return base.cost_of(self._source, action)

    def rent(self, index: int, dice_total: int | None = None) -> int:
        """Rent due on ``index`` now, for a lander who rolled ``dice_total``."""
        return base.rent(self._source, index, dice_total)

    def net_worth(self, player: int) -> int:
        """L20: cash, plus property prices less mortgage values, plus buildings at their price."""
        return base.net_worth(self._source, player)

    def standings(self) -> list[tuple[int, int]]:
        """Active players with their net worth, richest first (L20)."""
        return payments.standings(self._source)

    def liquidation_value(self, player: int) -> int:
        """Cash the player could raise by selling every building and mortgaging or selling every property."""
        return base.liquidation_value(self._source, player)

    def owned_by(self, player: int) -> list[int]:
        """Fields owned by ``player``, in board order."""
        return base.owned_by(self._source, player)

    def owns_group(self, player: int, index: int) -> bool:
        """True if ``player`` owns every street of ``index``'s colour group."""
        return base.owns_group(self._source, player, index)

    def group_has_buildings(self, index: int) -> bool:
        """True if any street of ``index``'s group has a house, hotel or factory."""
        return base.group_has_buildings(self._source, index)

    def build_cost(self, index: int, building: str) -> int:
        """What a house, hotel or factory costs on this street."""
        return base.build_cost(self._source, index, building)

    def house_price(self, index: int) -> int:
        """What one house costs on this street."""
        return base.house_price(self._source, index)

    def hotel_price(self, index: int) -> int:
        """What the hotel costs on top of the houses."""
        return base.hotel_price(self._source, index)

    def building_value(self, index: int) -> int:
        """What the buildings on ``index`` cost, at full price."""
        return base.building_value(self._source, index)

    def repay_price(self, index: int) -> int:
        """What lifting the mortgage on ``index`` costs."""
        return base.repay_price(self._source, index)

    def train_fare(self, src: int, dst: int) -> int:
        """The train fare from station ``src`` to station ``dst`` (L10)."""
        return base.train_fare(self._source, src, dst)

    # ------------------------------------------------------------ words

    def describe(self, event: E.Event, lang: str = "en") -> str:
        """One event as a sentence."""
        return wording.describe(self._source, event, lang)

    def describe_action(self, action: A.Action, lang: str = "en") -> str:
        """An action in words in ``lang``, naming fields and players."""
        return wording.describe_action(self._source, action, lang)

    def money(self, amount: int) -> str:
        """An amount with the board's currency."""
        return wording.money(self._source, amount)

