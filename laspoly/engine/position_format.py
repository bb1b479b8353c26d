"""Positions: a game's state between two decisions, as a checked, versioned JSON document.

A position (``"format": "laspoly-position"``) holds everything a game needs to play
on: the preset and rule options, the players, the ownership with buildings and
mortgages, the pot, the deck order, whose turn it is and the phase, the seed with
(optionally) the generator's state, and the dice still scripted.

* :func:`state_from_position` (``Game.from_position``) reads a position, checks every
  value and every invariant of the engine, and builds the game's state with the one
  constructor every game's state is built with (:class:`~laspoly.engine.gamestate.GameState`),
  then places the position's values in it; :data:`STATE_IN_POSITION` says where a
  position keeps each attribute of the state.  A bad position
  raises one :class:`~laspoly.errors.PositionError` that names every problem.
* :func:`position_of` describes a game as a position.  The two round-trip exactly:
  ``position_of(Game.from_position(p)) == p`` for a position in normal form, and a
  game rebuilt from ``position_of(game)`` plays on exactly as ``game`` does.

This module sits below the game: it builds and reads a game's state, never the game's face.
``normalise_position`` and ``position_problems``, which need the class itself,
are in :mod:`laspoly.position_files`.

The bank's figure is not stored.  Money is conserved, so the bank holds whatever
balances the books: ``start_money x players - cash - pot`` (negative when the bank
has paid out more than it took in, as it has in most games).

``docs/positions.md`` describes the format field by field.
"""

from __future__ import annotations

import random
import re
from collections import deque
from collections.abc import Sequence
from typing import Any, Final

from laspoly.engine.chance import Chance, parse_dice_script
from laspoly.engine.gamestate import STATE_FIELDS, GameState, HasState, Observer, RentPolicy, SalaryHook, state_of
from laspoly.engine.position_checks import Problems, impossibilities, show
from laspoly.engine.state import BUYING, TRAVEL, TURN, Phase, TradeOffer, check_player_count, clean_name, name_key
from laspoly.errors import LaspolyError, PositionError, SetupError
from laspoly.rules.board import Board
from laspoly.rules.options import SPECS
from laspoly.rules.presets import Preset, load_preset

POSITION_FORMAT = "laspoly-position"
POSITION_VERSION = 1
#: Position files larger than this are refused before they are read.
MAX_POSITION_BYTES = 500_000
MAX_CASH = 1_000_000_000
MAX_OFFERS = 200
#: The phases a position may be in: a turn's decisions (before or after the roll), a purchase, a train journey.
PHASES = (TURN, BUYING, TRAVEL)
SEAT_PERSON = "person"

_KEYS = {"format", "version", "about", "preset", "rules", "max_rounds", "seed", "generator", "dice", "players",
         "properties", "pot", "decks", "turn", "offers", "next_offer", "claims"}
_ABOUT_KEYS = {"id", "title", "explanation"}
_PLAYER_KEYS = {"name", "seat", "cash", "field", "in_prison", "prison_turns", "jail_cards", "passed_start",
                "loses_turn", "out"}
_PROPERTY_KEYS = {"field", "owner", "houses", "hotel", "factory", "mortgaged"}
_TURN_KEYS = {"player", "phase", "roll_due", "doubles", "prison_tries", "first", "round", "number", "last_roll"}
_OFFER_KEYS = {"id", "from", "to", "give", "take", "cash", "give_cards", "take_cards"}
_CLAIM_KEYS = {"payer", "owner", "field", "amount"}
_SEAT = re.compile(r"[a-z][a-z0-9_-]{0,31}")
_ID = re.compile(r"[a-z0-9][a-z0-9-]{0,47}")
_GENERATOR = re.compile(r"mt19937:(\d{1,3}):([0-9a-f]{4992})")


# ---------------------------------------------------------------- the public entries


#: Where a position keeps each attribute of a game's state (:data:`~laspoly.engine.gamestate.STATE_FIELDS`):
#: the key it is read from, or why it has none.  A new attribute of the state needs its row here (a test holds
#: the two to the same names), and then its reading in :func:`_build` and its writing in :func:`position_of`.
STATE_IN_POSITION: Final[dict[str, str]] = {
    "preset": "preset", "board": "preset (the preset's board)", "rules": "preset and rules", "setup": "the whole position",
    "chance": "seed, generator and dice", "record_events": "not kept: the caller's choice",
    "keep_history": "not kept: the caller's choice",
    "fields": "derived from the board", "hotel_level": "derived from the rules", "min_cash": "derived from the rules",
    "group_of": "derived from the board", "board_groups": "derived from the board", "stations": "derived from the board",
    "attractions": "derived from the board", "prison": "derived from the board",
    "players": "players", "owner": "properties[].owner", "owner_version": "not kept: bumped by set_position",
    "level": "properties[].houses and hotel", "factory": "properties[].factory", "mortgaged": "properties[].mortgaged",
    "houses_left": "derived from the properties", "hotels_left": "derived from the properties", "pot": "pot",
    "bank": "derived: the money the players and the pot do not hold", "factories": "derived from the properties",
    "decks": "decks", "current": "turn.player", "first": "turn.first", "phase": "turn.phase", "rolls_due": "turn.roll_due",
    "doubles_count": "turn.doubles", "prison_tries": "turn.prison_tries", "dice": "turn.last_roll",
    "last_card": "not kept: no card is in play between decisions", "round": "turn.round", "turns": "turn.number",
    "pending_field": "derived: the buyer's field in the buy phase", "card_rent_multiplier": "none between decisions",
    "debt": "none: a game in a debt has no position", "auction": "none: a game in an auction has no position",
    "offers": "offers", "next_offer": "next_offer", "claims": "claims",
    "collect_queue": "none: a card being played has no position", "winner": "none: a game over has no position",
    "end_reason": "none: a game over has no position", "log": "not kept: a position starts a new log",
    "history": "not kept: a position starts a new list of decisions",
    "landings": "not kept: a count the caller asked for",
    "quiet": "not kept: only while legality is asked", "observer": "not kept: a hook of the caller's",
    "rent_policy": "not kept: a hook of the caller's", "salary": "not kept: a hook of the caller's",
}
#: The attributes :func:`set_position` keeps from the game it replaces the state of: the caller's choices and hooks.
_KEPT: Final = frozenset({"record_events", "keep_history", "observer", "rent_policy", "salary", "quiet", "landings"})


def state_from_position(data: Any, *, record_events: bool = True, keep_history: bool = True,
                        observer: Observer | None = None, rent_policy: RentPolicy | None = None,
                        salary: SalaryHook | None = None) -> GameState:
    """Check a decoded position and build the state of the game that plays on from it (``Game.from_position``)."""
    pos, preset = _read(data)
    state = _build(pos, preset, record_events, keep_history)
    found = impossibilities(state)
    if found:
        raise PositionError(_message(found))
    state.observer, state.rent_policy, state.salary = observer, rent_policy, salary
    return state


def set_position(state: GameState, data: Any) -> None:
    """Replace the whole of ``state`` by a position, in place (``Game.set_position``); a bad one changes nothing."""
    fresh = state_from_position(data, record_events=state.record_events, keep_history=state.keep_history)
    version = state.owner_version
    for name in STATE_FIELDS:
        if name not in _KEPT:
            setattr(state, name, getattr(fresh, name))
    state.owner_version = version + 1  # caches keyed on the game and its ownership see a new board


def position_of(game: GameState | HasState, *, seats: Sequence[str] | None = None) -> dict[str, Any]:
    """The game as a position in normal form; ``seats`` gives each seat's kind ('person' or a bot temperament).

    A game in an auction, in a debt, or over has no position: it raises :class:`PositionError` saying why.
    """
    g = state_of(game)
    why = _why_no_position(g)
    if why:
        raise PositionError(f"this game cannot be written as a position now: {why}")
    given = g.setup.get("position") or {}
    kinds = _seat_kinds(g, given, seats)
    used = len(g.setup["dice"]) - g.chance.script_left
    pos: dict[str, Any] = {
        "format": POSITION_FORMAT, "version": POSITION_VERSION,
        "preset": g.preset.id, "rules": _checked_overrides(g.setup["rules"]), "max_rounds": g.setup["max_rounds"],
        "seed": g.chance.seed,
    }
    generator = _encode_generator(g.chance)
    if generator:
        pos["generator"] = generator
    pos["dice"] = [list(pair) for pair in g.setup["dice"][used:]]
    pos["players"] = [_player_of(g, p.index, kinds[p.index]) for p in g.players]
    pos["properties"] = [_property_of(g, i) for i, o in enumerate(g.owner) if o >= 0]
    pos["pot"] = g.pot
    pos["decks"] = {name: [g.board.decks[name][k].id for k in deck] for name, deck in g.decks.items()}
    pos["turn"] = {
        "player": g.current, "phase": str(g.phase), "roll_due": g.rolls_due, "doubles": g.doubles_count,
        "prison_tries": g.prison_tries, "first": g.first, "round": g.round, "number": g.turns,
        "last_roll": list(g.dice) if g.dice != (0, 0) else None,
    }
    pos["offers"] = [{"id": o.id, "from": o.proposer, "to": o.receiver, "give": list(o.give), "take": list(o.take),
                      "cash": o.cash, "give_cards": o.give_cards, "take_cards": o.take_cards} for o in g.offers.values()]
    pos["next_offer"] = g.next_offer
    pos["claims"] = [{"payer": c[0], "owner": c[1], "field": c[2], "amount": c[3]} for c in g.claims]
    if "about" in given and {k: v for k, v in given.items() if k != "about"} == pos:
        # the game still stands where its demonstration put it: keep the demonstration's words
        return {"format": POSITION_FORMAT, "version": POSITION_VERSION, "about": given["about"],
                **{k: v for k, v in pos.items() if k not in ("format", "version")}}
    return pos


# ---------------------------------------------------------------- describing a game


def _why_no_position(g: GameState) -> str | None:
    if g.phase not in PHASES:
        return {"auction": "an auction is running", "debt": "a debt is being paid"}.get(str(g.phase), "the game is over")
    if g.collect_queue or g.card_rent_multiplier:
        return "a card is still being played"
    if g.board is not g.preset.board:
        return "it plays a board of its own, and a position names a preset"
    if len(g.offers) > MAX_OFFERS:
        return f"it has more than {MAX_OFFERS} pending trade offers"
    return None


def _seat_kinds(g: GameState, given: dict[str, Any], seats: Sequence[str] | None) -> list[str]:
    n = len(g.players)
    if seats is None:
        kinds = [d.get("seat", SEAT_PERSON) for d in given.get("players", [])]
        return kinds if len(kinds) == n else [SEAT_PERSON] * n
    kinds = list(seats)
    if len(kinds) != n or not all(isinstance(k, str) and _SEAT.fullmatch(k) for k in kinds):
        raise PositionError(f"seats must name {n} seat kinds, each 'person' or a bot temperament")
    return kinds


def _checked_overrides(rules: dict[str, Any]) -> dict[str, Any]:
    return {name: SPECS[name].check(name, value) for name, value in rules.items()}


def _player_of(g: GameState, i: int, seat: str) -> dict[str, Any]:
    p = g.players[i]
    return {
        "name": p.name, "seat": seat, "cash": p.cash, "field": p.pos, "in_prison": p.in_prison,
        "prison_turns": p.prison_turns, "jail_cards": [[deck, g.board.decks[deck][k].id] for deck, k in p.jail_cards],
        "passed_start": p.has_passed_start, "loses_turn": p.lose_turn, "out": not p.active,
    }


def _property_of(g: GameState, i: int) -> dict[str, Any]:
    hotel = g.level[i] == g.hotel_level
    return {"field": i, "owner": g.owner[i], "houses": 0 if hotel else g.level[i], "hotel": hotel,
            "factory": g.factory[i], "mortgaged": g.mortgaged[i]}


def _encode_generator(chance: Chance) -> str | None:
    """The generator's state as text, or None while it still stands at its seed (nothing drawn yet)."""
    state = chance.getstate()[0]
    if state == random.Random(chance.seed).getstate():
        return None
    words = state[1]
    return f"mt19937:{words[-1]}:" + "".join(f"{w:08x}" for w in words[:-1])


def _decode_generator(text: str) -> tuple[Any, ...]:
    m = _GENERATOR.fullmatch(text)
    assert m is not None
    words = [int(m.group(2)[k:k + 8], 16) for k in range(0, 4992, 8)]
    return (3, (*words, int(m.group(1))), None)


# ---------------------------------------------------------------- reading: every value in range, names to indices


def _message(items: list[str]) -> str:
    n = len(items)
    return f"the position has {n} problem{'' if n == 1 else 's'}:\n  - " + "\n  - ".join(items[:100])


def problem_lines(message: str) -> list[str]:
    """The problems a :class:`~laspoly.errors.PositionError` names, one per line."""
    lines = message.split("\n  - ")
    return lines[1:] if len(lines) > 1 else [message]


def _read(data: Any) -> tuple[dict[str, Any], Preset]:
    """The position in normal form, every value checked for type and range; raises on any problem."""
    if not isinstance(data, dict) or data.get("format") != POSITION_FORMAT:
        raise PositionError(f"not a laspoly position (it has no 'format': '{POSITION_FORMAT}')")
    if data.get("version") != POSITION_VERSION:
        raise PositionError(f"position version {show(data.get('version'))} is not supported (this laspoly reads {POSITION_VERSION})")
    p = Problems()
    p.record("position", data, _KEYS, ("preset", "players"))
    preset, overrides = _read_rules(data)
    rules = preset.rules.with_overrides(overrides)
    board = preset.board
    pos: dict[str, Any] = {"format": POSITION_FORMAT, "version": POSITION_VERSION}
    if "about" in data:
        pos["about"] = _read_about(p, data["about"])
    max_rounds = data.get("max_rounds")
    pos.update(preset=preset.id, rules=overrides,
               max_rounds=None if max_rounds is None else p.whole("max_rounds", max_rounds, 1, 1_000_000),
               seed=p.whole("seed", data.get("seed", 0), 0, 2**63 - 1))
    generator = _read_generator(p, data.get("generator"), pos["seed"])
    if generator:
        pos["generator"] = generator
    pos["dice"] = _read_dice(p, data.get("dice"))
    players = _read_players(p, data.get("players"), rules.start_money, board)
    names = [d["name"] for d in players]
    pos["players"] = players
    pos["properties"] = _read_properties(p, data.get("properties", []), board, names)
    pos["pot"] = p.whole("pot", data.get("pot", 0), 0, MAX_CASH)
    held = [tuple(c) for d in players for c in d["jail_cards"]] if rules.card_draw == "cycle" else []
    pos["decks"] = _read_decks(p, data.get("decks", {}), board, held)
    pos["turn"] = _read_turn(p, data.get("turn", {}), len(players))
    pos["offers"] = _read_offers(p, data.get("offers", []), board, names)
    ids = [o["id"] for o in pos["offers"]]
    pos["next_offer"] = p.whole("next_offer", data.get("next_offer", max(ids, default=0) + 1), max(ids, default=0) + 1, 10**9)
    pos["claims"] = _read_claims(p, data.get("claims", []), board, names)
    if p.items:
        raise PositionError(_message(p.items))
    return pos, preset


def _read_rules(data: dict[str, Any]) -> tuple[Preset, dict[str, Any]]:
    """The preset and the checked rule overrides: nothing else can be checked without them."""
    name = data.get("preset")
    overrides = {} if data.get("rules") is None else data["rules"]
    try:
        if not isinstance(name, str):
            raise PositionError(f"the preset must be a name such as 'laspoly', not {show(name)}")
        preset = load_preset(name)
        if not isinstance(overrides, dict):
            raise PositionError("rules must be an object of rule option name to value")
        preset.rules.with_overrides(overrides)  # names an unknown option or a value it does not allow
    except LaspolyError as exc:
        raise PositionError(f"the position's preset or rules are not valid: {exc}") from None
    return preset, _checked_overrides(overrides)


def _read_about(p: Problems, raw: Any) -> dict[str, Any]:
    d = p.record("about", raw, _ABOUT_KEYS, ("id", "title", "explanation"))
    if not (isinstance(d.get("id"), str) and _ID.fullmatch(d["id"])):
        p.add("about.id", "must be a short id of lowercase letters, digits and dashes, like 'casino-6-6'")
    title = _read_texts(p, "about.title", d.get("title"), lambda t: isinstance(t, str) and 0 < len(t) <= 100,
                        "a text of 1 to 100 characters")
    explanation = _read_texts(p, "about.explanation", d.get("explanation"),
                              lambda t: isinstance(t, list) and 1 <= len(t) <= 2
                              and all(isinstance(s, str) and 0 < len(s) <= 200 for s in t),
                              "a list of one or two lines of at most 200 characters")
    return {"id": d.get("id"), "title": title, "explanation": explanation}


def _read_texts(p: Problems, where: str, raw: Any, ok: Any, what: str) -> dict[str, Any]:
    if not isinstance(raw, dict) or "en" not in raw:
        p.add(where, "must be an object with an English ('en') text and optionally a Spanish ('es') one")
        return {}
    for lang, text in raw.items():
        if lang not in ("en", "es") or not ok(text):
            p.add(f"{where}.{lang}"[:80], f"must be {what} (languages: en, es)")
    return dict(raw)


def _read_generator(p: Problems, raw: Any, seed: int) -> str | None:
    if raw is None:
        return None
    m = _GENERATOR.fullmatch(raw) if isinstance(raw, str) else None
    if m is None or int(m.group(1)) > 624:
        p.add("generator", "must be the text 'mt19937:<index>:<4992 hex digits>' that position_of writes")
        return None
    if _decode_generator(raw) == random.Random(seed).getstate():
        return None  # the generator stands at its seed: the normal form leaves it out
    return str(raw)


def _read_dice(p: Problems, raw: Any) -> list[list[int]]:
    try:
        return [list(pair) for pair in parse_dice_script(raw)]
    except (SetupError, TypeError) as exc:
        p.add("dice", str(exc) if isinstance(exc, SetupError) else "must be a list of pairs like [6, 6] or a text like '6-6 1-2'")
        return []


def _read_players(p: Problems, raw: Any, start_money: int, board: Board) -> list[dict[str, Any]]:
    if not isinstance(raw, list):
        p.add("players", "must be a list of players")
        return []
    try:
        check_player_count(len(raw))
    except SetupError as exc:
        p.add("players", str(exc))
        return []
    out = [_read_player(p, f"players[{k}]", entry, start_money, board) for k, entry in enumerate(raw)]
    if len({name_key(d["name"]) for d in out}) != len(out):
        p.add("players", "players' names must differ")
    return out


def _read_player(p: Problems, where: str, raw: Any, start_money: int, board: Board) -> dict[str, Any]:
    d = p.record(where, raw, _PLAYER_KEYS, ("name",))
    try:
        name = clean_name(d.get("name"))
    except SetupError as exc:
        p.add(where, str(exc))
        name = where
    seat = d.get("seat", SEAT_PERSON)
    if not (isinstance(seat, str) and _SEAT.fullmatch(seat)):
        p.add(f"{where}.seat", f"must be 'person' or a bot temperament such as 'basic', not {show(seat)}")
    cards = [_read_jail_card(p, f"{where}.jail_cards[{k}]", c, board)
             for k, c in enumerate(p.listing(f"{where}.jail_cards", d.get("jail_cards", []), 32))]
    return {
        "name": name, "seat": seat,
        "cash": p.whole(f"{where}.cash", d.get("cash", start_money), 0, MAX_CASH),
        "field": _field_index(p, f"{where}.field", d.get("field", 0), board),
        "in_prison": p.flag(f"{where}.in_prison", d.get("in_prison", False)),
        "prison_turns": p.whole(f"{where}.prison_turns", d.get("prison_turns", 0), 0, 10),
        "jail_cards": [c for c in cards if c],
        "passed_start": p.flag(f"{where}.passed_start", d.get("passed_start", False)),
        "loses_turn": p.flag(f"{where}.loses_turn", d.get("loses_turn", False)),
        "out": p.flag(f"{where}.out", d.get("out", False)),
    }


def _read_jail_card(p: Problems, where: str, raw: Any, board: Board) -> list[str] | None:
    deck, card = raw if isinstance(raw, list) and len(raw) == 2 else (None, None)
    cards = board.decks.get(deck) if isinstance(deck, str) else None
    found = next((c for c in cards or () if c.id == card), None)
    if found is None:
        p.add(where, f"must be [deck, card id] naming a card of this board, not {show(raw)}")
        return None
    if found.effect != "get_out_of_prison":
        p.add(where, f"{card!r} is not a Get-Out-of-Prison card, and only those are kept")
        return None
    return [str(deck), found.id]


def _field_index(p: Problems, where: str, raw: Any, board: Board) -> int:
    if isinstance(raw, str):
        try:
            return board.find(raw)
        except KeyError:
            p.add(where, f"no field named {show(raw)} on this board")
            return -1
    if isinstance(raw, int) and not isinstance(raw, bool) and 0 <= raw < board.size:
        return raw
    p.add(where, f"must be a field's index (0 to {board.size - 1}) or name, not {show(raw)}")
    return -1


def _seat_index(p: Problems, where: str, raw: Any, names: list[str]) -> int:
    if isinstance(raw, str) and raw in names:
        return names.index(raw)
    if isinstance(raw, int) and not isinstance(raw, bool) and 0 <= raw < len(names):
        return raw
    p.add(where, f"must be a seat (0 to {len(names) - 1}) or a player's name, not {show(raw)}")
    return -1


def _read_properties(p: Problems, raw: Any, board: Board, names: list[str]) -> list[dict[str, Any]]:
    out: dict[int, dict[str, Any]] = {}
    for k, entry in enumerate(p.listing("properties", raw, board.size)):
        where = f"properties[{k}]"
        d = p.record(where, entry, _PROPERTY_KEYS, ("field", "owner"))
        i = _field_index(p, f"{where}.field", d.get("field"), board)
        if i >= 0:
            where = f"{where} ({board.fields[i].label()})"
            if not board.fields[i].is_property:
                p.add(where, "is not a property: only streets, stations and attractions have owners")
            elif i in out:
                p.add(where, "is listed twice")
        entry_out = {
            "field": i, "owner": _seat_index(p, f"{where}.owner", d.get("owner"), names),
            "houses": p.whole(f"{where}.houses", d.get("houses", 0), 0, 4),
            "hotel": p.flag(f"{where}.hotel", d.get("hotel", False)),
            "factory": p.flag(f"{where}.factory", d.get("factory", False)),
            "mortgaged": p.flag(f"{where}.mortgaged", d.get("mortgaged", False)),
        }
        if entry_out["hotel"] and entry_out["houses"]:
            p.add(where, "a hotel replaces the houses: write 'houses': 0 with 'hotel': true")
        if i >= 0:
            out.setdefault(i, entry_out)
    return [out[i] for i in sorted(out)]


def _read_decks(p: Problems, raw: Any, board: Board, held: list[tuple[str, ...]]) -> dict[str, list[str]]:
    """Each deck's card ids, top first; a deck left out is in the board's order, less the cards held."""
    d = p.record("decks", raw, set(board.decks))
    out = {}
    for name, cards in board.decks.items():
        ids = [c.id for c in cards]
        if name not in d:
            out[name] = [c for c in ids if (name, c) not in held]
            continue
        given = p.listing(f"decks.{name}", d[name], len(ids))
        unknown = [c for c in given if c not in ids]
        if unknown:
            p.add(f"decks.{name}", f"no card(s) {', '.join(map(show, unknown[:5]))} in this deck; its cards are {', '.join(ids)}")
        out[name] = [c for c in given if c in ids]
    return out


def _read_turn(p: Problems, raw: Any, n: int) -> dict[str, Any]:
    d = p.record("turn", raw, _TURN_KEYS)
    last = n - 1 if n else 0
    player = p.whole("turn.player", d.get("player", 0), 0, last)
    phase = d.get("phase", "turn")
    if phase not in PHASES:
        p.add("turn.phase", f"must be one of {', '.join(PHASES)} (a position is taken between decisions), not {show(phase)}")
        phase = TURN
    roll = d.get("last_roll")
    if roll is not None and not (isinstance(roll, list) and len(roll) == 2
                                 and all(isinstance(x, int) and not isinstance(x, bool) and 1 <= x <= 6 for x in roll)):
        p.add("turn.last_roll", f"must be two dice like [3, 4], or null, not {show(roll)}")
        roll = None
    return {
        "player": player, "phase": str(phase), "roll_due": p.flag("turn.roll_due", d.get("roll_due", True)),
        "doubles": p.whole("turn.doubles", d.get("doubles", 0), 0, 1000),
        "prison_tries": p.whole("turn.prison_tries", d.get("prison_tries", 0), 0, 3),
        "first": p.whole("turn.first", d.get("first", player), 0, last),
        "round": p.whole("turn.round", d.get("round", 1), 1, 1_000_000),
        "number": p.whole("turn.number", d.get("number", 1), 1, 10_000_000),
        "last_roll": roll,
    }


def _read_fields(p: Problems, where: str, raw: Any, board: Board) -> list[int]:
    out = [_field_index(p, f"{where}[{k}]", x, board) for k, x in enumerate(p.listing(where, raw, board.size))]
    if len(set(out)) != len(out):
        p.add(where, "lists a field twice")
    return out


def _read_offers(p: Problems, raw: Any, board: Board, names: list[str]) -> list[dict[str, Any]]:
    out = []
    for k, entry in enumerate(p.listing("offers", raw, MAX_OFFERS)):
        where = f"offers[{k}]"
        d = p.record(where, entry, _OFFER_KEYS, ("id", "from", "to"))
        offer = {
            "id": p.whole(f"{where}.id", d.get("id"), 1, 10**9 - 1),
            "from": _seat_index(p, f"{where}.from", d.get("from"), names),
            "to": _seat_index(p, f"{where}.to", d.get("to"), names),
            "give": _read_fields(p, f"{where}.give", d.get("give", []), board),
            "take": _read_fields(p, f"{where}.take", d.get("take", []), board),
            "cash": p.whole(f"{where}.cash", d.get("cash", 0), -MAX_CASH, MAX_CASH),
            "give_cards": p.whole(f"{where}.give_cards", d.get("give_cards", 0), 0, 32),
            "take_cards": p.whole(f"{where}.take_cards", d.get("take_cards", 0), 0, 32),
        }
        if offer["from"] == offer["to"]:
            p.add(where, "an offer goes from one player to another")
        out.append(offer)
    if len({o["id"] for o in out}) != len(out):
        p.add("offers", "two offers have the same id")
    return out


def _read_claims(p: Problems, raw: Any, board: Board, names: list[str]) -> list[dict[str, Any]]:
    out = []
    for k, entry in enumerate(p.listing("claims", raw, 8 * board.size)):
        where = f"claims[{k}]"
        d = p.record(where, entry, _CLAIM_KEYS, tuple(sorted(_CLAIM_KEYS)))
        out.append({
            "payer": _seat_index(p, f"{where}.payer", d.get("payer"), names),
            "owner": _seat_index(p, f"{where}.owner", d.get("owner"), names),
            "field": _field_index(p, f"{where}.field", d.get("field"), board),
            "amount": p.whole(f"{where}.amount", d.get("amount"), 1, MAX_CASH),
        })
    return out


# ---------------------------------------------------------------- building the game


def _setup_of(pos: dict[str, Any]) -> dict[str, Any]:
    """The setup a save file records: the usual keys, read from the position, and the position itself."""
    return {"preset": pos["preset"], "players": [d["name"] for d in pos["players"]], "seed": pos["seed"],
            "rules": dict(pos["rules"]), "dice": [list(r) for r in pos["dice"]], "max_rounds": pos["max_rounds"],
            "position": pos}


def _build(pos: dict[str, Any], preset: Preset, record_events: bool, keep_history: bool) -> GameState:
    # the one constructor of a state, as a new game's; a scratch generator shuffles its decks, which come from the position
    g = GameState(preset, preset.board, preset.rules.with_overrides(pos["rules"]), _setup_of(pos), Chance(pos["seed"]),
                  [d["name"] for d in pos["players"]], record_events=record_events, keep_history=keep_history)
    g.chance = Chance(pos["seed"], [(a, b) for a, b in pos["dice"]])
    if "generator" in pos:
        g.chance.setstate(_decode_generator(pos["generator"]))
    _place_players(g, pos["players"])
    _place_properties(g, pos["properties"])
    g.pot = pos["pot"]
    g.bank = g.rules.start_money * len(g.players) - sum(p.cash for p in g.players) - g.pot
    g.decks = {name: deque(_card_index(g.board, name, c) for c in ids) for name, ids in pos["decks"].items()}
    _place_turn(g, pos["turn"])
    g.offers = {o["id"]: TradeOffer(o["id"], o["from"], o["to"], tuple(o["give"]), tuple(o["take"]), o["cash"],
                                    o["give_cards"], o["take_cards"]) for o in pos["offers"]}
    g.next_offer = pos["next_offer"]
    g.claims = [(c["payer"], c["owner"], c["field"], c["amount"]) for c in pos["claims"]]
    return g


def _card_index(board: Board, deck: str, card_id: str) -> int:
    return next(k for k, c in enumerate(board.decks[deck]) if c.id == card_id)


def _place_players(g: GameState, players: list[dict[str, Any]]) -> None:
    for p, d in zip(g.players, players, strict=True):
        p.cash, p.pos, p.in_prison, p.prison_turns = d["cash"], d["field"], d["in_prison"], d["prison_turns"]
        p.jail_cards = [(deck, _card_index(g.board, deck, c)) for deck, c in d["jail_cards"]]
        p.has_passed_start, p.lose_turn, p.active = d["passed_start"], d["loses_turn"], not d["out"]


def _place_properties(g: GameState, properties: list[dict[str, Any]]) -> None:
    for d in properties:
        i = d["field"]
        g.owner[i] = d["owner"]
        g.level[i] = g.hotel_level if d["hotel"] else d["houses"]
        g.factory[i] = d["factory"]
        g.mortgaged[i] = d["mortgaged"]
    g.factories = sum(g.factory)
    top = g.hotel_level
    # the bank's supply is counted always (and enforced with building_shortage): what is built is not in it
    g.houses_left -= sum(level for level in g.level if level < top)
    g.hotels_left -= sum(1 for level in g.level if level == top)


def _place_turn(g: GameState, t: dict[str, Any]) -> None:
    g.current, g.first, g.round, g.turns = t["player"], t["first"], t["round"], t["number"]
    g.phase = Phase(t["phase"])
    g.rolls_due, g.doubles_count, g.prison_tries = t["roll_due"], t["doubles"], t["prison_tries"]
    g.dice = (t["last_roll"][0], t["last_roll"][1]) if t["last_roll"] else (0, 0)
    g.pending_field = g.players[g.current].pos if g.phase == BUYING else -1
