"""The questions asked of a game's state: owners, buildings, prices, rent, net worth, snapshots and digests.

Functions over a :class:`~laspoly.engine.gamestate.GameState` that change nothing; every rule module
above asks them, and :class:`~laspoly.engine.game.Game` and the
:class:`~laspoly.engine.observation.Observation` answer them through here.
"""

from __future__ import annotations

import hashlib
import json
from itertools import compress, count
from typing import Any

from laspoly.engine import actions as A
from laspoly.engine.gamestate import GameState
from laspoly.engine.state import AUCTION, DEBT, OVER


def actor(s: GameState) -> int:
    """The player who must decide now (the debtor or bidder, else the current player)."""
    if s.phase == DEBT:
        d = s.debt
        assert d is not None  # a debt phase has its debt
        return d.payer
    if s.phase == AUCTION:
        a = s.auction
        assert a is not None  # an auction phase has its auction
        return a.bidders[a.turn]
    return s.current


def is_over(s: GameState) -> bool:
    """True once the game has a winner."""
    return s.phase == OVER


def active_players(s: GameState) -> list[int]:
    """Indices of the players still in the game."""
    return [p.index for p in s.players if p.active]


def owned_by(s: GameState, player: int) -> list[int]:
    """Fields owned by ``player``, in board order."""
    return list(compress(count(), map(player.__eq__, s.owner)))  # the loop runs in C: asked every turn with factories


def owns_group(s: GameState, player: int, index: int) -> bool:
    """True if ``player`` owns every street of ``index``'s colour group."""
    owner = s.owner
    for j in s.group_of[index]:  # a loop, not all() over a generator: rent asks this on most landings
        if owner[j] != player:
            return False
    return True


def group_has_buildings(s: GameState, index: int) -> bool:
    """True if any street of ``index``'s group has a house, hotel or factory."""
    return any(s.level[j] or s.factory[j] for j in s.group_of[index])


def house_price(s: GameState, index: int) -> int:
    """What one house costs on this street (C5: the mortgage value in ``classic``)."""
    f = s.fields[index]
    return f.mortgage if s.rules.house_price == "mortgage_value" else f.house_price


def hotel_price(s: GameState, index: int) -> int:
    """What the hotel costs on top of the houses (C5: one more house)."""
    f = s.fields[index]
    return f.mortgage if s.rules.house_price == "mortgage_value" else f.hotel_price


def build_cost(s: GameState, index: int, building: str) -> int:
    """What a house, hotel or factory costs on this street."""
    if building == "factory":
        return s.fields[index].factory_price
    return hotel_price(s, index) if building == "hotel" else house_price(s, index)


def cost_of(s: GameState, action: A.Action) -> int:
    """What a voluntary action would take from the player's cash now (0 for actions that pay nothing).

    This is the amount L19 looks at: a voluntary payment that leaves exactly zero puts the player out.
    """
    if isinstance(action, A.Buy):
        return s.fields[s.pending_field].price if s.pending_field >= 0 else 0
    if isinstance(action, A.Build):
        return build_cost(s, action.field, action.building)
    if isinstance(action, A.Repay):
        return repay_price(s, action.field)
    if isinstance(action, A.Travel):
        return train_fare(s, s.players[action.player].pos, action.field)
    if isinstance(action, A.PayFine):
        return s.rules.jail_fine
    if isinstance(action, A.PlaceBid):
        return action.amount
    if isinstance(action, A.AcceptTrade) and action.offer in s.offers:
        return max(0, -s.offers[action.offer].cash)
    if isinstance(action, A.ProposeTrade):
        return max(0, action.cash)
    return 0


def repay_price(s: GameState, index: int) -> int:
    """Mortgage value plus interest rounded up (L18) plus any flat fee (S7)."""
    m = s.fields[index].mortgage
    return m + -(-m * s.rules.mortgage_interest_percent // 100) + s.rules.mortgage_fee


def building_value(s: GameState, index: int) -> int:
    """What the buildings on ``index`` cost, at full price."""
    lvl = s.level[index]
    if s.factory[index]:
        return s.fields[index].factory_price
    if lvl == s.hotel_level:
        return s.rules.max_houses * house_price(s, index) + hotel_price(s, index)
    return lvl * house_price(s, index)


def liquidation_value(s: GameState, player: int) -> int:
    """Cash the player could raise by selling every building and mortgaging or selling every property."""
    total = 0
    for i in owned_by(s, player):
        f = s.fields[i]
        total += building_refund_all(s, i)
        if not s.mortgaged[i]:
            total += max(f.mortgage, f.price // 2)
    return total


def building_refund_all(s: GameState, index: int) -> int:
    lvl = s.level[index]
    if s.factory[index]:
        return s.fields[index].factory_price // 2
    if lvl == s.hotel_level:
        return hotel_price(s, index) // 2 + s.rules.max_houses * (house_price(s, index) // 2)
    return lvl * (house_price(s, index) // 2)


def net_worth(s: GameState, player: int) -> int:
    """L20: cash, plus property prices less mortgage values, plus buildings at their price."""
    p = s.players[player]
    if not p.active:
        return 0
    total = p.cash
    for i in owned_by(s, player):
        f = s.fields[i]
        total += f.price - (f.mortgage if s.mortgaged[i] else 0) + building_value(s, i)
    return total


def rent(s: GameState, index: int, dice_total: int | None = None) -> int:
    """Rent due on ``index`` now, for a lander who rolled ``dice_total`` (L5-L7, C3-C4, S1)."""
    o = s.owner[index]
    if o < 0 or s.mortgaged[index]:
        return 0
    f = s.fields[index]
    kind = f.kind
    if kind == "street":
        if s.factory[index]:
            return 0
        lvl = s.level[index]
        if lvl:
            return f.rents[min(lvl, len(f.rents) - 1)]
        base = f.rents[0]
        return base * 2 if s.rules.group_doubles_rent and owns_group(s, o, index) else base
    if kind == "station":
        n = sum(1 for j in s.stations if s.owner[j] == o)
        r = s.rules
        if r.station_rent == "linear":
            return r.station_base_rent * n
        doubling: int = 2 ** (n - 1 if r.station_rent == "doubling" else n)  # n >= 1: a whole number
        return r.station_base_rent * doubling
    n = sum(1 for j in s.attractions if s.owner[j] == o)
    mult = s.rules.attraction_all if n == len(s.attractions) else s.rules.attraction_one
    return mult * (sum(s.dice) if dice_total is None else dice_total)


def train_fare(s: GameState, src: int, dst: int) -> int:
    """L10: 75 for each station passed in the direction of movement."""
    st = s.stations
    hops = (st.index(dst) - st.index(src)) % len(st)
    return s.rules.train_fare * hops


def covers(s: GameState, balance: int) -> bool:
    """Whether a balance after a payment keeps the player in (L19: hitting zero is out)."""
    return balance >= s.min_cash


def snapshot(s: GameState) -> dict[str, Any]:
    """The whole state as plain data: equal snapshots mean equal games."""
    return {
        "players": [p.snapshot() for p in s.players],
        "owner": list(s.owner), "level": list(s.level), "factory": list(s.factory),
        "mortgaged": list(s.mortgaged),
        "pot": s.pot, "bank": s.bank, "houses_left": s.houses_left, "hotels_left": s.hotels_left, "decks": {k: list(v) for k, v in s.decks.items()},
        "current": s.current, "phase": s.phase, "rolls_due": s.rolls_due,
        "doubles_count": s.doubles_count, "prison_tries": s.prison_tries, "dice": list(s.dice),
        "round": s.round, "turns": s.turns, "pending_field": s.pending_field,
        "offers": [[o.id, o.proposer, o.receiver, list(o.give), list(o.take), o.cash, o.give_cards, o.take_cards]
                   for o in s.offers.values()],
        "claims": [list(c) for c in s.claims], "collect_queue": [list(c) for c in s.collect_queue],
        "winner": s.winner, "end_reason": s.end_reason,
        "debt": None if s.debt is None else [s.debt.payer, s.debt.total, s.debt.then],
        "auction": None if s.auction is None else [s.auction.field, list(s.auction.bidders), s.auction.high, s.auction.high_bidder],
        "chance_next": s.chance.getstate()[1], "history": len(s.history),
    }


def digest(s: GameState) -> str:
    """A short fingerprint of the state and the generator, stored in save files."""
    data = json.dumps(snapshot(s), sort_keys=True, separators=(",", ":"))
    rng = repr(s.chance.getstate()[0])
    return hashlib.sha256((data + rng).encode()).hexdigest()[:32]


def total_money(s: GameState) -> int:
    """Players' cash plus the pot plus the bank's takings: constant over a game."""
    return sum(p.cash for p in s.players) + s.pot + s.bank
