"""The exact movement chain: known answers, data-driven, and agreement with the real engine."""

from __future__ import annotations

import copy
import json
import math
from pathlib import Path
from typing import Any

import pytest
from helpers import load_tool

from laspoly import load_preset
from laspoly.analysis.landings import agreement, engine_landings
from laspoly.analysis.markov import MovementChain, markov
from laspoly.rules.board import board_from_dict

FIXTURES = Path(__file__).parents[1] / "fixtures"
PRESETS = ("laspoly", "sculptprice", "classic", "standard")
PINNED = json.loads((FIXTURES / "markov_chains.json").read_text(encoding="utf-8"))


def _pin_tool() -> Any:
    """The script that wrote the pinned fixture: the test recomputes exactly what it stored."""
    return load_tool("pin_markov_chains")


def _differences(stored: Any, now: Any, where: str = "") -> list[str]:
    """Where two JSON-like values differ: numbers by more than 1e-12 (relative above 1), anything else at all."""
    if isinstance(stored, dict) and isinstance(now, dict):
        if stored.keys() != now.keys():
            return [f"{where}: keys {sorted(stored)} != {sorted(now)}"]
        return [d for k in stored for d in _differences(stored[k], now[k], f"{where}.{k}")]
    if isinstance(stored, list) and isinstance(now, list):
        if len(stored) != len(now):
            return [f"{where}: length {len(stored)} != {len(now)}"]
        return [d for k, (a, b) in enumerate(zip(stored, now, strict=True)) for d in _differences(a, b, f"{where}[{k}]")]
    if isinstance(stored, float) and isinstance(now, int | float) and not isinstance(now, bool):
        ok = math.isclose(stored, now, rel_tol=1e-12, abs_tol=1e-12)
        return [] if ok else [f"{where}: {stored!r} != {now!r}"]
    return [] if stored == now else [f"{where}: {stored!r} != {now!r}"]


def _chain_id(entry: dict[str, Any]) -> str:
    rules = ",".join(f"{k}={v}" for k, v in entry["rules"].items())
    return f"{entry['preset']}[{rules}]-{entry['prison_policy']}-train{entry['train_target']}"


def _exact(result) -> list[float]:  # type: ignore[no-untyped-def]
    return [*map(float, result.squares), result.in_prison]


def test_two_dice_drive_the_chain_squares_sum_to_one() -> None:
    for per in ("roll", "turn"):
        r = markov("laspoly", per=per)
        assert abs(sum(_exact(r)) - 1) < 1e-12
        assert r.squares[30] == 0.0  # nobody ends a roll on Go-Into-Prison


def test_standard_leave_at_once_per_roll_matches_the_published_table() -> None:
    """Truman Collins' "jail short" table (fixture cites source and assumptions), to 0.001 points."""
    fixture = json.loads((FIXTURES / "standard_landing_per_roll.json").read_text())
    r = markov("standard", per="roll", prison_policy="leave")
    for sq in fixture["squares"]:
        assert abs(100 * r.squares[sq["index"]] - sq["percent"]) <= 0.001, sq["name"]
    assert abs(100 * r.in_prison - fixture["in_jail"]) <= 0.001


def test_in_prison_is_kept_apart_from_just_visiting() -> None:
    leave, stay = markov("laspoly", prison_policy="leave"), markov("laspoly", prison_policy="stay")
    assert stay.in_prison > 3 * leave.in_prison
    assert leave.squares[10] > 0.015 and stay.squares[10] > 0.015


def test_expected_rolls_per_turn_follow_the_doubles_rules() -> None:
    assert markov("classic").expected_rolls_per_turn == pytest.approx(1.0)
    # Doubles: 1 + 1/6 + 1/36 would hold without prison; the leave policy is close to it.
    assert 1.18 < markov("laspoly").expected_rolls_per_turn < 1.2


def test_the_chain_follows_edited_board_and_deck_data_with_no_code_change() -> None:
    raw = json.loads((Path(__file__).parents[2] / "laspoly/data/boards/laspoly.json").read_text())
    edited = copy.deepcopy(raw)
    edited["fields"][30], edited["fields"][20] = edited["fields"][20], edited["fields"][30]  # Go-Into-Prison to 20
    edited["decks"]["action"].append({"id": "sphere", "text": "Advance to Sphere Plaza.", "effect": {"type": "advance_to", "field": 36}})
    board = board_from_dict(edited)
    rules = load_preset("laspoly").rules
    before = MovementChain(load_preset("laspoly").board, rules).solve()
    after = MovementChain(board, rules).solve()
    assert after.squares[20] == 0.0 and after.squares[30] > 0.01
    assert after.squares[36] > before.squares[36] + 0.001
    counts = engine_landings("laspoly", 200_000, board=board, seed=5, rules={"card_draw": "random"})
    assert agreement(_exact(after), counts).ok


@pytest.mark.parametrize("preset", PRESETS)
def test_engine_landings_agree_with_the_chain(preset: str) -> None:
    """Movement-only walkers on the real engine, enough rolls for 95% half-widths of 0.05 points."""
    exact = _exact(markov(preset, rules={"card_draw": "random"}))
    counts = engine_landings(preset, 650_000, seed=11, rules={"card_draw": "random"})
    check = agreement(exact, counts)
    assert check.max_half_width <= 0.0005
    assert check.ok, (check.worst, check.max_z)


def test_engine_landings_per_turn_with_prison_stay_and_train_travel_agree() -> None:
    exact = _exact(markov("laspoly", per="turn", prison_policy="stay", train_target=25))
    counts = engine_landings("laspoly", 200_000, seed=3, per="turn", prison_policy="stay", train_target=25)
    assert agreement(exact, counts).ok
    assert exact[5] == exact[15] == exact[35] == 0.0  # a turn never ends at a station other than the target


def test_a_deliberately_broken_rule_makes_the_agreement_fail() -> None:
    raw = json.loads((Path(__file__).parents[2] / "laspoly/data/boards/laspoly.json").read_text())
    broken = copy.deepcopy(raw)
    card = next(c for c in broken["decks"]["action"] if c["id"] == "back3")
    card["effect"]["steps"] = -4  # the chain is told "back 4"; the engine still plays "back 3"
    chain = MovementChain(board_from_dict(broken), load_preset("laspoly").rules).solve()
    counts = engine_landings("laspoly", 200_000, seed=5, rules={"card_draw": "random"})
    assert not agreement(_exact(chain), counts).ok
    assert agreement(_exact(markov("laspoly")), counts).ok


def test_results_come_back_as_dataframes_and_json() -> None:
    r = markov("sculptprice")
    frame = r.to_frame()
    assert list(frame.columns) == ["index", "name", "probability", "percent"] and len(frame) == 41
    assert r.as_dict()["squares"][0]["name"] == "Start"
    assert engine_landings("laspoly", 2000).to_frame()["count"].sum() == 2000


@pytest.mark.parametrize("stored", PINNED["chains"], ids=_chain_id)
def test_every_chain_matches_the_pinned_fixture_to_1e_12(stored: dict[str, Any]) -> None:
    """Results per roll and per turn, stationary distribution, landing weights and per-state rows, as pinned."""
    tool = _pin_tool()
    now = tool.chain_entry(stored["preset"], stored["rules"] or None, stored["prison_policy"], stored["train_target"],
                           stationary="stationary" in stored, per_state="rows" in stored)
    assert not _differences(stored, json.loads(json.dumps(now)))


@pytest.mark.parametrize("stored", PINNED["figures"], ids=lambda e: f"{e['preset']}-{e['prison_policy']}")
def test_derived_figures_match_the_pinned_fixture_to_1e_12(stored: dict[str, Any]) -> None:
    """Expected rent per opponent roll, payback in rounds and the pot's share per landing, as pinned."""
    now = _pin_tool().figures_entry(stored["preset"], stored["prison_policy"])
    assert not _differences(stored, json.loads(json.dumps(now)))


def test_the_fixture_comparison_notices_a_small_change() -> None:
    stored = PINNED["chains"][0]
    nudged = copy.deepcopy(stored)
    nudged["roll"]["squares"][5] += 1e-9
    assert _differences(stored, nudged) and not _differences(stored, copy.deepcopy(stored))


def test_the_chain_module_holds_no_rule_of_its_own() -> None:
    """The chain's modules name no movement rule option, card effect or special field: the engine decides them all.

    Allowed: the prison's shape, which only sizes the state space, and the card model (``card_draw=random``)
    that the chain, like the published tables, assumes.
    """
    import ast
    from dataclasses import fields

    from laspoly.engine.turns import _CARD_EFFECTS
    from laspoly.rules.options import RuleOptions

    root = Path(__file__).parents[2] / "laspoly"
    source = "\n".join((root / path).read_text(encoding="utf-8") for path in ("chain/movement.py", "analysis/markov.py"))
    tree = ast.parse(source)
    docstrings = {id(n.value) for n in ast.walk(tree) if isinstance(n, ast.Expr) and isinstance(n.value, ast.Constant)}
    names = {n.attr for n in ast.walk(tree) if isinstance(n, ast.Attribute)}
    names |= {n.id for n in ast.walk(tree) if isinstance(n, ast.Name)}
    names |= {n.arg for n in ast.walk(tree) if isinstance(n, ast.keyword) and n.arg}
    texts = {n.value for n in ast.walk(tree) if isinstance(n, ast.Constant) and isinstance(n.value, str) and id(n) not in docstrings}
    allowed = {"jail_max_turns", "jail_tries_per_turn", "card_draw"}
    options = {f.name for f in fields(RuleOptions)} - allowed
    values = set(_CARD_EFFECTS) | {"go_to_prison", "card", "extra_roll", "lose_turn", "total_3", "any_die_3", "roll_again",
                                   "exit_roll", "rent_multiplier", "steps", "tax", "pot"}
    assert (names | texts) & options == set()
    assert texts & values == set()
    assert {"jail_exit", "three_doubles", "doubles", "jail_fine_turns"} <= options  # the check can fail
