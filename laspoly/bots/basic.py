"""Bots: players that choose among legal actions and never touch the state.

A bot sees an :class:`~laspoly.engine.observation.Observation` of the game, what
a player at the table may know, never the :class:`Game` itself: it cannot read
the order of the decks or the dice generator, and it has no way to move.

:class:`BasicBot` is a sensible buyer and builder that keeps a cash reserve.
It asks targeted questions (``is_legal`` on the one action it is about to
take) rather than enumerating every legal action, so a simulation pays only
for what the bot uses.  :class:`RandomBot` picks uniformly among
:meth:`~laspoly.engine.observation.Observation.legal_actions` with its own
seeded generator (for fuzzing).
"""

from __future__ import annotations

import random
from typing import Final

from laspoly.engine import actions as A
from laspoly.engine.native import mypyc_attr
from laspoly.engine.observation import Observation
from laspoly.engine.state import AUCTION, BUYING, DEBT, TRAVEL, TURN, TradeOffer
from laspoly.rules.board import Field


@mypyc_attr(allow_interpreted_subclasses=True)  # a bot of one's own (a lesson's, a test's) builds on these
class Bot:
    """Base class: ``choose`` returns one legal action for ``game.actor``, seeing only an observation."""

    name = "bot"
    #: True if ``choose`` always ends the turn once no roll is due and no offer waits: the bot loop then plays
    #: :class:`~laspoly.engine.actions.EndTurn` right after such a bot's roll without asking it again.
    ends_turn_after_roll = False

    def choose(self, game: Observation) -> A.Action:
        """The action this bot takes now."""
        raise NotImplementedError

    def claims_rent(self, game: Observation, player: int) -> bool:
        """Whether this bot claims rent owed to it (C6: bots always claim)."""
        return True


@mypyc_attr(allow_interpreted_subclasses=True)  # a bot of one's own (a lesson's, a test's) builds on these
class BasicBot(Bot):
    """Buys what it can afford above a reserve, builds evenly, raises money sensibly.

    Every temperament is a setting of this one bot:

    * ``reserve``: cash it never goes below by choice (buying, building, fines, fares, bids, offers);
    * ``prefer``: ``houses`` (houses, then hotels), ``factories``, or ``none`` (never builds);
    * ``bid_factor``: the highest auction bid, as a multiple of the price;
    * ``jail``: ``leave`` (pay or use a card at once), ``stay`` (roll as long as allowed),
      or ``auto`` (leave while unowned properties remain, then stay);
    * ``train``: ``None`` (never), or a station to travel to when the fare fits the reserve;
    * ``trade``: propose offers that complete a colour group; ``accept_margin``: accept an
      offer when what it gets is worth at least this multiple of what it gives.
    """

    name = "basic"

    def __init__(self, reserve: int = 150, prefer: str = "houses", *, bid_factor: float = 1.0,
                 jail: str = "auto", train: int | None = None, trade: bool = False, accept_margin: float = 1.25) -> None:
        if prefer not in ("houses", "factories", "none"):
            raise ValueError("prefer must be 'houses', 'factories' or 'none'")
        if jail not in ("leave", "stay", "auto"):
            raise ValueError("jail must be 'leave', 'stay' or 'auto'")
        self.reserve = reserve
        self.prefer = prefer
        self.bid_factor = bid_factor
        self.jail = jail
        self.train = train
        self.trade = trade
        self.accept_margin = accept_margin
        self._groups_seen: tuple[list[int] | None, int, int] = (None, -1, -1)  # (the game's owner list, version, player)
        self._groups: list[tuple[int, ...]] = []
        self._offered: dict[int, int] = {}  # field -> round of the last offer for it
        self._fields_seen: tuple[Field, ...] = ()
        self._properties: tuple[int, ...] = ()
        # a subclass that decides turns its own way may act after rolling: it is asked as any bot is
        self.ends_turn_after_roll = type(self).choose is BasicBot.choose and type(self)._turn is BasicBot._turn

    def choose(self, game: Observation) -> A.Action:
        """Pick the action for the current decision."""
        phase = game.phase
        if phase == TURN:  # the current player decides in the turn, buy and travel phases: no need to ask for the actor
            return self._turn(game, game.current)
        if phase == BUYING:
            me = game.current
            price = game.fields[game.pending_field].price
            return A.BUY[me] if game.players[me].cash - price > self.reserve else A.DECLINE_BUY[me]
        if phase == TRAVEL:
            return self._travel(game, game.current)
        if phase == DEBT:
            return self._raise_money(game, game.actor)
        if phase == AUCTION:
            return self._bid(game, game.actor)
        raise RuntimeError(f"no decision in phase {phase!r}")

    def _turn(self, game: Observation, me: int) -> A.Action:
        p = game.players[me]
        if game.offers:
            for o in game.offers.values():
                if o.receiver == me:
                    return A.AcceptTrade(me, o.id) if self._likes(game, me, o) else A.DeclineTrade(me, o.id)
        if not game.rolls_due:
            return A.END_TURN[me]
        if p.in_prison and not game.prison_tries and self._leaves_prison(game):
            if p.jail_cards:
                return A.USE_JAIL_CARD[me]
            if p.cash - game.rules.jail_fine > self.reserve and p.prison_turns < game.rules.jail_fine_turns:
                return A.PAY_FINE[me]
        if p.cash > self.reserve + 50:
            build = self._build(game, me)
            if build is not None:
                return build
        if self.trade and not game.prison_tries:
            offer = self._offer(game, me)
            if offer is not None:
                return offer
        return A.ROLL[me]

    def _leaves_prison(self, game: Observation) -> bool:
        """``auto``: leave while some property has no owner (-1) yet, then stay."""
        if self.jail == "auto":
            if game.fields is not self._fields_seen:  # the board's properties, found once per board
                self._fields_seen = game.fields
                self._properties = tuple(f.index for f in game.fields if f.is_property)
            owner = game.owner
            for i in self._properties:  # a plain loop: the compiled build runs it natively, map() generically
                if owner[i] < 0:
                    return True
            return False
        return self.jail == "leave"

    def _travel(self, game: Observation, me: int) -> A.Action:
        t = self.train
        if t is not None and t != game.players[me].pos and game.players[me].cash - game.train_fare(game.players[me].pos, t) > self.reserve:
            return A.Travel(me, t)
        return A.STAY_PUT[me]

    # -- trading
    def _value(self, game: Observation, fields: tuple[int, ...]) -> int:
        return sum(game.fields[i].price - (game.fields[i].mortgage if game.mortgaged[i] else 0) for i in fields)

    def _likes(self, game: Observation, me: int, o: TradeOffer) -> bool:
        """Accept when the offer is worth ``accept_margin`` times what it costs and keeps the reserve."""
        gets = self._value(game, o.give) + max(o.cash, 0) + 50 * o.give_cards
        gives = self._value(game, o.take) + max(-o.cash, 0) + 50 * o.take_cards
        return gets >= self.accept_margin * gives and game.players[me].cash + o.cash > self.reserve and game.is_legal(A.AcceptTrade(me, o.id))

    def _offer(self, game: Observation, me: int) -> A.Action | None:
        """Offer cash for the one street that would complete a colour group (at most every 5 rounds)."""
        if any(o.proposer == me for o in game.offers.values()):
            return None
        owner = game.owner
        for streets in game.board_groups:
            mine = [j for j in streets if owner[j] == me]
            missing = [j for j in streets if owner[j] != me]
            if not mine or len(missing) != 1 or owner[missing[0]] < 0:
                continue
            j = missing[0]
            if game.round - self._offered.get(j, -99) < 5:
                continue
            cash = int(game.fields[j].price * 1.6)
            if game.players[me].cash - cash <= self.reserve:
                continue
            offer = A.ProposeTrade(me, owner[j], (), (j,), cash)
            if game.is_legal(offer):
                self._offered[j] = game.round
                return offer
        return None

    def _build(self, game: Observation, me: int) -> A.Action | None:
        """One building on a complete group, evenly, if it keeps the reserve.

        Cheap arithmetic picks the single candidate per group; only that one is
        checked by the engine's ``is_legal``, so a turn with nothing to build
        costs a few list look-ups.
        """
        owner, version = game.owner, game.owner_version  # the groups owned whole, found again only when an owner changed
        seen_owner, seen_version, seen_me = self._groups_seen
        if owner is not seen_owner or version != seen_version or me != seen_me:
            whole: list[tuple[int, ...]] = []
            for g in game.board_groups:  # plain loops: a generator per group cost more than the look-ups it made
                for j in g:
                    if owner[j] != me:
                        break
                else:
                    whole.append(g)
            self._groups = whole
            self._groups_seen = (owner, version, me)
        groups = self._groups
        if not groups:
            return None
        budget = game.players[me].cash - self.reserve
        mortgaged = game.mortgaged
        for streets in groups:
            held = -1  # the group's first mortgaged street
            for j in streets:
                if mortgaged[j]:
                    held = j
                    break
            if held >= 0:
                if game.repay_price(held) < budget:
                    return A.repay(me, held)
                continue
            pick = self._candidate(game, streets)
            if pick is not None and game.build_cost(pick[0], pick[1]) < budget:  # built only once it is affordable
                action = A.build(me, pick[0], pick[1])
                if game.is_legal(action):
                    return action
        return None

    def _candidate(self, game: Observation, streets: tuple[int, ...]) -> tuple[int, str] | None:
        """The one building this bot would put on a group next: (street, building), or None."""
        level, factory = game.level, game.factory
        if self.prefer == "none":
            return None
        if self.prefer == "factories":
            for j in streets:
                if not factory[j] and not level[j] and game.fields[j].factory_price:
                    return j, "factory"
            return None
        j = -1  # the least built street without a factory, the first of equals
        for k in streets:
            if not factory[k] and (j < 0 or level[k] < level[j]):
                j = k
        if j < 0:
            return None
        if level[j] < game.rules.max_houses:
            return j, "house"
        if level[j] == game.rules.max_houses and game.rules.hotels:
            return j, "hotel"
        return None

    def _raise_money(self, game: Observation, me: int) -> A.Action:
        """Sell buildings from the most built street, then mortgage, then sell to the bank."""
        # plain loops over the board, in board order: the first of the most built streets (a factory first, then
        # the highest level), else the first of the unmortgaged properties with the lowest mortgage value
        owner, level, factory = game.owner, game.level, game.factory
        top, top_factory, top_level = -1, False, 0
        for j in range(len(owner)):
            if owner[j] == me and (level[j] or factory[j]):
                if top < 0 or factory[j] > top_factory or (factory[j] == top_factory and level[j] > top_level):
                    top, top_factory, top_level = j, factory[j], level[j]
        if top >= 0:
            return A.sell_building(me, top)
        mortgaged, fields = game.mortgaged, game.fields
        low, low_value = -1, 0
        for j in range(len(owner)):
            if owner[j] == me and not mortgaged[j] and (low < 0 or fields[j].mortgage < low_value):
                low, low_value = j, fields[j].mortgage
        if low < 0:
            raise RuntimeError("a debtor with nothing left to sell")  # the engine bankrupts such a player at once
        a: A.Action = A.mortgage(me, low)
        return a if game.is_legal(a) else A.SellProperty(me, low)

    def _bid(self, game: Observation, me: int) -> A.Action:
        au = game.auction
        assert au is not None
        price = game.fields[au.field].price
        step = max(10, price // 10)
        bid = au.high + step
        if bid <= price * self.bid_factor and game.players[me].cash - bid > self.reserve:
            return A.place_bid(me, bid)
        return A.PASS_AUCTION[me]


#: The actions that move a game on, which a random bot prefers half of the time (a tuple, made once: a union
#: written in ``isinstance`` would be made again on every call).
_MOVERS: Final = (A.Roll, A.EndTurn, A.Buy, A.PassAuction, A.StayPut)


@mypyc_attr(allow_interpreted_subclasses=True)  # a bot of one's own (a lesson's, a test's) builds on these
class RandomBot(Bot):
    """Chooses uniformly among the legal actions, from its own seeded generator."""

    name = "random"

    def __init__(self, seed: int = 0) -> None:
        self.rng = random.Random(seed)

    def choose(self, game: Observation) -> A.Action:
        """Any legal action, preferring to move the game on half of the time."""
        legal = game.legal_actions()
        movers = [a for a in legal if isinstance(a, _MOVERS)]
        if movers and self.rng.random() < 0.5:
            return self.rng.choice(movers)
        return self.rng.choice(legal)
