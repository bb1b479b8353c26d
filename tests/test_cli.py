"""The command line: play, replay and rules; bad input prints an error, not a trace."""

from __future__ import annotations

import subprocess
import sys

import pytest

from laspoly.cli import main


def test_play_finishes_a_game_prints_the_log_and_saves(tmp_path, capsys) -> None:  # type: ignore[no-untyped-def]
    save = tmp_path / "game.json"
    assert main(["play", "--players", "4", "--seed", "7", "--save", str(save)]) == 0
    out = capsys.readouterr().out
    assert "The game begins" in out and "Winner:" in out and save.exists()
    assert main(["replay", str(save)]) == 0
    assert capsys.readouterr().out == out.replace(f"Saved to {save}\n", "")


@pytest.mark.parametrize("variant", ["laspoly", "sculptprice", "classic", "standard"])
def test_every_variant_plays_a_whole_game(variant: str, capsys) -> None:  # type: ignore[no-untyped-def]
    assert main(["play", "--variant", variant, "--quiet", "--seed", "3"]) == 0
    assert "Winner:" in capsys.readouterr().out


def test_sculptprice_speaks_spanish(capsys) -> None:  # type: ignore[no-untyped-def]
    assert main(["play", "--variant", "sculptprice", "--lang", "es", "--seed", "1", "--max-rounds", "5"]) == 0
    out = capsys.readouterr().out
    assert "Empieza la partida" in out and "sacó" in out


def test_rule_overrides_and_their_errors(capsys) -> None:  # type: ignore[no-untyped-def]
    assert main(["play", "--quiet", "--rule", "station_rent=linear", "--rule", "start_money=2000"]) == 0
    assert main(["play", "--quiet", "--rule", "jail_exit=any_die_3"]) == 0
    assert main(["play", "--rule", "jail_exit=magic"]) == 2
    err = capsys.readouterr().err
    assert "jail_exit" in err and "Traceback" not in err


def test_a_bad_save_file_prints_a_clear_error(tmp_path) -> None:  # type: ignore[no-untyped-def]
    bad = tmp_path / "bad.json"
    bad.write_text("{not json")
    out = subprocess.run([sys.executable, "-m", "laspoly", "replay", str(bad)], capture_output=True, text=True)
    assert out.returncode == 2 and "not valid JSON" in out.stderr and "Traceback" not in out.stderr


def test_rules_lists_every_option(capsys) -> None:  # type: ignore[no-untyped-def]
    assert main(["rules"]) == 0
    assert "station_rent" in capsys.readouterr().out
    assert main(["rules", "--variant", "classic"]) == 0
    assert "auctions = true" in capsys.readouterr().out
