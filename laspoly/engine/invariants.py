"""Invariants every game must keep, checked by the tests and the soak run.

Two levels:

* :func:`always_problems` holds after every single event, even in the middle
  of an action: money is conserved, ownership and buildings are legal, the pot
  is never negative.
* :func:`problems` adds what holds between actions: every active player is
  above the preset's elimination line, and the actor is an active player.

:class:`~laspoly.engine.checked.CheckedGame` is a game whose observer runs the
first after every event and raises :class:`InvariantError` at the first broken
one.  The checks only read a game's state (or a game, through its state), so this
module sits below the game's own (the position format checks positions with them
before a game plays on).
"""

from __future__ import annotations

from laspoly.engine import events as E
from laspoly.engine.base import active_players, actor, covers, total_money
from laspoly.engine.gamestate import GameState, HasState, state_of
from laspoly.engine.native import mypyc_attr
from laspoly.engine.state import OVER


@mypyc_attr(native_class=False)  # a compiled class cannot subclass AssertionError
class InvariantError(AssertionError):
    """An invariant of the rules broke: a bug in the engine, never bad input."""


#: Events after which ownership, buildings or cards may have changed.
STRUCTURE_EVENTS = (
    E.Bought, E.Built, E.SoldBuilding, E.SoldProperty, E.Mortgaged, E.Repaid, E.TradeAccepted,
    E.Eliminated, E.AuctionEnded, E.CardDrawn, E.GotJailCard, E.LeftPrison, E.GameOver,
)


#: The routine events of nearly every turn, six in seven of a game's events: the dice, a move, a new turn and a
#: payment.  A checked game counts them and checks at the next event of another kind, which finds any money
#: they moved wrongly (the soak also checks every invariant between the bots' turns).
ROUTINE_EVENTS = (E.Rolled, E.Moved, E.TurnStarted, E.Paid)


def money_problems(game: GameState | HasState) -> list[str]:
    """Money is conserved and the pot is never negative."""
    g = state_of(game)
    out = []
    start_total = g.rules.start_money * len(g.players)
    total = g.pot + g.bank
    for p in g.players:  # a loop, not total_money's sum over a generator: a checked game asks this after most events
        total += p.cash
    if total != start_total:
        out.append(f"money not conserved: {total_money(g)} != {start_total}")
    if g.pot < 0:
        out.append(f"the pot is negative: {g.pot}")
    return out


def always_problems(game: GameState | HasState) -> list[str]:
    """Problems with the invariants that hold after every event.

    The soak asks this after every event that can change ownership, buildings or cards, so it is plain
    loops over the state's lists; the words of a problem are made only when there is one.
    """
    g = state_of(game)
    out = money_problems(g)
    owner, level, factory, mortgaged, top = g.owner, g.level, g.factory, g.mortgaged, g.hotel_level
    factories = houses = hotels = 0
    for i, f in enumerate(g.fields):
        o, lvl, fac, mort = owner[i], level[i], factory[i], mortgaged[i]
        if o >= 0 and not f.is_property:
            out.append(f"field {i} ({f.kind}) has an owner")
        if lvl or fac:
            if f.kind != "street" or o < 0:
                out.append(f"buildings on {f.label()} which is not an owned street")
            if fac and lvl:
                out.append(f"{f.label()} has a factory and houses")
            if mort:
                out.append(f"{f.label()} is mortgaged with buildings on it")
        if not 0 <= lvl <= top:
            out.append(f"{f.label()} has building level {lvl}")
        if mort and o < 0:
            out.append(f"{f.label()} is mortgaged but owned by nobody")
        if fac:
            factories += 1
        if lvl == top:
            hotels += 1
        elif lvl < top:
            houses += lvl
    if factories != g.factories:
        out.append(f"factory count {g.factories} != {factories}")
    if not g.rules.upgrades_lost_on_sale and not g.rules.building_shortage:
        out += _evenness_problems(g)
    if g.rules.building_shortage:
        if g.houses_left < 0 or g.hotels_left < 0 or houses + g.houses_left != 32 or hotels + g.hotels_left != 12:
            out.append(f"building supply miscounted: {houses}+{g.houses_left} houses, {hotels}+{g.hotels_left} hotels")
    if g.rules.card_draw == "cycle":
        held = 0
        for p in g.players:
            held += len(p.jail_cards)
        for deck in g.decks.values():
            held += len(deck)
        printed = 0
        for cards in g.board.decks.values():
            printed += len(cards)
        if held != printed:
            out.append("cards were lost or duplicated")
    return out


def _evenness_problems(g: GameState) -> list[str]:
    """L17: a group held by one owner has building levels at most one apart (streets with a factory aside)."""
    out = []
    owner, level, factory = g.owner, g.level, g.factory
    for group in g.board.groups.values():
        fields = group.fields
        first = owner[fields[0]]
        low, high = g.hotel_level + 1, -1
        for j in fields:
            if owner[j] != first:
                break
            if not factory[j]:
                lvl = level[j]
                low, high = min(low, lvl), max(high, lvl)
        else:
            if high - low > 1:
                levels = [level[j] for j in fields if not factory[j]]
                out.append(f"uneven buildings in {group.label()}: {levels}")
    return out


def problems(game: GameState | HasState) -> list[str]:
    """Every invariant problem, including those that hold only between actions."""
    g = state_of(game)
    out = always_problems(g)
    for p in g.players:
        if p.active and not covers(g, p.cash):
            out.append(f"{p.name} is still in with {p.cash}")
        if not p.active and (p.cash or p.index in g.owner):
            out.append(f"{p.name} is out but holds cash or property")
    if g.phase != OVER:
        if not g.players[actor(g)].active:
            out.append("the actor is out of the game")
        if len(active_players(g)) < 2:
            out.append("fewer than two players but the game goes on")
    elif g.winner < 0 or not g.players[g.winner].active:
        out.append("the game is over without an active winner")
    return out
