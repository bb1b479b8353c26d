"""Legality, decided in one place: one ``_why_<action>`` method per action type.

Each returns the reason an action is not allowed now, in plain words, or ``None``
when it is legal.  :meth:`Legality.legal_actions` enumerates candidates through the
same methods, and the dashboard's buttons show their words.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from laspoly.engine import actions as A
from laspoly.engine import events as E
from laspoly.engine.state import AUCTION, BUY, DEBT, MANAGING, OVER, TRAVEL, TURN, TradeOffer
from laspoly.engine.wording import Wording


class Legality(Wording):
    """Why an action is illegal now, and the list of legal actions."""

    def is_legal(self, action: A.Action) -> bool:
        """True if :meth:`apply` would accept ``action`` now."""
        return self.why_illegal(action) is None

    def why_illegal(self, action: Any) -> str | None:
        """The reason ``action`` is not allowed now, in plain words, or None if it is legal."""
        if not isinstance(action, A.Action) or type(action) not in _CHECKS:
            return f"{action!r} is not a laspoly action"
        p = action.player
        if not isinstance(p, int) or isinstance(p, bool) or not 0 <= p < len(self.players):
            return f"there is no player {E.player_number(p)} (the players are 1 to {len(self.players)})"
        if self.phase == OVER:
            return "the game is over"
        if not self.players[p].active:
            return "that player is out of the game"
        if not isinstance(action, A.ClaimRent) and p != self.actor:
            return f"it is {self.players[self.actor].name}'s decision now"
        for name in _WHOLE_NUMBERS[type(action)]:
            v = getattr(action, name)
            if not isinstance(v, int) or isinstance(v, bool):
                return f"{name} must be a whole number"
        fld = getattr(action, "field", None)
        if fld is not None and not 0 <= fld < len(self.fields):
            return f"there is no field {fld}"
        return _CHECKS[type(action)](self, action)

    def legal_actions(self, player: int | None = None) -> list[A.Action]:
        """Every legal action of ``player`` (default: the actor), except open-ended trade offers.

        Trade proposals cannot be listed (any mix of properties and cash); check
        one with :meth:`why_illegal`.  In an auction the minimum bid stands for
        every bid up to the bidder's cash.
        """
        if self.phase == OVER:
            return []
        p = self.actor if player is None else player
        candidates: list[A.Action] = [A.ClaimRent(p, f) for (_, o, f, _) in self.claims if o == p]
        if p == self.actor:
            candidates += self._candidates(p)
        return [a for a in candidates if self.why_illegal(a) is None]

    def _candidates(self, p: int) -> list[A.Action]:
        ph = self.phase
        out: list[A.Action]
        if ph == AUCTION:
            assert self.auction is not None
            return [A.PlaceBid(p, self.auction.high + 1), A.PassAuction(p)]
        if ph == TURN:
            out = [A.Roll(p), A.EndTurn(p), A.PayFine(p), A.UseJailCard(p)]
            out += [A.AcceptTrade(p, o.id) for o in self.offers.values() if o.receiver == p]
            out += [A.DeclineTrade(p, o.id) for o in self.offers.values() if o.receiver == p]
        elif ph == BUY:
            out = [A.Buy(p), A.DeclineBuy(p)]
        elif ph == TRAVEL:
            out = [A.Travel(p, s) for s in self.stations] + [A.StayPut(p)]
        else:
            out = []
        for i in self.owned_by(p):
            out += [A.Build(p, i, "house"), A.Build(p, i, "hotel"), A.Build(p, i, "factory"),
                    A.SellBuilding(p, i), A.SellProperty(p, i), A.Mortgage(p, i), A.Repay(p, i)]
        return out

    # ------------------------------------------------------------ legality (one method per action)

    def _why_roll(self, a: A.Roll) -> str | None:
        if self.phase != TURN:
            return self._phase_reason()
        if not self.rolls_due:
            return "no roll is due; end the turn"
        return None

    def _why_end_turn(self, a: A.EndTurn) -> str | None:
        if self.phase != TURN:
            return self._phase_reason()
        if self.rolls_due:
            return "you still have to roll" + (" (you rolled doubles)" if self.doubles_count else "")
        return None

    def _why_buy(self, a: A.Buy) -> str | None:
        if self.phase != BUY:
            return "there is nothing to buy now"
        price = self.fields[self.pending_field].price
        if price > self.players[a.player].cash:
            return f"it costs {self.money(price)} and you have {self.money(self.players[a.player].cash)}"
        return None

    def _why_decline(self, a: A.DeclineBuy) -> str | None:
        return None if self.phase == BUY else "there is nothing to buy now"

    def _why_travel(self, a: A.Travel) -> str | None:
        if self.phase != TRAVEL:
            return "you can take the train only right after landing on a station"
        here = self.players[a.player].pos
        if a.field not in self.stations or a.field == here:
            return "the train goes only to another station"
        fare = self.train_fare(here, a.field)
        if fare > self.players[a.player].cash:
            return f"the fare is {self.money(fare)} and you have {self.money(self.players[a.player].cash)}"
        return None

    def _why_stay(self, a: A.StayPut) -> str | None:
        return None if self.phase == TRAVEL else "there is no train to decline"

    def _own_turn_reason(self, a: A.Action) -> str | None:
        if self.phase not in MANAGING or a.player != self.current:
            return "you can do that only on your own turn, outside an auction or a debt"
        return None

    def _why_build(self, a: A.Build) -> str | None:
        reason = self._own_turn_reason(a) or self._owns_street(a.player, a.field)
        if reason:
            return reason
        i, r = a.field, self.rules
        if not self.owns_group(a.player, i):
            return "you need the whole colour group"
        if any(self.mortgaged[j] for j in self.group_of[i]):
            return "a street of this group is mortgaged"
        if self.factory[i]:
            return "a factory is final; nothing can be built on it"
        levels = self._even_levels(i)
        if a.building == "factory":
            if not self.fields[i].factory_price:
                return "this street allows no factory"
            if self.level[i]:
                return "a factory goes only on a street with no building"
        elif a.building == "hotel":
            if not r.hotels or r.max_houses == 0:
                return "these rules have no hotels"
            if self.level[i] == self.hotel_level:
                return "there is a hotel already"
            if self.level[i] != r.max_houses or min(levels) < r.max_houses:
                return f"a hotel needs {r.max_houses} houses on every street of the group without a factory"
            if r.building_shortage and self.hotels_left < 1:
                return "the bank has no hotels left"
        elif a.building == "house":
            if self.level[i] >= r.max_houses:
                return f"a street holds at most {r.max_houses} houses"
            if self.level[i] > min(levels):
                return "you must build evenly across the group"
            if r.building_shortage and self.houses_left < 1:
                return "the bank has no houses left"
        else:
            return f"there is no building called {a.building!r}"
        cost = self.build_cost(i, a.building)
        if cost > self.players[a.player].cash:
            return f"it costs {self.money(cost)} and you have {self.money(self.players[a.player].cash)}"
        return None

    def _owns_street(self, player: int, i: int) -> str | None:
        if self.owner[i] != player:
            return "you do not own it"
        if self.fields[i].kind != "street":
            return "only streets take buildings"
        return None

    def _manage_reason(self, a: A.Action) -> str | None:
        """Selling and mortgaging: on one's own turn, or as the debtor in a debt (C11)."""
        if self.phase == DEBT:
            assert self.debt is not None
            return None if a.player == self.debt.payer else "only the debtor may sell now"
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
                return "selling the factory would leave the group uneven: sell the other streets down to one house first"
            return None
        if self.level[i] == self.hotel_level:
            return None
        if not self.level[i]:
            return "there is no building on it"
        if self.level[i] < max(self._even_levels(i)):
            return "you must sell evenly: sell from the most built street first"
        return None

    def _why_sell_property(self, a: A.SellProperty) -> str | None:
        reason = self._manage_reason(a)
        if reason:
            return reason
        if self.owner[a.field] != a.player:
            return "you do not own it"
        if self.mortgaged[a.field]:
            return "a mortgaged property cannot be sold to the bank"
        if self.group_has_buildings(a.field):
            return "sell the group's buildings first"
        return None

    def _why_mortgage(self, a: A.Mortgage) -> str | None:
        reason = self._manage_reason(a)
        if reason:
            return reason
        if self.rules.mortgage_when == "debt_only" and self.phase != DEBT:
            return "you may mortgage only to pay a debt that your cash cannot cover"
        if self.owner[a.field] != a.player:
            return "you do not own it"
        if self.mortgaged[a.field]:
            return "it is mortgaged already"
        if self.group_has_buildings(a.field):
            return "sell the group's buildings first"
        return None

    def _why_repay(self, a: A.Repay) -> str | None:
        reason = self._own_turn_reason(a)
        if reason:
            return reason
        if self.owner[a.field] != a.player:
            return "you do not own it"
        if not self.mortgaged[a.field]:
            return "it is not mortgaged"
        cost = self.repay_price(a.field)
        if cost > self.players[a.player].cash:
            return f"repaying costs {self.money(cost)} and you have {self.money(self.players[a.player].cash)}"
        return None

    def _prison_start_reason(self, a: A.Action) -> str | None:
        p = self.players[a.player]
        if self.phase != TURN or not p.in_prison:
            return "you are not in prison"
        if self.prison_tries:
            return "you have already rolled this turn"
        return None

    def _why_pay_fine(self, a: A.PayFine) -> str | None:
        reason = self._prison_start_reason(a)
        if reason:
            return reason
        p = self.players[a.player]
        if p.prison_turns >= self.rules.jail_fine_turns:
            return f"the fine may be paid only on the first {self.rules.jail_fine_turns} prison turns"
        if self.rules.jail_fine > p.cash:
            return f"the fine is {self.money(self.rules.jail_fine)} and you have {self.money(p.cash)}"
        return None

    def _why_jail_card(self, a: A.UseJailCard) -> str | None:
        reason = self._prison_start_reason(a)
        if reason:
            return reason
        return None if self.players[a.player].jail_cards else "you hold no Get-Out-of-Prison card"

    def _why_propose(self, a: A.ProposeTrade) -> str | None:
        if self.phase != TURN or a.player != self.current:
            return "offers are sent only on your own turn (L16)"
        if not isinstance(a.to, int) or not 0 <= a.to < len(self.players) or a.to == a.player or not self.players[a.to].active:
            return "choose another player who is still in the game"
        if not (a.give or a.take or a.cash or a.give_cards or a.take_cards):
            return "the offer is empty"
        offer = TradeOffer(0, a.player, a.to, tuple(a.give), tuple(a.take), a.cash, a.give_cards, a.take_cards)
        return self._offer_problem(offer)

    def _offer_problem(self, o: TradeOffer) -> str | None:
        """Why an offer does not match what the players own, or None (L16, C9)."""
        for name, fields_, who in (("give", o.give, o.proposer), ("take", o.take, o.receiver)):
            if len(set(fields_)) != len(fields_):
                return f"{name} lists a field twice"
            for i in fields_:
                if not isinstance(i, int) or not 0 <= i < len(self.fields) or self.owner[i] != who:
                    return f"{self._pname(who)} does not own {self._fname(i)}"
                req = self.rules.trade_requires
                if req == "unbuilt_property" and (self.level[i] or self.factory[i]):
                    return f"{self._fname(i)} has buildings on it"
                if req == "unbuilt_group" and self.group_has_buildings(i):
                    return f"{self._fname(i)}'s group has buildings on it"
        for n in (o.give_cards, o.take_cards):
            if not isinstance(n, int) or n < 0:
                return "card counts must be whole numbers of at least 0"
        if (o.give_cards or o.take_cards) and not self.rules.jail_cards_tradable:
            return "Get-Out-of-Prison cards cannot be traded under these rules"
        if o.give_cards > len(self.players[o.proposer].jail_cards) or o.take_cards > len(self.players[o.receiver].jail_cards):
            return "not enough Get-Out-of-Prison cards"
        payer = o.proposer if o.cash > 0 else o.receiver
        if abs(o.cash) > self.players[payer].cash:
            return f"{self.players[payer].name} does not have {self.money(abs(o.cash))}"
        return None

    def _offer_to(self, a: A.AcceptTrade | A.DeclineTrade) -> TradeOffer | str:
        if self.phase != TURN or a.player != self.current:
            return "offers are answered only on your own turn (L16)"
        o = self.offers.get(a.offer)
        if o is None or o.receiver != a.player:
            return f"there is no pending offer #{a.offer} to you"
        return o

    def _why_accept(self, a: A.AcceptTrade) -> str | None:
        o = self._offer_to(a)
        if isinstance(o, str):
            return o
        problem = self._offer_problem(o)
        return f"the offer has lapsed: {problem}" if problem else None

    def _why_decline_trade(self, a: A.DeclineTrade) -> str | None:
        o = self._offer_to(a)
        return o if isinstance(o, str) else None

    def _why_bid(self, a: A.PlaceBid) -> str | None:
        au = self.auction
        if self.phase != AUCTION or au is None:
            return "there is no auction"
        if a.amount <= au.high:
            return f"a bid must be more than {self.money(au.high)}"
        if not self._covers(self.players[a.player].cash - a.amount):
            return f"you have only {self.money(self.players[a.player].cash)}"
        return None

    def _why_pass_auction(self, a: A.PassAuction) -> str | None:
        return None if self.phase == AUCTION else "there is no auction"

    def _why_claim(self, a: A.ClaimRent) -> str | None:
        if self.phase not in MANAGING:
            return "rent can be claimed once the current decision is made"
        if not any(o == a.player and f == a.field for (_, o, f, _) in self.claims):
            return "no rent is waiting to be claimed for that field"
        return None

    def _phase_reason(self) -> str:
        return {
            BUY: "first decide whether to buy", TRAVEL: "first decide whether to take the train",
            AUCTION: "an auction is running", DEBT: "a debt must be paid first",
        }.get(self.phase, "not now")


#: One check per action type, looked up by ``type(action)``.
_CHECKS: dict[type[A.Action], Callable[[Legality, Any], str | None]] = dict([
    A.per_action(A.Roll, Legality._why_roll), A.per_action(A.EndTurn, Legality._why_end_turn),
    A.per_action(A.Buy, Legality._why_buy), A.per_action(A.DeclineBuy, Legality._why_decline),
    A.per_action(A.Travel, Legality._why_travel), A.per_action(A.StayPut, Legality._why_stay),
    A.per_action(A.Build, Legality._why_build), A.per_action(A.SellBuilding, Legality._why_sell_building),
    A.per_action(A.SellProperty, Legality._why_sell_property), A.per_action(A.Mortgage, Legality._why_mortgage),
    A.per_action(A.Repay, Legality._why_repay), A.per_action(A.PayFine, Legality._why_pay_fine),
    A.per_action(A.UseJailCard, Legality._why_jail_card), A.per_action(A.ProposeTrade, Legality._why_propose),
    A.per_action(A.AcceptTrade, Legality._why_accept), A.per_action(A.DeclineTrade, Legality._why_decline_trade),
    A.per_action(A.PlaceBid, Legality._why_bid), A.per_action(A.PassAuction, Legality._why_pass_auction),
    A.per_action(A.ClaimRent, Legality._why_claim),
])

#: The fields of each action type that must hold a whole number, in the order they are checked.
_WHOLE_NUMBERS: dict[type[A.Action], tuple[str, ...]] = {
    kind: tuple(n for n in ("field", "to", "offer", "amount", "cash", "give_cards", "take_cards") if n in kind.__slots__)
    for kind in _CHECKS
}
