"""Legality, decided in one place: one ``_why_<action>`` method per action type.

Each returns the reason an action is not allowed now, in plain words, or ``None``
when it is legal; it is the *check* of the action's entry in :mod:`~laspoly.engine.registry`.
:meth:`Legality.legal_actions` enumerates the entries' candidates through the same
methods, and the dashboard's buttons show their words.
"""

from __future__ import annotations

from typing import Any, Final

from laspoly.engine import actions as A
from laspoly.engine import events as E
from laspoly.engine.native import mypyc_attr
from laspoly.engine.reasons import refusal
from laspoly.engine.registry import ANY_SEAT_MAKERS, CHECKS, FIELD_PHASES, PHASE_PARTS, WHOLE_NUMBERS, field_actions
from laspoly.engine.state import AUCTION, BUYING, DEBT, MANAGING, OVER, TRAVEL, TURN, TradeOffer
from laspoly.engine.wording import Wording


@mypyc_attr(allow_interpreted_subclasses=True)  # a layer of Game, which Python classes subclass
class Legality(Wording):
    """Why an action is illegal now, and the list of legal actions."""

    #: Above zero while the engine only asks whether actions are legal (:meth:`is_legal`,
    #: :meth:`legal_actions`): nobody reads a refusal then, so none is worded.
    _quiet: int = 0

    def is_legal(self, action: A.Action) -> bool:
        """True if :meth:`apply` would accept ``action`` now: :meth:`why_illegal` without wording the refusal."""
        self._quiet += 1
        try:
            return self.why_illegal(action) is None
        finally:
            self._quiet -= 1

    def _refuse(self, key: str, **values: Any) -> str:
        """The refusal ``key`` in words, or only the fact of it while :attr:`_quiet` (a bot asking, a list made)."""
        return _QUIET_REFUSAL if self._quiet else refusal(self, key, **values)

    def why_illegal(self, action: Any) -> str | None:
        """The reason ``action`` is not allowed now, in plain words, or None if it is legal."""
        if not isinstance(action, A.Action) or type(action) not in CHECKS:
            return self._refuse("action.unknown", action=repr(action))
        p = action.player
        if not isinstance(p, int) or isinstance(p, bool) or not 0 <= p < len(self.players):
            return self._refuse("action.no_player", number=E.player_number(p), count=len(self.players))
        if self.phase == OVER:
            return self._refuse("game.over")
        if not self.players[p].active:
            return self._refuse("player.out")
        if not isinstance(action, A.ClaimRent) and p != self.actor:
            return self._refuse("turn.not_yours", who=self.actor)
        for name in WHOLE_NUMBERS[type(action)]:
            v = getattr(action, name)
            if not isinstance(v, int) or isinstance(v, bool):
                return self._refuse("action.whole_number", name=name)
        fld = getattr(action, "field", None)
        if fld is not None and not 0 <= fld < len(self.fields):
            return self._refuse("action.no_field", value=str(fld))
        return CHECKS[type(action)](self, action)

    def legal_actions(self, player: int | None = None) -> list[A.Action]:
        """Every legal action of ``player`` (default: the actor), except open-ended trade offers.

        Trade proposals cannot be listed (any mix of properties and cash); check
        one with :meth:`why_illegal`.  In an auction the minimum bid stands for
        every bid up to the bidder's cash.
        """
        if self.phase == OVER:
            return []
        p = self.actor if player is None else player
        candidates: list[A.Action] = []
        for make in ANY_SEAT_MAKERS:
            candidates += make(self, p)
        if p == self.actor:
            candidates += self._candidates(p)
        self._quiet += 1
        try:
            return [a for a in candidates if self.why_illegal(a) is None]
        finally:
            self._quiet -= 1

    def _candidates(self, p: int) -> list[A.Action]:
        """The candidates of the player to move: the current phase's entries, then the entries on each owned field."""
        ph = self.phase
        out: list[A.Action] = []
        parts = PHASE_PARTS.get(ph)
        if parts is not None:
            for part in parts:
                if part.seats is not None:
                    out += part.seats[p]  # the shared per-seat values
                elif part.make is not None:
                    out += part.make(self, p)
        if ph in FIELD_PHASES:
            for i in self.owned_by(p):
                out += field_actions(p, i)  # the shared per-seat values
        return out

    # ------------------------------------------------------------ legality (one method per action)

    def _why_roll(self, a: A.Roll) -> str | None:
        if self.phase != TURN:
            return self._phase_reason()
        if not self.rolls_due:
            return self._refuse("roll.not_due")
        return None

    def _why_end_turn(self, a: A.EndTurn) -> str | None:
        if self.phase != TURN:
            return self._phase_reason()
        if self.rolls_due:
            return self._refuse("end.must_roll_doubles" if self.doubles_count else "end.must_roll")
        return None

    def _why_buy(self, a: A.Buy) -> str | None:
        if self.phase != BUYING:
            return self._refuse("buy.nothing")
        price = self.fields[self.pending_field].price
        if price > self.players[a.player].cash:
            return self._refuse("money.short", cost=price, cash=self.players[a.player].cash)
        return None

    def _why_decline(self, a: A.DeclineBuy) -> str | None:
        return None if self.phase == BUYING else self._refuse("buy.nothing")

    def _why_travel(self, a: A.Travel) -> str | None:
        if self.phase != TRAVEL:
            return self._refuse("travel.not_now")
        here = self.players[a.player].pos
        if a.field not in self.stations or a.field == here:
            return self._refuse("travel.other_station")
        fare = self.train_fare(here, a.field)
        if fare > self.players[a.player].cash:
            return self._refuse("travel.fare", fare=fare, cash=self.players[a.player].cash)
        return None

    def _why_stay(self, a: A.StayPut) -> str | None:
        return None if self.phase == TRAVEL else self._refuse("travel.none")

    def _own_turn_reason(self, a: A.Action) -> str | None:
        if self.phase not in MANAGING or a.player != self.current:
            return self._refuse("manage.own_turn")
        return None

    def _why_build(self, a: A.Build) -> str | None:
        reason = self._own_turn_reason(a) or self._owns_street(a.player, a.field)
        if reason:
            return reason
        i, r = a.field, self.rules
        if not self.owns_group(a.player, i):
            return self._refuse("build.whole_group")
        if any(self.mortgaged[j] for j in self.group_of[i]):
            return self._refuse("build.group_mortgaged")
        if self.factory[i]:
            return self._refuse("build.factory_final")
        levels = self._even_levels(i)
        if a.building == "factory":
            if not self.fields[i].factory_price:
                return self._refuse("build.no_factory")
            if self.level[i]:
                return self._refuse("build.factory_unbuilt")
        elif a.building == "hotel":
            if not r.hotels or r.max_houses == 0:
                return self._refuse("build.no_hotels")
            if self.level[i] == self.hotel_level:
                return self._refuse("build.has_hotel")
            if self.level[i] != r.max_houses or min(levels) < r.max_houses:
                return self._refuse("build.hotel_needs", n=r.max_houses)
            if r.building_shortage and self.hotels_left < 1:
                return self._refuse("build.no_hotels_left")
        elif a.building == "house":
            if self.level[i] >= r.max_houses:
                return self._refuse("build.max_houses", n=r.max_houses)
            if self.level[i] > min(levels):
                return self._refuse("build.evenly")
            if r.building_shortage and self.houses_left < 1:
                return self._refuse("build.no_houses_left")
        else:
            return self._refuse("build.unknown", building=repr(a.building))
        cost = self.build_cost(i, a.building)
        if cost > self.players[a.player].cash:
            return self._refuse("money.short", cost=cost, cash=self.players[a.player].cash)
        return None

    def _owns_street(self, player: int, i: int) -> str | None:
        if self.owner[i] != player:
            return self._refuse("own.not_owner")
        if self.fields[i].kind != "street":
            return self._refuse("own.not_street")
        return None

    def _manage_reason(self, a: A.Action) -> str | None:
        """Selling and mortgaging: on one's own turn, or as the debtor in a debt (C11)."""
        if self.phase == DEBT:
            assert self.debt is not None
            return None if a.player == self.debt.payer else self._refuse("debt.only_debtor")
        return self._own_turn_reason(a)

    def _even_levels(self, i: int, besides: int | None = None) -> list[int]:
        """The building levels that building and selling keep even (L17): the streets of ``i``'s group
        without a factory (L12), leaving out ``besides``."""
        return [self.level[j] for j in self.group_of[i] if not self.factory[j] and j != besides]

    def _why_sell_building(self, a: A.SellBuilding) -> str | None:
        reason = self._manage_reason(a) or self._owns_street(a.player, a.field)
        if reason:
            return reason
        i = a.field
        if self.factory[i]:
            # L12 with L17: the street comes back unbuilt and rejoins the group's evenness, so the sale
            # must keep the group even: the other streets without a factory hold at most one house
            if max(self._even_levels(i, besides=i), default=0) > 1:
                return self._refuse("sell.factory_uneven")
            return None
        if self.level[i] == self.hotel_level:
            return None
        if not self.level[i]:
            return self._refuse("sell.no_building")
        if self.level[i] < max(self._even_levels(i)):
            return self._refuse("sell.evenly")
        return None

    def _why_sell_property(self, a: A.SellProperty) -> str | None:
        reason = self._manage_reason(a)
        if reason:
            return reason
        if self.owner[a.field] != a.player:
            return self._refuse("own.not_owner")
        if self.mortgaged[a.field]:
            return self._refuse("sell.mortgaged")
        if self.group_has_buildings(a.field):
            return self._refuse("sell.buildings_first")
        return None

    def _why_mortgage(self, a: A.Mortgage) -> str | None:
        reason = self._manage_reason(a)
        if reason:
            return reason
        if self.rules.mortgage_when == "debt_only" and self.phase != DEBT:
            return self._refuse("mortgage.debt_only")
        if self.owner[a.field] != a.player:
            return self._refuse("own.not_owner")
        if self.mortgaged[a.field]:
            return self._refuse("mortgage.already")
        if self.group_has_buildings(a.field):
            return self._refuse("sell.buildings_first")
        return None

    def _why_repay(self, a: A.Repay) -> str | None:
        reason = self._own_turn_reason(a)
        if reason:
            return reason
        if self.owner[a.field] != a.player:
            return self._refuse("own.not_owner")
        if not self.mortgaged[a.field]:
            return self._refuse("repay.not_mortgaged")
        cost = self.repay_price(a.field)
        if cost > self.players[a.player].cash:
            return self._refuse("repay.cost", cost=cost, cash=self.players[a.player].cash)
        return None

    def _prison_start_reason(self, a: A.Action) -> str | None:
        p = self.players[a.player]
        if self.phase != TURN or not p.in_prison:
            return self._refuse("prison.not_in")
        if self.prison_tries:
            return self._refuse("prison.rolled")
        return None

    def _why_pay_fine(self, a: A.PayFine) -> str | None:
        reason = self._prison_start_reason(a)
        if reason:
            return reason
        p = self.players[a.player]
        if p.prison_turns >= self.rules.jail_fine_turns:
            return self._refuse("prison.fine_turns", n=self.rules.jail_fine_turns)
        if self.rules.jail_fine > p.cash:
            return self._refuse("prison.fine", fine=self.rules.jail_fine, cash=p.cash)
        return None

    def _why_jail_card(self, a: A.UseJailCard) -> str | None:
        reason = self._prison_start_reason(a)
        if reason:
            return reason
        return None if self.players[a.player].jail_cards else self._refuse("prison.no_card")

    def _why_propose(self, a: A.ProposeTrade) -> str | None:
        if self.phase != TURN or a.player != self.current:
            return self._refuse("trade.own_turn")
        if not isinstance(a.to, int) or not 0 <= a.to < len(self.players) or a.to == a.player or not self.players[a.to].active:
            return self._refuse("trade.other_player")
        if not (a.give or a.take or a.cash or a.give_cards or a.take_cards):
            return self._refuse("trade.empty")
        offer = TradeOffer(0, a.player, a.to, tuple(a.give), tuple(a.take), a.cash, a.give_cards, a.take_cards)
        return self._offer_problem(offer)

    def _offer_problem(self, o: TradeOffer) -> str | None:
        """Why an offer does not match what the players own, or None (L16, C9)."""
        for name, fields_, who in (("give", o.give, o.proposer), ("take", o.take, o.receiver)):
            if len(set(fields_)) != len(fields_):
                return self._refuse(f"trade.twice_{name}")
            for i in fields_:
                if not isinstance(i, int) or not 0 <= i < len(self.fields) or self.owner[i] != who:
                    known = isinstance(i, int) and 0 <= i < len(self.fields)
                    return self._refuse("trade.not_owner", who=who, field=i if known else f"field {i!r}")
                req = self.rules.trade_requires
                if req == "unbuilt_property" and (self.level[i] or self.factory[i]):
                    return self._refuse("trade.built", field=i)
                if req == "unbuilt_group" and self.group_has_buildings(i):
                    return self._refuse("trade.group_built", field=i)
        for n in (o.give_cards, o.take_cards):
            if not isinstance(n, int) or n < 0:
                return self._refuse("trade.card_counts")
        if (o.give_cards or o.take_cards) and not self.rules.jail_cards_tradable:
            return self._refuse("trade.cards_not_tradable")
        if o.give_cards > len(self.players[o.proposer].jail_cards) or o.take_cards > len(self.players[o.receiver].jail_cards):
            return self._refuse("trade.not_enough_cards")
        payer = o.proposer if o.cash > 0 else o.receiver
        if abs(o.cash) > self.players[payer].cash:
            return self._refuse("trade.cash_short", who=payer, amount=abs(o.cash))
        return None

    def _offer_to(self, a: A.AcceptTrade | A.DeclineTrade) -> TradeOffer | str:
        if self.phase != TURN or a.player != self.current:
            return self._refuse("trade.answer_own_turn")
        o = self.offers.get(a.offer)
        if o is None or o.receiver != a.player:
            return self._refuse("trade.no_offer", offer=a.offer)
        return o

    def _why_accept(self, a: A.AcceptTrade) -> str | None:
        o = self._offer_to(a)
        if isinstance(o, str):
            return o
        problem = self._offer_problem(o)
        return self._refuse("trade.lapsed", problem=problem) if problem else None

    def _why_decline_trade(self, a: A.DeclineTrade) -> str | None:
        o = self._offer_to(a)
        return o if isinstance(o, str) else None

    def _why_bid(self, a: A.PlaceBid) -> str | None:
        au = self.auction
        if self.phase != AUCTION or au is None:
            return self._refuse("auction.none")
        if a.amount <= au.high:
            return self._refuse("auction.low_bid", amount=au.high)
        if not self._covers(self.players[a.player].cash - a.amount):
            return self._refuse("auction.cash", cash=self.players[a.player].cash)
        return None

    def _why_pass_auction(self, a: A.PassAuction) -> str | None:
        return None if self.phase == AUCTION else self._refuse("auction.none")

    def _why_claim(self, a: A.ClaimRent) -> str | None:
        if self.phase not in MANAGING:
            return self._refuse("claim.not_now")
        if not any(o == a.player and f == a.field for (_, o, f, _) in self.claims):
            return self._refuse("claim.nothing")
        return None

    def _phase_reason(self) -> str:
        key = {BUYING: "phase.buy", TRAVEL: "phase.travel", AUCTION: "phase.auction", DEBT: "phase.debt"}.get(self.phase, "phase.other")
        return self._refuse(key)


#: What a check returns while the game is quiet: a refusal nobody will read.
_QUIET_REFUSAL: Final = "refused"
