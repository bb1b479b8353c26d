"""Hostile files: fuzzed and mutated save and board files through the loaders and the command line.

Each gets a clear error: never a traceback, a hang or huge memory use.
Limits: save files 5 MB (laspoly.record.MAX_SAVE_BYTES), board files 1 MB
(laspoly.rules.board.MAX_BOARD_BYTES); both are refused before they are read.
"""

from __future__ import annotations

import json
import subprocess
import sys
from importlib import resources
from pathlib import Path
from typing import Any

from helpers import NASTY, mutate, paths
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from laspoly import Game
from laspoly.bots.basic import BasicBot
from laspoly.bots.runner import play_bot_turns
from laspoly.errors import LaspolyError
from laspoly.record import game_from_json, game_to_dict
from laspoly.rules.board import board_from_dict


def _save() -> dict[str, Any]:
    g = Game(3, seed=2, max_rounds=50)
    play_bot_turns(g, [BasicBot()] * 3, max_actions=120)
    return game_to_dict(g)


SAVE = _save()
BOARD = json.loads(resources.files("laspoly.data").joinpath("boards", "laspoly.json").read_text(encoding="utf-8"))
SAVE_PATHS = paths(SAVE)
BOARD_PATHS = paths(BOARD)


@settings(max_examples=300, deadline=None, derandomize=True, suppress_health_check=[HealthCheck.too_slow])
@given(st.sampled_from(SAVE_PATHS), NASTY)
def test_a_mutated_save_file_gives_a_clear_error_or_a_valid_game(path: tuple, value: Any) -> None:  # type: ignore[type-arg]
    try:
        text = json.dumps(mutate(SAVE, path, value))
    except ValueError:
        return
    try:
        game_from_json(text)
    except LaspolyError as exc:
        assert str(exc)


@settings(max_examples=300, deadline=None, derandomize=True, suppress_health_check=[HealthCheck.too_slow])
@given(st.sampled_from(BOARD_PATHS), NASTY)
def test_a_mutated_board_gives_a_clear_error_or_a_valid_board(path: tuple, value: Any) -> None:  # type: ignore[type-arg]
    try:
        board_from_dict(mutate(BOARD, path, value))
    except LaspolyError as exc:
        assert str(exc)


@settings(max_examples=200, deadline=None, derandomize=True)
@given(st.integers(0, len(json.dumps(SAVE))))
def test_a_truncated_save_file_gives_a_clear_error(cut: int) -> None:
    text = json.dumps(SAVE)[:cut]
    try:
        game_from_json(text)
    except LaspolyError as exc:
        assert str(exc)


def _cli(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "laspoly", *args], capture_output=True, text=True, timeout=60)


def test_hostile_files_through_the_command_line(tmp_path: Path) -> None:
    cases = {
        "truncated.json": json.dumps(SAVE)[:500],
        "wrong_types.json": json.dumps({**SAVE, "actions": "roll"}),
        "huge_number.json": json.dumps({**SAVE, "setup": {**SAVE["setup"], "seed": 10**40}}),
        "negative_money.json": json.dumps({**SAVE, "setup": {**SAVE["setup"], "rules": {"start_money": -1500}}}),
        "unknown_field.json": json.dumps({**SAVE, "cheat": True}),
        "deep.json": "[" * 200_000 + "]" * 200_000,
        "board_negative.json": json.dumps(mutate(BOARD, ("fields", 1, "price"), -60)),
        "board_unknown.json": json.dumps({**BOARD, "fields": [{**BOARD["fields"][0], "teleport": 1}, *BOARD["fields"][1:]]}),
    }
    for name, text in cases.items():
        path = tmp_path / name
        path.write_text(text)
        for command in (("check", str(path)), ("replay", str(path))):
            out = _cli(*command)
            assert out.returncode == 2, (name, command, out.stdout)
            assert "Traceback" not in out.stderr and out.stderr.startswith("laspoly: error:"), (name, out.stderr)


def test_a_100_mb_file_is_refused_at_once_without_reading_it(tmp_path: Path) -> None:
    big = tmp_path / "big.json"
    with big.open("wb") as fh:
        fh.write(b'{"format": "laspoly-save", ')
        fh.truncate(100_000_000)
    for command in (("check", str(big)), ("replay", str(big))):
        out = _cli(*command)
        assert out.returncode == 2 and "limited to" in out.stderr and "Traceback" not in out.stderr
    board = tmp_path / "board.json"
    with board.open("wb") as fh:
        fh.write(b'{"format": "laspoly-board", ')
        fh.truncate(100_000_000)
    out = _cli("check", str(board))
    assert out.returncode == 2 and "limit" in out.stderr


def test_a_huge_player_count_in_a_save_file_is_refused_without_building_it() -> None:
    for bad in (10**30, 10**9, -3):
        try:
            game_from_json(json.dumps({**SAVE, "setup": {**SAVE["setup"], "players": bad}}))
        except LaspolyError as exc:
            assert "2 to 8 players" in str(exc)
        else:
            raise AssertionError("accepted")
