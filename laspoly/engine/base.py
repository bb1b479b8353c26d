"""The base layer of a game: its state and the questions asked of it (owners, buildings, prices, rent, net worth, snapshots).

:class:`GameBase` holds every attribute of a game and answers questions about it
without changing it.  The classes above it add the wording
(:mod:`~laspoly.engine.wording`), the legality (:mod:`~laspoly.engine.legality`),
the payments (:mod:`~laspoly.engine.payments`), the turns and moves
(:mod:`~laspoly.engine.turns`), and :class:`~laspoly.engine.game.Game` the
decisions; together they are one :class:`Game`.
"""

from __future__ import annotations

import hashlib
import json
from collections import deque
from itertools import compress, count
from typing import Any

from laspoly.engine import actions as A
from laspoly.engine import events as E
from laspoly.engine.chance import Chance
from laspoly.engine.native import mypyc_attr
from laspoly.engine.state import AUCTION, DEBT, HOTELS, HOUSES, OVER, TURN, Auction, Debt, Player, TradeOffer
from laspoly.rules.board import Board, Field
from laspoly.rules.options import RuleOptions
from laspoly.rules.presets import Preset


@mypyc_attr(allow_interpreted_subclasses=True)  # a layer of Game, which Python classes subclass
class GameBase:
    """Every attribute of a game, and the read-only questions about them."""

    preset: Preset
    board: Board
    rules: RuleOptions
    setup: dict[str, Any]
    chance: Chance
    record_events: bool
    keep_history: bool

    def _init_state(self, names: list[str]) -> None:
        b = self.board
        n = b.size
        self.players = [Player(i, name, self.rules.start_money) for i, name in enumerate(names)]
        self.fields: tuple[Field, ...] = b.fields
        self.owner = [-1] * n
        self.owner_version = 0  # bumped by every change of ownership
        self.level = [0] * n  # houses 0..max_houses; max_houses + 1 is a hotel
        self.factory = [False] * n
        self.mortgaged = [False] * n
        self.hotel_level = self.rules.max_houses + 1
        self.min_cash = 1 if self.rules.elimination == "zero" else 0  # L19: the least cash a payment may leave
        self.houses_left = HOUSES if self.rules.building_shortage else 0  # the bank's supply (counted always,
        self.hotels_left = HOTELS if self.rules.building_shortage else 0  # enforced with building_shortage)
        self.group_of: list[tuple[int, ...]] = [b.groups[f.group].fields if f.group in b.groups else (f.index,) for f in b.fields]
        self.board_groups: tuple[tuple[int, ...], ...] = tuple(g.fields for g in b.groups.values())
        self.stations = b.fields_of_kind("station")
        self.attractions = b.fields_of_kind("attraction")
        self.prison = b.prison
        self.pot = 0
        self.bank = 0  # money the bank has taken in, less what it paid out
        self.factories = 0
        self.decks: dict[str, deque[int]] = {}
        for name, cards in b.decks.items():
            order = list(range(len(cards)))
            self.chance.shuffle(order)
            self.decks[name] = deque(order)
        self.current = 0
        self.first = 0
        self.phase = TURN
        self.rolls_due = True
        self.doubles_count = 0
        self.prison_tries = 0
        self.dice: tuple[int, int] = (0, 0)
        self.last_card: tuple[str, int] | None = None
        self.round = 1
        self.turns = 0
        self.pending_field = -1
        self.card_rent_multiplier = 0
        self.debt: Debt | None = None
        self.auction: Auction | None = None
        self.offers: dict[int, TradeOffer] = {}
        self.next_offer = 1
        self.claims: list[tuple[int, int, int, int]] = []  # (payer, owner, field, amount)
        self.collect_queue: list[tuple[int, int, int]] = []  # (payer, payee, amount)
        self.winner = -1
        self.end_reason = ""
        self.log: list[E.Event] = []
        self.history: list[A.Action] = []


    # ------------------------------------------------------------ queries

    @property
    def actor(self) -> int:
        """The player who must decide now (the debtor or bidder, else the current player)."""
        if self.phase == DEBT:
            d = self.debt
            assert d is not None  # a debt phase has its debt
            return d.payer
        if self.phase == AUCTION:
            a = self.auction
            assert a is not None  # an auction phase has its auction
            return a.bidders[a.turn]
        return self.current

    @property
    def is_over(self) -> bool:
        """True once the game has a winner."""
        return self.phase == OVER

    @property
    def active_players(self) -> list[int]:
        """Indices of the players still in the game."""
        return [p.index for p in self.players if p.active]

    def owned_by(self, player: int) -> list[int]:
        """Fields owned by ``player``, in board order."""
        return list(compress(count(), map(player.__eq__, self.owner)))  # the loop runs in C: asked every turn with factories

    def owns_group(self, player: int, index: int) -> bool:
        """True if ``player`` owns every street of ``index``'s colour group."""
        owner = self.owner
        for j in self.group_of[index]:  # a loop, not all() over a generator: rent asks this on most landings
            if owner[j] != player:
                return False
        return True

    def group_has_buildings(self, index: int) -> bool:
        """True if any street of ``index``'s group has a house, hotel or factory."""
        return any(self.level[j] or self.factory[j] for j in self.group_of[index])

    def house_price(self, index: int) -> int:
        """What one house costs on this street (C5: the mortgage value in ``classic``)."""
        f = self.fields[index]
        return f.mortgage if self.rules.house_price == "mortgage_value" else f.house_price

    def hotel_price(self, index: int) -> int:
        """What the hotel costs on top of the houses (C5: one more house)."""
        f = self.fields[index]
        return f.mortgage if self.rules.house_price == "mortgage_value" else f.hotel_price

    def build_cost(self, index: int, building: str) -> int:
        """What a house, hotel or factory costs on this street."""
        if building == "factory":
            return self.fields[index].factory_price
        return self.hotel_price(index) if building == "hotel" else self.house_price(index)

    def cost_of(self, action: A.Action) -> int:
        """What a voluntary action would take from the player's cash now (0 for actions that pay nothing).

        This is the amount L19 looks at: a voluntary payment that leaves exactly zero puts the player out.
        """
        if isinstance(action, A.Buy):
            return self.fields[self.pending_field].price if self.pending_field >= 0 else 0
        if isinstance(action, A.Build):
            return self.build_cost(action.field, action.building)
        if isinstance(action, A.Repay):
            return self.repay_price(action.field)
        if isinstance(action, A.Travel):
            return self.train_fare(self.players[action.player].pos, action.field)
        if isinstance(action, A.PayFine):
            return self.rules.jail_fine
        if isinstance(action, A.PlaceBid):
            return action.amount
        if isinstance(action, A.AcceptTrade) and action.offer in self.offers:
            return max(0, -self.offers[action.offer].cash)
        if isinstance(action, A.ProposeTrade):
            return max(0, action.cash)
        return 0

    def repay_price(self, index: int) -> int:
        """Mortgage value plus interest rounded up (L18) plus any flat fee (S7)."""
        m = self.fields[index].mortgage
        return m + -(-m * self.rules.mortgage_interest_percent // 100) + self.rules.mortgage_fee

    def building_value(self, index: int) -> int:
        """What the buildings on ``index`` cost, at full price."""
        lvl = self.level[index]
        if self.factory[index]:
            return self.fields[index].factory_price
        if lvl == self.hotel_level:
            return self.rules.max_houses * self.house_price(index) + self.hotel_price(index)
        return lvl * self.house_price(index)

    def liquidation_value(self, player: int) -> int:
        """Cash the player could raise by selling every building and mortgaging or selling every property."""
        total = 0
        for i in self.owned_by(player):
            f = self.fields[i]
            total += self._building_refund_all(i)
            if not self.mortgaged[i]:
                total += max(f.mortgage, f.price // 2)
        return total

    def _building_refund_all(self, index: int) -> int:
        lvl = self.level[index]
        if self.factory[index]:
            return self.fields[index].factory_price // 2
        if lvl == self.hotel_level:
            return self.hotel_price(index) // 2 + self.rules.max_houses * (self.house_price(index) // 2)
        return lvl * (self.house_price(index) // 2)

    def net_worth(self, player: int) -> int:
        """L20: cash, plus property prices less mortgage values, plus buildings at their price."""
        p = self.players[player]
        if not p.active:
            return 0
        total = p.cash
        for i in self.owned_by(player):
            f = self.fields[i]
            total += f.price - (f.mortgage if self.mortgaged[i] else 0) + self.building_value(i)
        return total

    def rent(self, index: int, dice_total: int | None = None) -> int:
        """Rent due on ``index`` now, for a lander who rolled ``dice_total`` (L5-L7, C3-C4, S1)."""
        o = self.owner[index]
        if o < 0 or self.mortgaged[index]:
            return 0
        f = self.fields[index]
        kind = f.kind
        if kind == "street":
            if self.factory[index]:
                return 0
            lvl = self.level[index]
            if lvl:
                return f.rents[min(lvl, len(f.rents) - 1)]
            base = f.rents[0]
            return base * 2 if self.rules.group_doubles_rent and self.owns_group(o, index) else base
        if kind == "station":
            n = sum(1 for j in self.stations if self.owner[j] == o)
            r = self.rules
            if r.station_rent == "linear":
                return r.station_base_rent * n
            doubling: int = 2 ** (n - 1 if r.station_rent == "doubling" else n)  # n >= 1: a whole number
            return r.station_base_rent * doubling
        n = sum(1 for j in self.attractions if self.owner[j] == o)
        mult = self.rules.attraction_all if n == len(self.attractions) else self.rules.attraction_one
        return mult * (sum(self.dice) if dice_total is None else dice_total)

    def train_fare(self, src: int, dst: int) -> int:
        """L10: 75 for each station passed in the direction of movement."""
        s = self.stations
        hops = (s.index(dst) - s.index(src)) % len(s)
        return self.rules.train_fare * hops

    def _covers(self, balance: int) -> bool:
        """Whether a balance after a payment keeps the player in (L19: hitting zero is out)."""
        return balance >= self.min_cash

    # ------------------------------------------------------------ snapshots

    def snapshot(self) -> dict[str, Any]:
        """The whole state as plain data: equal snapshots mean equal games."""
        return {
            "players": [p.snapshot() for p in self.players],
            "owner": list(self.owner), "level": list(self.level), "factory": list(self.factory),
            "mortgaged": list(self.mortgaged),
            "pot": self.pot, "bank": self.bank, "houses_left": self.houses_left, "hotels_left": self.hotels_left, "decks": {k: list(v) for k, v in self.decks.items()},
            "current": self.current, "phase": self.phase, "rolls_due": self.rolls_due,
            "doubles_count": self.doubles_count, "prison_tries": self.prison_tries, "dice": list(self.dice),
            "round": self.round, "turns": self.turns, "pending_field": self.pending_field,
            "offers": [[o.id, o.proposer, o.receiver, list(o.give), list(o.take), o.cash, o.give_cards, o.take_cards]
                       for o in self.offers.values()],
            "claims": [list(c) for c in self.claims], "collect_queue": [list(c) for c in self.collect_queue],
            "winner": self.winner, "end_reason": self.end_reason,
            "debt": None if self.debt is None else [self.debt.payer, self.debt.total, self.debt.then],
            "auction": None if self.auction is None else [self.auction.field, list(self.auction.bidders), self.auction.high, self.auction.high_bidder],
            "chance_next": self.chance.getstate()[1], "history": len(self.history),
        }

    def digest(self) -> str:
        """A short fingerprint of the state and the generator, stored in save files."""
        data = json.dumps(self.snapshot(), sort_keys=True, separators=(",", ":"))
        rng = repr(self.chance.getstate()[0])
        return hashlib.sha256((data + rng).encode()).hexdigest()[:32]

    def total_money(self) -> int:
        """Players' cash plus the pot plus the bank's takings: constant over a game."""
        return sum(p.cash for p in self.players) + self.pot + self.bank
