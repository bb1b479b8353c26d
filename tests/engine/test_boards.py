"""Boards are validated data: shipped boards load, bad ones name every problem."""

from __future__ import annotations

import copy
import json
from importlib import resources

import pytest

from laspoly import BoardError, load_preset
from laspoly.rules.board import board_from_dict, load_board


def _raw(name: str) -> dict:
    return json.loads(resources.files("laspoly.data").joinpath("boards", f"{name}.json").read_text(encoding="utf-8"))


def test_laspoly_board_follows_the_brief() -> None:
    b = load_preset("laspoly").board
    kinds = [f.kind for f in b.fields]
    assert b.size == 40 and kinds[0] == "start" and kinds[10] == "prison" and kinds[30] == "go_to_prison"
    assert b.fields_of_kind("station") == (5, 15, 25, 35)
    assert all(b.fields[i].price == 200 for i in (5, 15, 25, 35))
    attractions = [b.fields[i] for i in b.fields_of_kind("attraction")]
    assert sorted(f.label() for f in attractions) == ["Circus", "Ferris Wheel"] and {f.price for f in attractions} == {150}
    assert kinds.count("pot") == 1 and kinds.count("free") == 1 and kinds.count("card") >= 3
    assert sum(1 for f in b.fields if f.kind == "tax" and f.to == "pot") >= 2
    assert len(b.groups) >= 8 and sum(1 for g in b.groups.values() if len(g.fields) == 1) >= 2
    for f in b.fields:
        if f.kind == "street":
            assert len(f.rents) == 6 and f.house_price and f.hotel_price and f.factory_price and f.factory_income and f.mortgage


def test_every_shipped_preset_loads() -> None:
    for name in ("laspoly", "sculptprice", "classic", "standard"):
        assert load_preset(name).board.size == 40


def test_a_bad_board_names_every_problem_in_one_error() -> None:
    raw = _raw("laspoly")
    bad = copy.deepcopy(raw)
    bad["fields"][1]["price"] = -5
    bad["fields"][3]["kind"] = "volcano"
    bad["fields"][6]["group"] = "nowhere"
    bad["decks"]["action"][0]["effect"] = {"type": "teleport"}
    bad["extra"] = 1
    with pytest.raises(BoardError) as info:
        board_from_dict(bad)
    msg = str(info.value)
    for needle in ("fields[1] (Fremont Street).price", "volcano", "nowhere", "teleport", "'extra'"):
        assert needle in msg
    assert "5 problem(s)" in msg


@pytest.mark.parametrize(
    ("mutate", "needle"),
    [
        (lambda d: d.update(format="other"), "not a laspoly board"),
        (lambda d: d.update(version=99), "version 99"),
        (lambda d: d.update(fields="x"), "'fields' must be a list"),
        (lambda d: d["fields"][1].update(rents=[9, 5]), "must not fall"),
        (lambda d: d["fields"][2].update(deck="missing"), "deck 'missing'"),
        (lambda d: d["fields"][0].update(kind="free"), "field 0 must be the one start field"),
        (lambda d: d["fields"][1].update(price=10**12), "between 1 and"),
        (lambda d: d["fields"][1].update(price="60"), "whole number"),
        (lambda d: d["decks"]["action"][0]["effect"].update(field=99), "field index"),
    ],
)
def test_malformed_boards_get_clear_errors(mutate, needle: str) -> None:  # type: ignore[no-untyped-def]
    bad = _raw("laspoly")
    mutate(bad)
    with pytest.raises(BoardError, match=needle.replace("(", r"\(").replace(")", r"\)").replace("[", r"\[").replace("]", r"\]")):
        board_from_dict(bad)


def test_board_files_that_are_not_json_or_too_big_get_clear_errors(tmp_path) -> None:  # type: ignore[no-untyped-def]
    broken = tmp_path / "b.json"
    broken.write_text('{"format": "laspoly-board", "fields": [')
    with pytest.raises(BoardError, match="not valid JSON"):
        load_board(broken)
    huge = tmp_path / "huge.json"
    huge.write_bytes(b" " * 1_000_001)
    with pytest.raises(BoardError, match="limit"):
        load_board(huge)
    with pytest.raises(BoardError, match="cannot read"):
        load_board(tmp_path / "missing.json")
