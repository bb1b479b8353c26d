"""Positions: the round trip, every impossible position refused with its reason, the size limit,
saving and replaying a game started from a position, and each shipped demonstration playing its point.

Amounts come from the boards in ``laspoly/data/boards``; the demonstrations are in
``laspoly/data/positions`` and documented in ``docs/positions.md``.
"""

from __future__ import annotations

import copy
import json
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from helpers import ANA, BEN, CY, NASTY, act, cash, mutate, paths
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from laspoly import Game, IllegalActionError, LaspolyError
from laspoly.bots.registry import TEMPERAMENTS, make_bot
from laspoly.bots.runner import play_bot_turns
from laspoly.engine import actions as A
from laspoly.engine import events as E
from laspoly.engine.checked import CheckedGame
from laspoly.engine.invariants import problems
from laspoly.engine.position_format import MAX_POSITION_BYTES, position_of
from laspoly.errors import PositionError, SaveFileError
from laspoly.position_files import (
    demonstration_ids,
    demonstrations,
    dumps_position,
    game_from,
    load_demonstration,
    load_position,
    normalise_position,
    position_from_json,
    position_problems,
    position_summary,
    save_position,
)
from laspoly.record import game_from_json, game_to_dict, rewind

DEMO_IDS = demonstration_ids()


def demo(demo_id: str) -> Game:
    """A game that plays on from a shipped demonstration."""
    return Game.from_position(load_demonstration(demo_id))


def _bots(n: int, seed: int) -> list[Any]:
    names = list(TEMPERAMENTS)
    return [make_bot(names[(seed + k) % len(names)], seed=seed + k) for k in range(n)]


# ---------------------------------------------------------------- the round trip


@pytest.mark.parametrize("demo_id", DEMO_IDS)
def test_a_shipped_demonstration_is_in_normal_form_and_round_trips_exactly(demo_id: str) -> None:
    p = load_demonstration(demo_id)
    assert position_of(Game.from_position(p)) == p
    assert json.loads(dumps_position(p)) == p


@pytest.mark.parametrize("preset", ["laspoly", "sculptprice", "classic", "standard"])
def test_a_position_round_trips_exactly_in_every_preset(preset: str) -> None:
    g = Game(3, preset=preset, seed=11, max_rounds=40)
    play_bot_turns(g, _bots(3, 11), max_actions=150)
    p = position_of(g)
    assert position_of(Game.from_position(p)) == p
    assert position_of(Game.from_position(json.loads(json.dumps(p)))) == p


def test_a_loose_position_is_normalised_and_the_normal_form_is_a_fixed_point() -> None:
    loose = {
        "format": "laspoly-position", "version": 1, "preset": "laspoly", "dice": "6-6 1-2",
        "players": [{"name": "  Ana ", "cash": 900}, {"name": "Ben", "field": "Casino", "seat": "basic"}],
        "properties": [{"field": "Glitter Gulch", "owner": "Ben", "houses": 1},
                       {"field": "Fremont Street", "owner": 1, "mortgaged": False}],
        "turn": {"player": 1},
    }
    p = normalise_position(loose)
    assert p["players"][0]["name"] == "Ana" and p["players"][1]["field"] == 17 and p["players"][0]["cash"] == 900
    assert p["players"][1]["cash"] == 1300 and p["players"][1]["seat"] == "basic"
    assert [d["field"] for d in p["properties"]] == [1, 3] and p["properties"][1]["houses"] == 1
    assert p["dice"] == [[6, 6], [1, 2]] and p["turn"]["first"] == 1 and "generator" not in p
    assert len(p["decks"]["action"]) == 19
    assert normalise_position(p) == p


@pytest.mark.parametrize("seed", [1, 2, 3, 4])
def test_a_game_rebuilt_from_its_position_plays_on_identically(seed: int) -> None:
    """The same decisions give the same events and positions, the generator carried across."""
    preset = ["laspoly", "sculptprice", "classic", "standard"][seed % 4]
    g = Game(3, preset=preset, seed=seed, max_rounds=30)
    bots = _bots(3, seed)
    play_bot_turns(g, bots, max_actions=60 + 40 * seed)
    while g.phase not in ("turn", "buy", "travel"):
        g.apply(bots[g.actor].choose(g.observe()))
    twin = Game.from_position(position_of(g))
    assert twin.legal_actions() == g.legal_actions()
    for _ in range(300):
        if g.is_over:
            break
        action = bots[g.actor].choose(g.observe())
        before, twin_before = len(g.log), len(twin.log)
        g.apply(action)
        twin.apply(action)
        assert [e.as_dict() for e in twin.log[twin_before:]] == [e.as_dict() for e in g.log[before:]]
        if g.phase in ("turn", "buy", "travel"):
            assert position_of(twin) == position_of(g)
    assert twin.is_over == g.is_over and twin.winner == g.winner


def test_the_generator_is_carried_once_it_has_moved_and_left_out_while_it_stands_at_the_seed() -> None:
    p = load_demonstration("casino-2-2")
    assert "generator" not in p
    g = Game.from_position(p)
    g.apply(A.Roll(ANA))  # scripted: the generator has not moved
    assert "generator" not in position_of(g)
    g.apply(A.Roll(ANA))  # from the seed now
    moved = position_of(g)
    assert moved["generator"].startswith("mt19937:")
    assert Game.from_position(moved).chance.getstate()[0] == g.chance.getstate()[0]


def test_a_position_from_the_seed_alone_plays_on_from_that_seed() -> None:
    p = load_demonstration("start-400")
    p["dice"] = []
    one, two = Game.from_position(p), Game.from_position(p)
    for g in (one, two):
        g.apply(A.Roll(ANA))
    assert one.dice == two.dice and position_of(one) == position_of(two)


def test_the_bank_is_derived_so_money_is_conserved() -> None:
    p = load_demonstration("casino-6-6")
    g = Game.from_position(p)
    assert g.bank == 1300 * 2 - (1040 + 1215) - 175
    assert g.total_money() == g.rules.start_money * len(g.players) and problems(g) == []


def test_the_demonstration_words_stay_only_while_the_game_stands_at_its_position() -> None:
    g = demo("start-400")
    assert position_of(g)["about"]["id"] == "start-400"
    g.apply(A.Roll(ANA))
    assert "about" not in position_of(g)


def test_seat_kinds_are_kept_and_can_be_given() -> None:
    p = load_demonstration("casino-2-2")
    p["players"][1]["seat"] = "cautious"
    g = Game.from_position(p)
    assert [d["seat"] for d in position_of(g)["players"]] == ["person", "cautious"]
    assert [d["seat"] for d in position_of(g, seats=["greedy", "person"])["players"]] == ["greedy", "person"]
    with pytest.raises(PositionError, match="seat kinds"):
        position_of(g, seats=["person"])


def test_a_game_in_an_auction_has_no_position() -> None:
    g = demo("classic-auction-claim")
    g.apply(A.Roll(ANA))
    g.apply(A.DeclineBuy(ANA))
    with pytest.raises(PositionError, match="an auction is running"):
        position_of(g)


def test_a_game_in_a_debt_or_over_has_no_position() -> None:
    g = demo("sell-hotel")
    g.apply(A.Roll(ANA))
    with pytest.raises(PositionError, match="a debt is being paid"):
        position_of(g)
    over = Game(["Ana", "Ben"], seed=4, max_rounds=1)
    over.end_by_cap()
    with pytest.raises(PositionError, match="the game is over"):
        position_of(over)


# ---------------------------------------------------------------- every impossible position refused with its reason


def _base() -> dict[str, Any]:
    """Ana and Ben in Las Poly, Ana to roll: Ana owns the Neon group, Ben Hoover Dam Road and two stations."""
    return normalise_position({
        "format": "laspoly-position", "version": 1, "preset": "laspoly", "seed": 3,
        "players": [{"name": "Ana", "cash": 1000, "field": 4}, {"name": "Ben", "cash": 1100, "field": 22}],
        "properties": [{"field": 1, "owner": 0}, {"field": 3, "owner": 0}, {"field": 7, "owner": 1},
                       {"field": 5, "owner": 1}, {"field": 15, "owner": 1}],
        "pot": 100,
    })


def _owned(p: dict[str, Any], field: int) -> dict[str, Any]:
    return next(d for d in p["properties"] if d["field"] == field)


def _classic() -> dict[str, Any]:
    return normalise_position({
        "format": "laspoly-position", "version": 1, "preset": "classic",
        "players": [{"name": "Ana"}, {"name": "Ben"}],
        "properties": [{"field": 1, "owner": 0}, {"field": 3, "owner": 0}, {"field": 39, "owner": 1}],
    })


def _sculptprice() -> dict[str, Any]:
    return normalise_position({"format": "laspoly-position", "version": 1, "preset": "sculptprice",
                               "players": [{"name": "Ana"}, {"name": "Ben"}]})


BROKEN: list[tuple[str, Callable[[], dict[str, Any]], Callable[[dict[str, Any]], Any], str]] = [
    # the file itself
    ("wrong format", _base, lambda p: p.update(format="laspoly-save"), "not a laspoly position"),
    ("unknown version", _base, lambda p: p.update(version=2), "version 2 is not supported"),
    ("unknown key", _base, lambda p: p.update(cheat=True), "unknown key"),
    ("unknown preset", _base, lambda p: p.update(preset="chess"), "unknown preset 'chess'"),
    ("bad rule option", _base, lambda p: p.update(rules={"jail_exit": "magic"}), "jail_exit=magic is not allowed"),
    ("rules that do not fit the board", _sculptprice, lambda p: p.update(rules={"three_doubles": "prison"}),
     "needs a board with a prison"),
    ("bad seed", _base, lambda p: p.update(seed=-1), "seed: must be from 0"),
    ("bad generator", _base, lambda p: p.update(generator="mt19937:1:abc"), "generator: must be the text"),
    ("bad dice", _base, lambda p: p.update(dice=[[7, 1]]), "each die shows 1 to 6"),
    # players: count, names, cash, fields, prison (L14), out of the game (L19)
    ("one player", _base, lambda p: p["players"].pop(), "2 to 8 players"),
    ("nine players", _base, lambda p: p.update(players=[{"name": f"P{k}"} for k in range(9)]), "2 to 8 players"),
    ("unprintable name", _base, lambda p: p["players"][0].update(name="A\u202eB"), "printable"),
    ("names alike", _base, lambda p: p["players"][1].update(name="ANA"), "names must differ"),
    ("cash not a number", _base, lambda p: p["players"][0].update(cash="lots"), "cash: must be a whole number"),
    ("negative cash", _base, lambda p: p["players"][0].update(cash=-5), "cash: must be from 0"),
    ("cash that hit zero (L19)", _base, lambda p: p["players"][0].update(cash=0), "hits zero is out"),
    ("a field off the board", _base, lambda p: p["players"][0].update(field=40), "field: must be a field's index (0 to 39) or name, not 40"),
    ("a prisoner off the prison (L14)", _base, lambda p: p["players"][0].update(in_prison=True),
     "stands on the prison (field 10)"),
    ("prison turns past the limit (L14)", _base, lambda p: p["players"][0].update(in_prison=True, field=10, prison_turns=3),
     "prison_turns is at most 2"),
    ("prison turns outside prison", _base, lambda p: p["players"][0].update(prison_turns=1), "not in prison"),
    ("prison without a prison (S2)", _sculptprice, lambda p: p["players"][0].update(in_prison=True),
     "this board has no prison"),
    ("a lost turn under L13", _base, lambda p: p["players"][1].update(loses_turn=True), "three_doubles=lose_turn"),
    ("an out player with cash", _base, lambda p: (p["players"].append({**p["players"][1], "name": "Cy", "out": True}),
                                                 p["players"][2].update(seat="person")), "is out of the game, so holds"),
    ("fewer than two players in", _base, lambda p: p["players"][1].update(out=True, cash=0) or p.update(
        properties=[d for d in p["properties"] if d["owner"] != 1]), "at least two players"),
    # ownership (unique, only properties) and buildings (L11, L12, L17, L18, S1, C9)
    ("the pot negative", _base, lambda p: p.update(pot=-1), "pot: must be from 0"),
    ("a pot on a board without one", _classic, lambda p: p.update(pot=10), "nothing on this board pays into a pot"),
    ("an owned casino", _base, lambda p: p["properties"].append({"field": 17, "owner": 0}), "is not a property"),
    ("a property listed twice", _base, lambda p: p["properties"].append({"field": 1, "owner": 1}), "is listed twice"),
    ("an owner who is nobody", _base, lambda p: _owned(p, 1).update(owner=5), "must be a seat"),
    ("houses on a station", _base, lambda p: _owned(p, 5).update(houses=1), "a station takes no buildings"),
    ("houses on a mortgaged street (L18)", _base, lambda p: _owned(p, 7).update(houses=1, mortgaged=True),
     "mortgaged with buildings"),
    ("a factory with houses (L12)", _base, lambda p: _owned(p, 7).update(houses=1, factory=True), "a factory and houses"),
    ("a hotel with houses", _base, lambda p: _owned(p, 7).update(houses=4, hotel=True), "a hotel replaces the houses"),
    ("a hotel in Sculptprice (S1)", lambda: {**_sculptprice(), "properties": [{"field": 1, "owner": 0}, {"field": 3, "owner": 0}]},
     lambda p: (_owned(p, 1).update(hotel=True), _owned(p, 3).update(hotel=True)), "these rules have no hotels"),
    ("five houses", _base, lambda p: _owned(p, 7).update(houses=5), "houses: must be from 0 to 4"),
    ("uneven building (L11)", _base, lambda p: _owned(p, 1).update(houses=2), "built unevenly"),
    ("a factory where none is allowed", _classic, lambda p: (_owned(p, 1).update(factory=True)), "takes no factory"),
    ("buildings without the whole group (L11, C9)", _classic, lambda p: _owned(p, 39).update(houses=1),
     "owns the whole group with no street mortgaged"),
    ("building on a mortgaged group (L11, C9)", _classic,
     lambda p: (_owned(p, 1).update(mortgaged=True), _owned(p, 3).update(houses=1)), "no street mortgaged"),
    ("more than a trade can leave on a split group (L11, L16)", _base,
     lambda p: (_owned(p, 3).update(owner=1), _owned(p, 1).update(houses=2)), "at most one house"),
    ("two builders in one group (L11)", _base,
     lambda p: (_owned(p, 3).update(owner=1, houses=1), _owned(p, 1).update(houses=1)), "buildings of two players"),
    ("more houses than the bank has", lambda: {**_classic(), "rules": {"building_shortage": True}, "properties": [
        {"field": f, "owner": 0, "houses": 4} for f in (1, 3, 6, 8, 9, 11, 13, 14, 16, 18, 19)]}, lambda p: None,
     "the bank has only 32 houses"),
    # cards (L15)
    ("a card missing from the deck", _base, lambda p: p["decks"]["action"].pop(), "missing"),
    ("a card twice", _base, lambda p: p["decks"]["action"].__setitem__(0, p["decks"]["action"][1]), "listed twice"),
    ("an unknown card", _base, lambda p: p["decks"]["action"].__setitem__(0, "joker"), "no card(s) 'joker'"),
    ("a kept card that is not a jail card", _classic, lambda p: p["players"][0]["jail_cards"].append(["chance", "go"]),
     "not a Get-Out-of-Prison card"),
    ("a jail card held and in the deck", _classic, lambda p: p["players"][0]["jail_cards"].append(["chance", "jail_free"]),
     "listed twice"),
    # whose turn and the phase
    ("an auction phase", _base, lambda p: p["turn"].update(phase="auction"), "must be one of turn, buy, travel"),
    ("a purchase of an owned street", _base, lambda p: (p["turn"].update(phase="buy", roll_due=False),
                                                        p["players"][0].update(field=1)), "only on an unowned property"),
    ("a train from a street (L10)", _base, lambda p: p["turn"].update(phase="travel", roll_due=False), "only from a station"),
    ("a purchase with a roll due and no doubles", _base, lambda p: (p["turn"].update(phase="buy"),
                                                                      p["players"][0].update(field=6)), "only after doubles"),
    ("a fourth doubles (L13)", _base, lambda p: p["turn"].update(doubles=3), "at most 2 doubles"),
    ("doubles counted in classic (C12)", _classic, lambda p: p["turn"].update(doubles=1), "no extra roll"),
    ("a prisoner's doubles", _base, lambda p: (p["players"][0].update(in_prison=True, field=10), p["turn"].update(doubles=1)),
     "free a prisoner"),
    ("a fourth prison try (L14)", _base, lambda p: (p["players"][0].update(in_prison=True, field=10),
                                                    p["turn"].update(prison_tries=3)), "no roll is due"),
    ("prison tries outside prison", _base, lambda p: p["turn"].update(prison_tries=1), "made no prison tries"),
    ("the turn of a player who is out", _base, lambda p: (
        p["players"].append({**p["players"][1], "name": "Cy", "cash": 0, "out": True, "field": 0}),
        p["turn"].update(player=2)), "Cy is out of the game"),
    ("a round past the cap (L20)", _base, lambda p: p.update(max_rounds=3) or p["turn"].update(round=4), "past the cap"),
    ("a rent claim without claiming rules (C6)", _base,
     lambda p: p["claims"].append({"payer": 0, "owner": 1, "field": 7, "amount": 8}), "rent_claim"),
    ("an offer to oneself", _base, lambda p: p["offers"].append({"id": 1, "from": 0, "to": 0, "give": [1]}),
     "from one player to another"),
    ("next offer id taken", _base, lambda p: (p["offers"].append({"id": 1, "from": 0, "to": 1, "give": [1]}),
                                              p.update(next_offer=1)), "next_offer: must be from 2"),
]


def test_a_problem_in_a_group_names_the_group_as_it_is_called_never_the_the_strip_group_L11() -> None:
    p = _base()
    p["properties"] += [{"field": 21, "owner": 0, "houses": 2}, {"field": 23, "owner": 0}, {"field": 24, "owner": 0}]
    with pytest.raises(PositionError) as caught:
        Game.from_position(p)
    assert "group (The Strip): is built unevenly" in str(caught.value) and "the The" not in str(caught.value)
    assert "the position has 1 problem:" in str(caught.value)  # one problem, in the singular


@pytest.mark.parametrize(("make", "change", "reason"), [b[1:] for b in BROKEN], ids=[b[0] for b in BROKEN])
def test_an_impossible_position_is_refused_with_its_reason_and_changes_nothing(
        make: Callable[[], dict[str, Any]], change: Callable[[dict[str, Any]], Any], reason: str) -> None:
    p = make()
    change(p)
    with pytest.raises(PositionError) as caught:
        Game.from_position(p)
    assert reason in str(caught.value)
    g = demo("casino-2-2")
    before = g.digest()
    with pytest.raises(PositionError):
        g.set_position(p)
    assert g.digest() == before and position_of(g) == load_demonstration("casino-2-2")


def test_one_error_names_every_problem() -> None:
    p = _base()
    p["players"][0]["cash"] = -1
    p["players"][1]["field"] = 99
    p["pot"] = "full"
    with pytest.raises(PositionError, match=r"has 3 problems:") as caught:
        Game.from_position(p)
    text = str(caught.value)
    assert "players[0].cash" in text and "players[1].field" in text and "pot: must be a whole number" in text
    assert len(position_problems(p)) == 3 and position_problems(_base()) == []


def test_a_position_the_trades_of_las_poly_can_reach_is_accepted() -> None:
    """L16: an unbuilt street may leave a built group, so one house may stand on a group Ana no longer holds whole."""
    p = _base()
    _owned(p, 3).update(owner=1, mortgaged=True)
    _owned(p, 1).update(houses=1)
    assert Game.from_position(p).level[1] == 1


def test_a_shortage_position_counts_the_banks_houses() -> None:
    p = _classic()
    p["rules"] = {"building_shortage": True}
    _owned(p, 1).update(houses=4)
    _owned(p, 3).update(hotel=True)
    g = Game.from_position(p)
    assert g.houses_left == 28 and g.hotels_left == 11


# ---------------------------------------------------------------- files: the size limit and hostile content


def test_a_position_over_the_size_limit_is_refused_before_it_is_read(tmp_path: Path) -> None:
    big = tmp_path / "big.json"
    with big.open("wb") as fh:
        fh.write(b'{"format": "laspoly-position", ')
        fh.truncate(100_000_000)
    with pytest.raises(PositionError, match="limited to"):
        load_position(big)
    with pytest.raises(PositionError, match="limit"):
        position_from_json(" " * (MAX_POSITION_BYTES + 1))


def test_a_truncated_or_deep_position_file_gives_a_clear_error() -> None:
    text = dumps_position(load_demonstration("casino-2-2"))
    for raw in (text[:300], "[" * 100_000 + "]" * 100_000, "{\"format\": 1}"):
        with pytest.raises(PositionError):
            position_from_json(raw)


DEMO = load_demonstration("factory-income")


@settings(max_examples=300, deadline=None, derandomize=True, suppress_health_check=[HealthCheck.too_slow])
@given(st.sampled_from(paths(DEMO)), NASTY)
def test_a_mutated_position_gives_a_clear_error_or_a_valid_game(path: tuple[Any, ...], value: Any) -> None:
    try:
        g = Game.from_position(json.loads(json.dumps(mutate(DEMO, path, value))))
    except ValueError:  # LaspolyError, or a value JSON cannot hold
        return
    assert problems(g) == [] and position_of(Game.from_position(position_of(g))) == position_of(g)


# ---------------------------------------------------------------- save and replay a game started from a position


def test_a_game_from_a_position_saves_and_replays_from_that_position(tmp_path: Path) -> None:
    g = demo("classic-auction-claim")
    for action in (A.Roll(ANA), A.DeclineBuy(ANA), A.PlaceBid(BEN, 10), A.PassAuction(CY), A.EndTurn(ANA), A.Roll(BEN)):
        g.apply(action)
    data = json.loads(json.dumps(game_to_dict(g)))
    assert data["setup"]["position"]["about"]["id"] == "classic-auction-claim"
    back = game_from_json(json.dumps(data))
    assert back.digest() == g.digest() and position_of(back) == position_of(g)
    assert position_of(rewind(back, len(back.history))) == load_demonstration("classic-auction-claim")


def test_a_save_whose_position_or_setup_was_altered_is_refused() -> None:
    g = demo("start-400")
    g.apply(A.Roll(ANA))
    data = json.loads(json.dumps(game_to_dict(g)))
    bad = copy.deepcopy(data)
    bad["setup"]["position"]["players"][0]["cash"] = 0
    with pytest.raises(SaveFileError, match="starting position is not valid"):
        game_from_json(json.dumps(bad))
    bad = copy.deepcopy(data)
    bad["setup"]["seed"] = 99
    with pytest.raises(SaveFileError, match="does not match its starting position"):
        game_from_json(json.dumps(bad))
    bad = copy.deepcopy(data)
    bad["setup"]["position"]["players"][0]["cash"] = 950  # a valid position, but not the one this game was played from
    with pytest.raises(SaveFileError, match="digest does not match"):
        game_from_json(json.dumps(bad))


def test_save_and_load_a_position_file(tmp_path: Path) -> None:
    g = demo("train-fares")
    g.apply(A.Roll(ANA))
    path = save_position(g, tmp_path / "airport.json")
    p = load_position(path)
    assert p == position_of(g) and p["turn"]["phase"] == "travel"
    assert game_from(path).legal_actions() == g.legal_actions()
    assert "Ana to decide on the train" in position_summary(p)


def test_set_position_replaces_the_whole_game_and_starts_a_fresh_log() -> None:
    g = Game(["Ana", "Ben"], seed=4, dice="1-2")
    g.apply(A.Roll(ANA))
    g.set_position(load_demonstration("start-400"))
    assert g.history == [] and g.log == [] and g.players[ANA].pos == 36 and g.setup["position"]["about"]["id"] == "start-400"
    checked = CheckedGame.from_position(load_demonstration("sell-hotel"))
    checked.apply(A.Roll(ANA))
    assert checked.events_checked > 0


# ---------------------------------------------------------------- the shipped demonstrations


def test_there_are_at_least_ten_demonstrations_each_explained_in_english_and_spanish() -> None:
    assert len(DEMO_IDS) >= 10 and len(set(DEMO_IDS)) == len(DEMO_IDS)
    for demo_id in DEMO_IDS:
        about = load_demonstration(demo_id)["about"]
        assert about["id"] == demo_id
        assert set(about["title"]) == set(about["explanation"]) == {"en", "es"}
        assert all(len(lines) == 2 for lines in about["explanation"].values())
        assert load_demonstration(demo_id)["dice"], "each demonstration scripts the roll that makes its point"
    assert [d.id for d in demonstrations("es")] == list(DEMO_IDS)
    assert demonstrations("es")[0].title.startswith("El bote")
    with pytest.raises(PositionError, match="no demonstration 'nope'; the demonstrations are: casino-2-2"):
        load_demonstration("nope")


@pytest.mark.parametrize("demo_id", DEMO_IDS)
def test_each_demonstration_plays_on_with_bots_keeping_every_invariant(demo_id: str) -> None:
    g = CheckedGame.from_position(load_demonstration(demo_id))
    play_bot_turns(g, _bots(len(g.players), 5), max_actions=300)
    assert problems(g) == []


def test_L8_demo_the_casino_pays_a_quarter_of_175_rounded_down_on_2_2() -> None:
    g = demo("casino-2-2")
    g.apply(A.Roll(ANA))
    assert g.players[ANA].pos == 17 and cash(g)[ANA] == 1040 + 43 and g.pot == 175 - 43
    assert g.rolls_due


def test_L8_demo_the_casino_pays_half_of_175_rounded_down_on_6_6() -> None:
    g = demo("casino-6-6")
    g.apply(A.Roll(ANA))
    assert g.players[ANA].pos == 17 and cash(g)[ANA] == 1040 + 87 and g.pot == 175 - 87


@pytest.mark.parametrize(("station", "fare"), [("Stratosphere Station", 75), ("Union Plaza Station", 150),
                                               ("Convention Center Station", 225)])
def test_L10_demo_the_fare_from_the_airport_is_75_per_station_passed(station: str, fare: int) -> None:
    g = demo("train-fares")
    g.apply(A.Roll(ANA))  # 21 + 4: Ben's Airport Station, rent 50
    assert g.phase == "travel" and cash(g) == [1000 - 50, 1150 + 50]
    g.apply(A.Travel(ANA, g.board.find(station)))
    assert cash(g)[ANA] == 1000 - 50 - fare  # no salary, even past Start
    assert g.players[ANA].pos == g.board.find(station) and cash(g)[BEN] == 1200


def test_L12_demo_a_factory_pays_its_owner_in_prison_and_its_landers_nothing_and_evenness_skips_it() -> None:
    g = demo("factory-income")
    g.apply(A.Roll(BEN))  # 38 + 3: past Start onto Fremont Street, Ana's factory
    assert g.players[BEN].pos == 1 and cash(g) == [900, 1200 + 200]
    g.apply(A.EndTurn(BEN))
    assert cash(g)[ANA] == 900 + 11 and g.players[ANA].in_prison
    assert isinstance(g.log[-1], E.Paid) and g.log[-1].reason == "factory_income"
    act(g, A.Build, 3, "house")  # a third house beside the factory: evenness counts Glitter Gulch alone
    assert g.level[3] == 3


def test_L3_demo_landing_exactly_on_start_pays_400() -> None:
    g = demo("start-400")
    g.apply(A.Roll(ANA))
    assert g.players[ANA].pos == 0 and cash(g)[ANA] == 900 + 400


def test_L13_demo_the_third_doubles_go_to_prison_unmoved_without_salary() -> None:
    g = demo("three-doubles")
    g.apply(A.Roll(ANA))
    p = g.players[ANA]
    assert p.in_prison and p.pos == 10 and cash(g)[ANA] == 1100 and g.current == BEN


def test_L14_demo_three_failed_tries_on_the_third_prison_turn_force_the_fine_and_the_move() -> None:
    g = demo("prison-tries")
    for _ in range(2):
        g.apply(A.Roll(ANA))
        assert g.players[ANA].in_prison and g.rolls_due
    g.apply(A.Roll(ANA))
    assert not g.players[ANA].in_prison and g.players[ANA].pos == 16 and cash(g)[ANA] == 700 - 50


def test_L5_L18_demo_a_whole_group_doubles_the_rent_with_a_mortgaged_street_and_repaying_adds_10_percent() -> None:
    g = demo("mortgage-double-rent")
    g.apply(A.Roll(ANA))
    assert g.players[ANA].pos == 3 and cash(g) == [1150 - 10, 1060 + 10]
    g.apply(A.EndTurn(ANA))
    act(g, A.Repay, 1)
    assert cash(g)[BEN] == 1070 - 33 and not g.mortgaged[1]


def test_L17_demo_a_hotel_sells_back_for_half_its_price_and_leaves_four_houses() -> None:
    g = demo("sell-hotel")
    g.apply(A.Roll(ANA))  # Blackjack: 75 to the pot, and Ana has 60
    assert g.phase == "debt"
    g.apply(A.SellBuilding(ANA, 32))
    assert g.level[32] == 4 and g.phase == "turn" and cash(g)[ANA] == 60 + 100 - 75 and g.pot == 50 + 75
    with pytest.raises(IllegalActionError, match="sell evenly"):
        g.apply(A.SellBuilding(ANA, 32))


def test_S4_demo_the_bote_takes_the_whole_pot_and_taxes_feed_it() -> None:
    g = demo("sculptprice-bote")
    g.apply(A.Roll(ANA))
    assert g.players[ANA].pos == 20 and cash(g)[ANA] == 1200 + 350 and g.pot == 0
    g.apply(A.EndTurn(ANA))
    g.apply(A.Roll(BEN))
    assert g.players[BEN].pos == 4 and cash(g)[BEN] == 1250 - 200 and g.pot == 200


def test_C2_C6_demo_a_declined_street_is_auctioned_and_rent_is_paid_only_when_claimed() -> None:
    g = demo("classic-auction-claim")
    g.apply(A.Roll(ANA))
    g.apply(A.DeclineBuy(ANA))
    assert g.phase == "auction" and g.actor == BEN
    g.apply(A.PlaceBid(BEN, 10))
    g.apply(A.PassAuction(CY))
    assert g.owner[3] == BEN and cash(g) == [1400, 1440, 1400]
    g.apply(A.EndTurn(ANA))
    g.apply(A.Roll(BEN))  # onto Cy's Oriental Avenue: rent 6, due only when claimed
    assert g.players[BEN].pos == 6 and cash(g) == [1400, 1440, 1400] and g.claims
    g.apply(A.ClaimRent(CY, 6))
    assert cash(g) == [1400, 1434, 1406]


def test_game_from_takes_an_id_or_a_file_and_names_the_demonstrations_otherwise(tmp_path: Path) -> None:
    assert game_from("start-400").players[ANA].pos == 36
    with pytest.raises(PositionError, match="neither a demonstration"):
        game_from(str(tmp_path / "missing.json"))
    bad = tmp_path / "bad.json"
    bad.write_text(json.dumps({**load_demonstration("start-400"), "pot": -3}))
    with pytest.raises(LaspolyError, match=r"bad\.json: the position has 1 problem"):
        game_from(bad)
