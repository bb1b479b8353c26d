"""Save, load, replay and undo; hostile save files get clear errors."""

from __future__ import annotations

import json

import pytest

from laspoly import Game, SaveFileError, SetupError
from laspoly.bots.basic import BasicBot
from laspoly.bots.runner import play_bot_turns, play_game
from laspoly.engine import actions as A
from laspoly.record import MAX_SAVE_BYTES, game_from_json, game_to_dict, load_game, rewind, save_game


def _played(actions: int = 200) -> Game:
    g = Game(["Ana", "Ben", "Cy"], seed=5, max_rounds=100)
    play_bot_turns(g, [BasicBot() for _ in range(3)], max_actions=actions)
    return g


def test_save_and_load_reproduce_the_identical_state(tmp_path) -> None:  # type: ignore[no-untyped-def]
    g = play_game(Game(["Ana", "Ben"], seed=3, max_rounds=300))
    path = save_game(g, tmp_path / "game.json")
    again = load_game(path)
    assert again.snapshot() == g.snapshot() and again.digest() == g.digest()
    assert [again.describe(e) for e in again.log] == [g.describe(e) for e in g.log]


def test_save_file_is_versioned_json_with_setup_seed_and_actions(tmp_path) -> None:  # type: ignore[no-untyped-def]
    data = json.loads(save_game(_played(), tmp_path / "g.json").read_text())
    assert data["format"] == "laspoly-save" and data["version"] == 1
    assert data["setup"]["seed"] == 5 and data["setup"]["players"] == ["Ana", "Ben", "Cy"]
    assert data["actions"][0]["type"] in ("Roll", "Build", "PayFine")


def test_undo_goes_back_one_decision_by_replay() -> None:
    g = Game(["Ana", "Ben"], seed=4, dice="1-2")
    g.apply(A.Roll(0))
    before = g.snapshot()
    g.apply(A.Buy(0))
    back = rewind(g)
    assert back.snapshot() | {"history": 0} == before | {"history": 0}
    assert back.phase == "buy"


def test_scripted_dice_survive_save_and_load() -> None:
    g = Game(["Ana", "Ben"], seed=4, dice="6-6 1-2")
    g.apply(A.Roll(0))
    again = game_from_json(json.dumps(game_to_dict(g)))
    assert again.dice == (6, 6) and again.digest() == g.digest()


@pytest.mark.parametrize(
    ("text", "needle"),
    [
        ('{"format": "laspoly-save", "version": 1, "setup": {"players": ["A", "B"]}, "actions": [', "not valid JSON"),
        ('[1, 2, 3]', "not a laspoly save file"),
        ('{"format": "chess-pgn"}', "not a laspoly save file"),
        ('{"format": "laspoly-save", "version": 7}', "version 7"),
        ('{"format": "laspoly-save", "version": 1, "setup": {"players": ["A"]}, "actions": []}', "2 to 8 players"),
        ('{"format": "laspoly-save", "version": 1, "setup": {"players": ["A", "B"], "seed": -1}, "actions": []}', "seed"),
        ('{"format": "laspoly-save", "version": 1, "setup": {"players": ["A", "B"], "rules": {"jail_fine": "lots"}}, "actions": []}', "jail_fine"),
        ('{"format": "laspoly-save", "version": 1, "setup": {"players": ["A", "B"], "evil": 1}, "actions": []}', "unknown key"),
        ('{"format": "laspoly-save", "version": 1, "setup": {"players": ["A", "B"]}, "actions": [{"type": "Build", "player": 0, "field": 1}]}', "does not replay"),
        ('{"format": "laspoly-save", "version": 1, "setup": {"players": ["A", "B"]}, "actions": [{"type": "os.system", "player": 0}]}', "not an action"),
        ('{"format": "laspoly-save", "version": 1, "setup": {"players": ["A", "B"]}, "actions": [{"type": "Roll", "player": "0"}]}', "whole number"),
        ('{"format": "laspoly-save", "version": 1, "setup": {"players": [1, 2]}, "actions": []}', "name must be text"),
        ('{"format": "laspoly-save", "version": 1, "setup": {"players": ["A", "B"], "seed": 1e400}, "actions": []}', "seed"),
        ('{"a":' * 100_000, "nested too deeply|not valid JSON"),
        ('{"format": "laspoly-save", "version": 1, "setup": {"players": ["A", "B"], "seed": ' + "9" * 5000 + '}}', "too large|not valid"),
    ],
)
def test_corrupt_truncated_or_foreign_save_files_get_clear_errors(text: str, needle: str) -> None:
    with pytest.raises(SaveFileError, match=needle):
        game_from_json(text)


def test_an_altered_save_file_is_refused_by_its_digest() -> None:
    data = game_to_dict(_played())
    data["actions"] = data["actions"][:-1]
    with pytest.raises(SaveFileError, match="digest"):
        game_from_json(json.dumps(data))


def test_an_oversized_save_file_is_refused_before_reading(tmp_path) -> None:  # type: ignore[no-untyped-def]
    big = tmp_path / "big.json"
    with big.open("wb") as fh:
        fh.truncate(MAX_SAVE_BYTES + 1)
    with pytest.raises(SaveFileError, match="limited to"):
        load_game(big)


@pytest.mark.parametrize("name", ["", "   ", "x" * 41, "tab\there\x00", 7])
def test_hostile_player_names_get_clear_errors(name: object) -> None:
    with pytest.raises(SetupError):
        Game([name, "Ben"])  # type: ignore[list-item]


def test_markup_in_names_is_kept_as_plain_text() -> None:
    g = Game(["<script>alert(1)</script>", "Ben"])
    assert g.players[0].name == "<script>alert(1)</script>"


def test_duplicate_names_are_refused() -> None:
    with pytest.raises(SetupError, match="differ"):
        Game(["Ana", "ana"])
