"""The decisions: what each action does once it is known to be legal (the *effect* of its registry entry).

One ``do_<action>`` function per action type over a :class:`~laspoly.engine.gamestate.GameState`
(the roll's is :func:`~laspoly.engine.turns.do_roll`), the bids of an auction, and the start of a game
(:func:`begin`).
"""

from __future__ import annotations

from laspoly.engine import actions as A
from laspoly.engine import events as E
from laspoly.engine.base import build_cost, hotel_price, house_price, repay_price, train_fare
from laspoly.engine.events import BANK
from laspoly.engine.gamestate import GameState
from laspoly.engine.payments import (
    after_landing,
    charge,
    clear_buildings,
    emit,
    end_auction,
    end_move,
    move_money,
    next_turn,
    pay_voluntary,
    set_level,
    set_owner,
    settle_debt_if_covered,
    start_auction,
    start_turn,
)
from laspoly.engine.state import DEBT, TradeOffer
from laspoly.engine.turns import free, resume_after_debt

# ------------------------------------------------------------ the start of a game


def begin(s: GameState) -> None:
    n = len(s.players)
    if s.rules.first_player == "roll_off":
        s.first = roll_off(s, list(range(n)))
    else:
        s.first = s.chance.choice_index(n)
    emit(s, E.GameStarted(s.first))
    start_turn(s, s.first)


def roll_off(s: GameState, seats: list[int]) -> int:
    """C10: everyone rolls; the highest total starts; ties roll again."""
    while True:
        totals = {}
        for i in seats:
            d1, d2 = s.chance.roll()
            emit(s, E.Rolled(i, d1, d2))
            totals[i] = d1 + d2
        best = max(totals.values())
        seats = [i for i in seats if totals[i] == best]
        if len(seats) == 1:
            return seats[0]


# ------------------------------------------------------------ decisions


def do_end_turn(s: GameState, a: A.EndTurn) -> None:
    next_turn(s)


def do_buy(s: GameState, a: A.Buy) -> None:
    i = s.pending_field
    price = s.fields[i].price
    end_move(s)
    set_owner(s, i, a.player)
    if s.record_events or s.observer is not None:
        emit(s, E.Bought(a.player, i, price))
    if pay_voluntary(s, a.player, BANK, price):
        after_landing(s, s.players[a.player])


def do_decline(s: GameState, a: A.DeclineBuy) -> None:
    i = s.pending_field
    if s.record_events or s.observer is not None:
        emit(s, E.Declined(a.player, i))
    if s.rules.auctions:
        start_auction(s, i, then="after_landing")
    else:
        after_landing(s, s.players[a.player])


def do_travel(s: GameState, a: A.Travel) -> None:
    p = s.players[a.player]
    src = p.pos
    fare = train_fare(s, src, a.field)
    p.pos = a.field
    emit(s, E.Travelled(a.player, src, a.field, fare))
    end_move(s)
    pay_voluntary(s, a.player, BANK, fare)


def do_stay(s: GameState, a: A.StayPut) -> None:
    end_move(s)


def do_build(s: GameState, a: A.Build) -> None:
    i = a.field
    cost = build_cost(s, i, a.building)
    if a.building == "factory":
        s.factory[i] = True
        s.factories += 1
    elif a.building == "hotel":
        set_level(s, i, s.hotel_level)
    else:
        set_level(s, i, s.level[i] + 1)
    if s.record_events or s.observer is not None:
        emit(s, E.Built(a.player, i, a.building, cost))
    pay_voluntary(s, a.player, BANK, cost)


def do_sell_building(s: GameState, a: A.SellBuilding) -> None:
    i = a.field
    if s.factory[i]:
        s.factory[i] = False
        s.factories -= 1
        kind, refund = "factory", s.fields[i].factory_price // 2
    elif s.level[i] == s.hotel_level:
        # with a building shortage, the hotel comes down to the houses the bank still has
        houses = min(s.rules.max_houses, s.houses_left) if s.rules.building_shortage else s.rules.max_houses
        set_level(s, i, houses)
        kind = "hotel"
        refund = hotel_price(s, i) // 2 + (s.rules.max_houses - houses) * (house_price(s, i) // 2)
    else:
        set_level(s, i, s.level[i] - 1)
        kind, refund = "house", house_price(s, i) // 2
    move_money(s, BANK, a.player, refund)
    if s.record_events or s.observer is not None:
        emit(s, E.SoldBuilding(a.player, i, kind, refund))
    after_raise(s)


def do_sell_property(s: GameState, a: A.SellProperty) -> None:
    i = a.field
    refund = s.fields[i].price // 2
    set_owner(s, i, -1)
    move_money(s, BANK, a.player, refund)
    emit(s, E.SoldProperty(a.player, i, refund))
    after_raise(s)


def do_mortgage(s: GameState, a: A.Mortgage) -> None:
    i = a.field
    amount = s.fields[i].mortgage
    s.mortgaged[i] = True
    move_money(s, BANK, a.player, amount)
    if s.record_events or s.observer is not None:
        emit(s, E.Mortgaged(a.player, i, amount))
    after_raise(s)


def after_raise(s: GameState) -> None:
    if s.phase == DEBT:
        paid = settle_debt_if_covered(s)
        if paid is not None:
            resume_after_debt(s, paid.then, paid.payer)


def do_repay(s: GameState, a: A.Repay) -> None:
    cost = repay_price(s, a.field)
    s.mortgaged[a.field] = False
    emit(s, E.Repaid(a.player, a.field, cost))
    pay_voluntary(s, a.player, BANK, cost)


def do_pay_fine(s: GameState, a: A.PayFine) -> None:
    p = s.players[a.player]
    free(s, p, "fine")
    emit(s, E.Paid(a.player, BANK, s.rules.jail_fine, "fine", -1))
    pay_voluntary(s, a.player, BANK, s.rules.jail_fine)


def do_jail_card(s: GameState, a: A.UseJailCard) -> None:
    p = s.players[a.player]
    deck, card = p.jail_cards.pop(0)
    if s.rules.card_draw == "cycle":
        s.decks[deck].append(card)
    free(s, p, "jail_card")


def do_propose(s: GameState, a: A.ProposeTrade) -> None:
    k = s.next_offer
    s.next_offer += 1
    s.offers[k] = TradeOffer(k, a.player, a.to, tuple(a.give), tuple(a.take), a.cash, a.give_cards, a.take_cards)
    emit(s, E.TradeProposed(a.player, a.to, k))


def do_accept(s: GameState, a: A.AcceptTrade) -> None:
    o = s.offers.pop(a.offer)
    emit(s, E.TradeAccepted(a.player, o.proposer, o.id))
    for i in o.give:
        transfer_property(s, i, o.receiver)
    for i in o.take:
        transfer_property(s, i, o.proposer)
    for _ in range(o.give_cards):
        s.players[o.receiver].jail_cards.append(s.players[o.proposer].jail_cards.pop())
    for _ in range(o.take_cards):
        s.players[o.proposer].jail_cards.append(s.players[o.receiver].jail_cards.pop())
    if o.cash:
        payer, payee = (o.proposer, o.receiver) if o.cash > 0 else (o.receiver, o.proposer)
        emit(s, E.Paid(payer, payee, abs(o.cash), "trade", -1))
        pay_voluntary(s, payer, payee, abs(o.cash))


def transfer_property(s: GameState, i: int, to: int) -> None:
    """L16/S6: mortgages go along; buildings are lost when the rules say so."""
    set_owner(s, i, to)
    if s.rules.upgrades_lost_on_sale:
        clear_buildings(s, i)


def do_decline_trade(s: GameState, a: A.DeclineTrade) -> None:
    o = s.offers.pop(a.offer)
    emit(s, E.TradeDeclined(a.player, o.proposer, o.id))


def do_claim(s: GameState, a: A.ClaimRent) -> None:
    for k, (payer, o, f, amount) in enumerate(s.claims):
        if o == a.player and f == a.field:
            del s.claims[k]
            charge(s, payer, [(o, amount)], "rent", f, "resume")
            return


# ------------------------------------------------------------ auctions (C2, C8)


def do_bid(s: GameState, a: A.PlaceBid) -> None:
    au = s.auction
    assert au is not None
    au.high, au.high_bidder = a.amount, a.player
    if s.record_events or s.observer is not None:
        emit(s, E.Bid(a.player, a.amount))
    next_bidder(s)


def do_pass_auction(s: GameState, a: A.PassAuction) -> None:
    if s.record_events or s.observer is not None:
        emit(s, E.AuctionPassed(a.player))
    leave_auction(s, a.player)


def leave_auction(s: GameState, player: int) -> None:
    au = s.auction
    assert au is not None
    k = au.bidders.index(player)
    au.bidders.pop(k)
    if au.high_bidder == player:
        au.high, au.high_bidder = 0, -1
    if k < au.turn:
        au.turn -= 1
    au.turn -= 1
    next_bidder(s)


def next_bidder(s: GameState) -> None:
    au = s.auction
    assert au is not None
    others = [b for b in au.bidders if b != au.high_bidder]
    if not others:
        end_auction(s)
        return
    au.turn = (au.turn + 1) % len(au.bidders)
    if au.bidders[au.turn] == au.high_bidder:
        au.turn = (au.turn + 1) % len(au.bidders)
