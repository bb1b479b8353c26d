"""The checks of a position: every value in range, and nothing the rules make impossible.

:mod:`~laspoly.engine.position_format` reads a position and builds its game; the
functions here collect every problem found, so that one
:class:`~laspoly.errors.PositionError` names them all.  What each check means is
in ``docs/positions.md``.
"""

from __future__ import annotations

from typing import Any

from laspoly.engine.base import active_players, covers
from laspoly.engine.gamestate import GameState, check_rules_fit_board
from laspoly.engine.invariants import problems as engine_problems
from laspoly.engine.state import BUYING, HOTELS, HOUSES, TRAVEL, TURN
from laspoly.errors import SetupError


class Problems:
    """Every problem found in a position, so that one error names them all."""

    def __init__(self) -> None:
        self.items: list[str] = []

    def add(self, where: str, what: str) -> None:
        """Note a problem and where it is ("players[1].cash")."""
        self.items.append(f"{where}: {what}")

    def whole(self, where: str, value: Any, low: int, high: int) -> int:
        """``value`` if it is a whole number from ``low`` to ``high``; else note why and give ``low``."""
        if isinstance(value, bool) or not isinstance(value, int):
            self.add(where, f"must be a whole number, not {show(value)}")
            return low
        if not low <= value <= high:
            self.add(where, f"must be from {low} to {high}, not {value}")
            return low
        return value

    def flag(self, where: str, value: Any) -> bool:
        """``value`` if it is true or false; else note why and give False."""
        if not isinstance(value, bool):
            self.add(where, f"must be true or false, not {show(value)}")
            return False
        return value

    def record(self, where: str, value: Any, allowed: set[str], required: tuple[str, ...] = ()) -> dict[str, Any]:
        """``value`` if it is an object; note its unknown and missing keys."""
        if not isinstance(value, dict):
            self.add(where, "must be an object")
            return {}
        unknown = sorted(map(str, set(value) - allowed))
        if unknown:
            self.add(where, f"unknown key(s) {', '.join(map(repr, unknown))[:200]}; allowed: {', '.join(sorted(allowed))}")
        for key in required:
            if key not in value:
                self.add(where, f"needs {key!r}")
        return value

    def listing(self, where: str, value: Any, most: int) -> list[Any]:
        """``value`` if it is a list of at most ``most`` entries; else note why and give an empty list."""
        if not isinstance(value, list):
            self.add(where, "must be a list")
            return []
        if len(value) > most:
            self.add(where, f"holds at most {most} entries, not {len(value)}")
            return []
        return value


def show(value: Any) -> str:
    """A value as a message quotes it, cut to 60 characters."""
    text = repr(value)
    return text if len(text) <= 60 else text[:57] + "..."



def impossibilities(g: GameState) -> list[str]:
    """Every way the built game breaks a rule or an invariant of the engine."""
    p = Problems()
    try:
        check_rules_fit_board(g.rules, g.board)
    except SetupError as exc:
        p.add("rules", str(exc))
    _check_players(p, g)
    _check_buildings(p, g)
    _check_cards(p, g)
    _check_turn(p, g)
    _check_trades(p, g)
    if g.pot and not _pot_is_fed(g):
        p.add("pot", "nothing on this board pays into a pot, so it must be 0")
    if g.setup["max_rounds"] is not None and g.round > g.setup["max_rounds"]:
        p.add("turn.round", f"round {g.round} is past the cap of {g.setup['max_rounds']} rounds")
    if not p.items:  # the engine's own checker, which every game passes after every event
        for found in engine_problems(g):
            p.add("invariant", found)
    return p.items


def _check_players(p: Problems, g: GameState) -> None:
    r = g.rules
    if len(active_players(g)) < 2:
        p.add("players", "at least two players must still be in the game")
    for pl in g.players:
        where = f"players[{pl.index}] ({pl.name})"
        if not pl.active:
            if pl.cash or pl.in_prison or pl.jail_cards or pl.lose_turn or pl.index in g.owner:
                p.add(where, "is out of the game, so holds no cash, property or card and is in no prison")
            continue
        if not covers(g, pl.cash):
            p.add(where, f"has {pl.cash}: under these rules a player whose cash hits zero is out (L19)")
        if pl.in_prison and g.prison is None:
            p.add(where, "is in prison, but this board has no prison")
        elif pl.in_prison and pl.pos != g.prison:
            p.add(where, f"is in prison, so stands on the prison (field {g.prison}), not on field {pl.pos}")
        if pl.prison_turns and not pl.in_prison:
            p.add(where, "has prison turns but is not in prison")
        elif pl.prison_turns >= r.jail_max_turns:
            p.add(where, f"after {r.jail_max_turns} prison turns a prisoner pays and leaves, so prison_turns is at most {r.jail_max_turns - 1}")
        if pl.lose_turn and r.three_doubles != "lose_turn":
            p.add(where, "loses a turn, which only the third doubles under three_doubles=lose_turn bring (S2)")


def _check_buildings(p: Problems, g: GameState) -> None:
    r = g.rules
    for i, f in enumerate(g.fields):
        level, factory = g.level[i], g.factory[i]
        if g.owner[i] < 0 or not (level or factory):
            continue
        where = f"properties ({f.label()})"
        if f.kind != "street":
            p.add(where, f"a {f.kind} takes no buildings: only streets do")
            continue
        if g.mortgaged[i]:
            p.add(where, "is mortgaged with buildings on it: buildings are sold before a mortgage (L18)")
        if factory and level:
            p.add(where, "has a factory and houses: a factory goes only on a street with no building (L12)")
        if factory and not f.factory_price:
            p.add(where, "takes no factory (its card has no factory price)")
        if level == g.hotel_level and not (r.hotels and r.max_houses):
            p.add(where, "has a hotel, but these rules have no hotels")
        elif level != g.hotel_level and level > r.max_houses:
            p.add(where, f"has {level} houses; these rules allow at most {r.max_houses}")
    for group in g.board.groups.values():
        _check_group(p, g, group.fields, group.label())
    if r.building_shortage:
        top = g.hotel_level
        houses, hotels = sum(v for v in g.level if v < top), sum(1 for v in g.level if v == top)
        if houses > HOUSES or hotels > HOTELS:
            p.add("properties", f"{houses} houses and {hotels} hotels: the bank has only {HOUSES} houses and {HOTELS} hotels")


def _check_group(p: Problems, g: GameState, fields: tuple[int, ...], label: str) -> None:
    """L11: building needs the whole group, unmortgaged, and is even; trades may later split a built group.

    How a built group may look depends on the trade rule: with ``unbuilt_group`` it stays whole and
    unmortgaged; with ``unbuilt_property`` an unbuilt street may have left it, so the builder's other
    streets hold at most one house; under ``any`` with upgrades lost on sale, one player built there.
    """
    built = [j for j in fields if g.level[j] or g.factory[j]]
    if not built:
        return
    where, r = f"group ({label})", g.rules  # as "properties (Fremont Street)": a name may hold its own article
    builders = {g.owner[j] for j in built}
    builder = g.players[g.owner[built[0]]].name
    whole = all(g.owner[j] == g.owner[built[0]] for j in fields) and not any(g.mortgaged[j] for j in fields)
    if len(builders) > 1 and (r.trade_requires != "any" or r.upgrades_lost_on_sale):
        p.add(where, "has buildings of two players: only a player who held the whole group could build there (L11)")
    elif not whole and r.trade_requires == "unbuilt_group":
        p.add(where, f"has buildings, so {builder} owns the whole group with no street mortgaged: building needs that (L11), "
                     "and under these rules a built group cannot be traded apart")
    elif not whole and r.trade_requires == "unbuilt_property" and any(g.level[j] > 1 for j in built if not g.factory[j]):
        p.add(where, f"is not whole and unmortgaged in {builder}'s hands, so its streets hold at most one house: "
                     "building needs the whole group (L11), and only an unbuilt street can have been traded away since")
    levels = [g.level[j] for j in fields if not g.factory[j]]
    if len({g.owner[j] for j in fields}) == 1 and not (r.upgrades_lost_on_sale or r.building_shortage) \
            and levels and max(levels) - min(levels) > 1:
        p.add(where, f"is built unevenly ({_levels(g, fields)}): building must be even across the streets without a factory (L11, L12)")


def _levels(g: GameState, fields: tuple[int, ...]) -> str:
    def one(j: int) -> str:
        if g.factory[j]:
            return "factory"
        return "hotel" if g.level[j] == g.hotel_level else f"{g.level[j]} houses"
    return ", ".join(f"{g.fields[j].label()}: {one(j)}" for j in fields)


def _check_cards(p: Problems, g: GameState) -> None:
    """Each card is once in its deck or in a player's hand (``card_draw=random``: every deck stays whole)."""
    cycle = g.rules.card_draw == "cycle"
    for name, cards in g.board.decks.items():
        listed = list(g.decks[name]) + ([k for pl in g.players for d, k in pl.jail_cards if d == name] if cycle else [])
        missing = [cards[k].id for k in range(len(cards)) if k not in listed]
        twice = sorted({cards[k].id for k in listed if listed.count(k) > 1})
        if missing:
            p.add(f"decks.{name}", f"card(s) {', '.join(missing)} missing: each card is in the deck or in a player's hand")
        if twice:
            p.add(f"decks.{name}", f"card(s) {', '.join(twice)} listed twice: each card is in the deck or in a player's hand, once")


def _check_turn(p: Problems, g: GameState) -> None:
    r, t = g.rules, g.players[g.current]
    if not t.active:
        p.add("turn.player", f"{t.name} is out of the game")
    here = g.fields[t.pos]
    if g.phase == BUYING and not (here.is_property and g.owner[t.pos] < 0):
        p.add("turn.phase", f"buy: {t.name} decides on a purchase only on an unowned property, not on {here.label()}")
    if g.phase == TRAVEL and not (here.kind == "station" and r.train_travel and len(g.stations) > 1):
        p.add("turn.phase", f"travel: {t.name} takes the train only from a station, under rules with train travel (L10)")
    if g.phase != TURN and t.in_prison:
        p.add("turn.phase", f"{t.name} is in prison, so has no purchase or train journey to decide")
    if g.phase != TURN and g.rolls_due and not g.doubles_count:
        p.add("turn.roll_due", f"{t.name} decides a purchase or a journey after a roll; another is due only after doubles")
    _check_doubles(p, g)
    _check_prison_tries(p, g)
    if t.lose_turn and g.rolls_due:
        p.add("turn.roll_due", f"{t.name} has rolled the third doubles, which end the rolling (S2)")


def _check_doubles(p: Problems, g: GameState) -> None:
    r, t, n = g.rules, g.players[g.current], g.doubles_count
    if not n:
        return
    if r.doubles != "extra_roll":
        p.add("turn.doubles", "these rules give doubles no extra roll, so they are not counted")
    elif t.in_prison:
        p.add("turn.doubles", f"{t.name} is in prison: doubles there free a prisoner and are not counted")
    most = {"prison": 2, "lose_turn": 3}.get(r.three_doubles)
    if most is not None and n > most:
        p.add("turn.doubles", f"the third doubles end the rolling (L13, S2), so at most {most} doubles, not {n}")
    elif n == 3 and most == 3 and g.rolls_due:
        p.add("turn.roll_due", "after the third doubles no roll is due (S2)")


def _check_prison_tries(p: Problems, g: GameState) -> None:
    r, t, tries = g.rules, g.players[g.current], g.prison_tries
    if tries > r.jail_tries_per_turn:
        p.add("turn.prison_tries", f"a prisoner tries at most {r.jail_tries_per_turn} times a turn")
    elif t.in_prison and g.rolls_due and tries == r.jail_tries_per_turn:
        p.add("turn.prison_tries", f"after {tries} tries this turn no roll is due")
    elif t.in_prison and not g.rolls_due and tries != r.jail_tries_per_turn:
        p.add("turn.roll_due", f"{t.name} is in prison and has rolled, so has used all {r.jail_tries_per_turn} tries")
    elif tries and not t.in_prison and g.rolls_due:
        p.add("turn.prison_tries", f"{t.name} is not in prison and has a roll due, so has made no prison tries this turn")


def _check_trades(p: Problems, g: GameState) -> None:
    for o in g.offers.values():
        if not (g.players[o.proposer].active and g.players[o.receiver].active):
            p.add(f"offers (#{o.id})", "an offer is between two players still in the game")
        if o.id >= g.next_offer:
            p.add("next_offer", f"must be more than every offer's id ({o.id})")
    for payer, owner, i, _ in g.claims:
        if not g.rules.rent_claim:
            p.add("claims", "rent is claimed only under rules with rent_claim (C6, S9)")
            return
        if payer == owner or not (g.players[payer].active and g.players[owner].active):
            p.add("claims", "a rent claim is between two players still in the game")
        elif not g.fields[i].is_property:
            p.add("claims", f"rent is claimed for a property, not for {g.fields[i].label()}")


def _pot_is_fed(g: GameState) -> bool:
    """Whether anything on the board pays into the pot (a tax field, a card, or the pot field itself)."""
    fields = any(f.kind == "pot" or (f.kind == "tax" and f.to == "pot") for f in g.fields)
    return fields or any(c.args.get("to") == "pot" for cards in g.board.decks.values() for c in cards)
