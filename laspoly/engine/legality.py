"""Legality, decided in one place: one ``why_<action>`` function per action type.

Each returns the reason an action is not allowed now, in plain words, or ``None``
when it is legal; it is the *check* of the action's entry in :mod:`~laspoly.engine.registry`.
:func:`legal_actions` enumerates the entries' candidates through the same
functions, and the dashboard's buttons show their words.
"""

from __future__ import annotations

from typing import Any, Final

from laspoly.engine import actions as A
from laspoly.engine import events as E
from laspoly.engine.base import actor, build_cost, covers, group_has_buildings, owned_by, owns_group, repay_price, train_fare
from laspoly.engine.gamestate import GameState
from laspoly.engine.reasons import refusal
from laspoly.engine.registry import ANY_SEAT_MAKERS, CHECKS, FIELD_PHASES, PHASE_PARTS, WHOLE_NUMBERS, field_actions
from laspoly.engine.state import AUCTION, BUYING, DEBT, MANAGING, OVER, TRAVEL, TURN, TradeOffer
from laspoly.engine.wording import Names


def is_legal(s: GameState, action: A.Action) -> bool:
    """True if :meth:`apply` would accept ``action`` now: :meth:`why_illegal` without wording the refusal."""
    s.quiet += 1
    try:
        return why_illegal(s, action) is None
    finally:
        s.quiet -= 1


def refuse(s: GameState, key: str, **values: Any) -> str:
    """The refusal ``key`` in words, or only the fact of it while the state is ``quiet`` (a bot asking, a list made)."""
    return _QUIET_REFUSAL if s.quiet else refusal(Names(s), key, **values)


def why_illegal(s: GameState, action: Any) -> str | None:
    """The reason ``action`` is not allowed now, in plain words, or None if it is legal."""
    if not isinstance(action, A.Action) or type(action) not in CHECKS:
        return refuse(s, "action.unknown", action=repr(action))
    p = action.player
    if not isinstance(p, int) or isinstance(p, bool) or not 0 <= p < len(s.players):
        return refuse(s, "action.no_player", number=E.player_number(p), count=len(s.players))
    if s.phase == OVER:
        return refuse(s, "game.over")
    if not s.players[p].active:
        return refuse(s, "player.out")
    if not isinstance(action, A.ClaimRent) and p != actor(s):
        return refuse(s, "turn.not_yours", who=actor(s))
    fld: int | None = None  # the action's field, read with its other numbers (a getattr with a default missed on most)
    for name in WHOLE_NUMBERS[type(action)]:
        v = getattr(action, name)
        if not isinstance(v, int) or isinstance(v, bool):
            return refuse(s, "action.whole_number", name=name)
        if name == "field":
            fld = v
    if fld is not None and not 0 <= fld < len(s.fields):
        return refuse(s, "action.no_field", value=str(fld))
    return CHECKS[type(action)](s, action)


def legal_actions(s: GameState, player: int | None = None) -> list[A.Action]:
    """Every legal action of ``player`` (default: the actor), except open-ended trade offers.

    Trade proposals cannot be listed (any mix of properties and cash); check
    one with :meth:`why_illegal`.  In an auction the minimum bid stands for
    every bid up to the bidder's cash.
    """
    if s.phase == OVER:
        return []
    p = actor(s) if player is None else player
    candidates: list[A.Action] = []
    for make in ANY_SEAT_MAKERS:
        candidates += make(s, p)
    if p == actor(s):
        candidates += mover_candidates(s, p)
    s.quiet += 1
    try:
        return [a for a in candidates if why_illegal(s, a) is None]
    finally:
        s.quiet -= 1


def mover_candidates(s: GameState, p: int) -> list[A.Action]:
    """The candidates of the player to move: the current phase's entries, then the entries on each owned field."""
    ph = s.phase
    out: list[A.Action] = []
    parts = PHASE_PARTS.get(ph)
    if parts is not None:
        for part in parts:
            if part.seats is not None:
                out += part.seats[p]  # the shared per-seat values
            elif part.make is not None:
                out += part.make(s, p)
    if ph in FIELD_PHASES:
        for i in owned_by(s, p):
            out += field_actions(p, i)  # the shared per-seat values
    return out


def why_roll(s: GameState, a: A.Roll) -> str | None:
    if s.phase != TURN:
        return phase_reason(s)
    if not s.rolls_due:
        return refuse(s, "roll.not_due")
    return None


def why_end_turn(s: GameState, a: A.EndTurn) -> str | None:
    if s.phase != TURN:
        return phase_reason(s)
    if s.rolls_due:
        return refuse(s, "end.must_roll_doubles" if s.doubles_count else "end.must_roll")
    return None


def why_buy(s: GameState, a: A.Buy) -> str | None:
    if s.phase != BUYING:
        return refuse(s, "buy.nothing")
    price = s.fields[s.pending_field].price
    if price > s.players[a.player].cash:
        return refuse(s, "money.short", cost=price, cash=s.players[a.player].cash)
    return None


def why_decline(s: GameState, a: A.DeclineBuy) -> str | None:
    return None if s.phase == BUYING else refuse(s, "buy.nothing")


def why_travel(s: GameState, a: A.Travel) -> str | None:
    if s.phase != TRAVEL:
        return refuse(s, "travel.not_now")
    here = s.players[a.player].pos
    if a.field not in s.stations or a.field == here:
        return refuse(s, "travel.other_station")
    fare = train_fare(s, here, a.field)
    if fare > s.players[a.player].cash:
        return refuse(s, "travel.fare", fare=fare, cash=s.players[a.player].cash)
    return None


def why_stay(s: GameState, a: A.StayPut) -> str | None:
    return None if s.phase == TRAVEL else refuse(s, "travel.none")


def own_turn_reason(s: GameState, a: A.Action) -> str | None:
    if s.phase not in MANAGING or a.player != s.current:
        return refuse(s, "manage.own_turn")
    return None


def why_build(s: GameState, a: A.Build) -> str | None:
    reason = own_turn_reason(s, a) or owns_street(s, a.player, a.field)
    if reason:
        return reason
    i, r = a.field, s.rules
    if not owns_group(s, a.player, i):
        return refuse(s, "build.whole_group")
    mortgaged = s.mortgaged
    for j in s.group_of[i]:  # a plain loop: a bot asks before every building
        if mortgaged[j]:
            return refuse(s, "build.group_mortgaged")
    if s.factory[i]:
        return refuse(s, "build.factory_final")
    levels = even_levels(s, i)
    if a.building == "factory":
        if not s.fields[i].factory_price:
            return refuse(s, "build.no_factory")
        if s.level[i]:
            return refuse(s, "build.factory_unbuilt")
    elif a.building == "hotel":
        if not r.hotels or r.max_houses == 0:
            return refuse(s, "build.no_hotels")
        if s.level[i] == s.hotel_level:
            return refuse(s, "build.has_hotel")
        if s.level[i] != r.max_houses or min(levels) < r.max_houses:
            return refuse(s, "build.hotel_needs", n=r.max_houses)
        if r.building_shortage and s.hotels_left < 1:
            return refuse(s, "build.no_hotels_left")
    elif a.building == "house":
        if s.level[i] >= r.max_houses:
            return refuse(s, "build.max_houses", n=r.max_houses)
        if s.level[i] > min(levels):
            return refuse(s, "build.evenly")
        if r.building_shortage and s.houses_left < 1:
            return refuse(s, "build.no_houses_left")
    else:
        return refuse(s, "build.unknown", building=repr(a.building))
    cost = build_cost(s, i, a.building)
    if cost > s.players[a.player].cash:
        return refuse(s, "money.short", cost=cost, cash=s.players[a.player].cash)
    return None


def owns_street(s: GameState, player: int, i: int) -> str | None:
    if s.owner[i] != player:
        return refuse(s, "own.not_owner")
    if s.fields[i].kind != "street":
        return refuse(s, "own.not_street")
    return None


def manage_reason(s: GameState, a: A.Action) -> str | None:
    """Selling and mortgaging: on one's own turn, or as the debtor in a debt (C11)."""
    if s.phase == DEBT:
        assert s.debt is not None
        return None if a.player == s.debt.payer else refuse(s, "debt.only_debtor")
    return own_turn_reason(s, a)


def even_levels(s: GameState, i: int, besides: int | None = None) -> list[int]:
    """The building levels that building and selling keep even (L17): the streets of ``i``'s group
    without a factory (L12), leaving out ``besides``."""
    return [s.level[j] for j in s.group_of[i] if not s.factory[j] and j != besides]


def why_sell_building(s: GameState, a: A.SellBuilding) -> str | None:
    reason = manage_reason(s, a) or owns_street(s, a.player, a.field)
    if reason:
        return reason
    i = a.field
    if s.factory[i]:
        # L12 with L17: the street comes back unbuilt and rejoins the group's evenness, so the sale
        # must keep the group even: the other streets without a factory hold at most one house
        if max(even_levels(s, i, besides=i), default=0) > 1:
            return refuse(s, "sell.factory_uneven")
        return None
    if s.level[i] == s.hotel_level:
        return None
    if not s.level[i]:
        return refuse(s, "sell.no_building")
    if s.level[i] < max(even_levels(s, i)):
        return refuse(s, "sell.evenly")
    return None


def why_sell_property(s: GameState, a: A.SellProperty) -> str | None:
    reason = manage_reason(s, a)
    if reason:
        return reason
    if s.owner[a.field] != a.player:
        return refuse(s, "own.not_owner")
    if s.mortgaged[a.field]:
        return refuse(s, "sell.mortgaged")
    if group_has_buildings(s, a.field):
        return refuse(s, "sell.buildings_first")
    return None


def why_mortgage(s: GameState, a: A.Mortgage) -> str | None:
    reason = manage_reason(s, a)
    if reason:
        return reason
    if s.rules.mortgage_when == "debt_only" and s.phase != DEBT:
        return refuse(s, "mortgage.debt_only")
    if s.owner[a.field] != a.player:
        return refuse(s, "own.not_owner")
    if s.mortgaged[a.field]:
        return refuse(s, "mortgage.already")
    if group_has_buildings(s, a.field):
        return refuse(s, "sell.buildings_first")
    return None


def why_repay(s: GameState, a: A.Repay) -> str | None:
    reason = own_turn_reason(s, a)
    if reason:
        return reason
    if s.owner[a.field] != a.player:
        return refuse(s, "own.not_owner")
    if not s.mortgaged[a.field]:
        return refuse(s, "repay.not_mortgaged")
    cost = repay_price(s, a.field)
    if cost > s.players[a.player].cash:
        return refuse(s, "repay.cost", cost=cost, cash=s.players[a.player].cash)
    return None


def prison_start_reason(s: GameState, a: A.Action) -> str | None:
    p = s.players[a.player]
    if s.phase != TURN or not p.in_prison:
        return refuse(s, "prison.not_in")
    if s.prison_tries:
        return refuse(s, "prison.rolled")
    return None


def why_pay_fine(s: GameState, a: A.PayFine) -> str | None:
    reason = prison_start_reason(s, a)
    if reason:
        return reason
    p = s.players[a.player]
    if p.prison_turns >= s.rules.jail_fine_turns:
        return refuse(s, "prison.fine_turns", n=s.rules.jail_fine_turns)
    if s.rules.jail_fine > p.cash:
        return refuse(s, "prison.fine", fine=s.rules.jail_fine, cash=p.cash)
    return None


def why_jail_card(s: GameState, a: A.UseJailCard) -> str | None:
    reason = prison_start_reason(s, a)
    if reason:
        return reason
    return None if s.players[a.player].jail_cards else refuse(s, "prison.no_card")


def why_propose(s: GameState, a: A.ProposeTrade) -> str | None:
    if s.phase != TURN or a.player != s.current:
        return refuse(s, "trade.own_turn")
    if not isinstance(a.to, int) or not 0 <= a.to < len(s.players) or a.to == a.player or not s.players[a.to].active:
        return refuse(s, "trade.other_player")
    if not (a.give or a.take or a.cash or a.give_cards or a.take_cards):
        return refuse(s, "trade.empty")
    offer = TradeOffer(0, a.player, a.to, tuple(a.give), tuple(a.take), a.cash, a.give_cards, a.take_cards)
    return offer_problem(s, offer)


def offer_problem(s: GameState, o: TradeOffer) -> str | None:
    """Why an offer does not match what the players own, or None (L16, C9)."""
    for name, fields_, who in (("give", o.give, o.proposer), ("take", o.take, o.receiver)):
        if len(set(fields_)) != len(fields_):
            return refuse(s, f"trade.twice_{name}")
        for i in fields_:
            if not isinstance(i, int) or not 0 <= i < len(s.fields) or s.owner[i] != who:
                known = isinstance(i, int) and 0 <= i < len(s.fields)
                return refuse(s, "trade.not_owner", who=who, field=i if known else f"field {i!r}")
            req = s.rules.trade_requires
            if req == "unbuilt_property" and (s.level[i] or s.factory[i]):
                return refuse(s, "trade.built", field=i)
            if req == "unbuilt_group" and group_has_buildings(s, i):
                return refuse(s, "trade.group_built", field=i)
    for n in (o.give_cards, o.take_cards):
        if not isinstance(n, int) or n < 0:
            return refuse(s, "trade.card_counts")
    if (o.give_cards or o.take_cards) and not s.rules.jail_cards_tradable:
        return refuse(s, "trade.cards_not_tradable")
    if o.give_cards > len(s.players[o.proposer].jail_cards) or o.take_cards > len(s.players[o.receiver].jail_cards):
        return refuse(s, "trade.not_enough_cards")
    payer = o.proposer if o.cash > 0 else o.receiver
    if abs(o.cash) > s.players[payer].cash:
        return refuse(s, "trade.cash_short", who=payer, amount=abs(o.cash))
    return None


def offer_to(s: GameState, a: A.AcceptTrade | A.DeclineTrade) -> TradeOffer | str:
    if s.phase != TURN or a.player != s.current:
        return refuse(s, "trade.answer_own_turn")
    o = s.offers.get(a.offer)
    if o is None or o.receiver != a.player:
        return refuse(s, "trade.no_offer", offer=a.offer)
    return o


def why_accept(s: GameState, a: A.AcceptTrade) -> str | None:
    o = offer_to(s, a)
    if isinstance(o, str):
        return o
    problem = offer_problem(s, o)
    return refuse(s, "trade.lapsed", problem=problem) if problem else None


def why_decline_trade(s: GameState, a: A.DeclineTrade) -> str | None:
    o = offer_to(s, a)
    return o if isinstance(o, str) else None


def why_bid(s: GameState, a: A.PlaceBid) -> str | None:
    au = s.auction
    if s.phase != AUCTION or au is None:
        return refuse(s, "auction.none")
    if a.amount <= au.high:
        return refuse(s, "auction.low_bid", amount=au.high)
    if not covers(s, s.players[a.player].cash - a.amount):
        return refuse(s, "auction.cash", cash=s.players[a.player].cash)
    return None


def why_pass_auction(s: GameState, a: A.PassAuction) -> str | None:
    return None if s.phase == AUCTION else refuse(s, "auction.none")


def why_claim(s: GameState, a: A.ClaimRent) -> str | None:
    if s.phase not in MANAGING:
        return refuse(s, "claim.not_now")
    if not any(o == a.player and f == a.field for (_, o, f, _) in s.claims):
        return refuse(s, "claim.nothing")
    return None


def phase_reason(s: GameState) -> str:
    key = {BUYING: "phase.buy", TRAVEL: "phase.travel", AUCTION: "phase.auction", DEBT: "phase.debt"}.get(s.phase, "phase.other")
    return refuse(s, key)


#: What a check returns while the game is quiet: a refusal nobody will read.
_QUIET_REFUSAL: Final = "refused"
