"""The command line: play, replay and rules, help and version; bad input is in test_cli_errors.py."""

from __future__ import annotations

import argparse
import json
import subprocess
import sys
from csv import DictReader

import pytest

from laspoly.cli import build_parser, main


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
    assert capsys.readouterr().out.startswith("Gana " if variant == "sculptprice" else "Winner: ")  # the preset's language


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


def test_version_comes_from_the_package_metadata_and_names_the_build(capsys) -> None:  # type: ignore[no-untyped-def]
    from importlib.metadata import version

    import laspoly

    assert main(["--version"]) == 0
    build = "compiled (mypyc)" if laspoly.COMPILED else "pure Python"
    assert capsys.readouterr().out == f"laspoly {version('laspoly')} ({build})\n"


def _subcommands() -> dict[str, argparse.ArgumentParser]:
    sub = next(a for a in build_parser()._actions if isinstance(a, argparse._SubParsersAction))
    return dict(sub.choices)


@pytest.mark.parametrize("command", sorted(_subcommands()))
def test_every_option_has_a_help_line_and_shows_its_default(command: str, capsys) -> None:  # type: ignore[no-untyped-def]
    parser = _subcommands()[command]
    for action in parser._actions:
        assert action.help, f"{command} {action.option_strings or action.dest} has no help"
    assert main([command, "--help"]) == 0
    text = " ".join(capsys.readouterr().out.split())
    for action in parser._actions:
        if action.option_strings and action.default is not None and action.default is not False and action.default != argparse.SUPPRESS:
            shown = f"{action.default:_}" if isinstance(action.default, int) and action.default >= 10_000 else str(action.default)
            assert f"(default: {shown})" in text, f"{command} {action.option_strings[0]}"


def test_play_counts_default_names_in_the_games_language(capsys) -> None:  # type: ignore[no-untyped-def]
    assert main(["play", "--players", "3", "--quiet", "--seed", "2"]) == 0
    assert "Player " in capsys.readouterr().out
    assert main(["play", "--variant", "sculptprice", "--players", "3", "--seed", "2"]) == 0
    out = capsys.readouterr().out
    assert "Jugador 1" in out and "Player" not in out


def test_sculptprice_in_spanish_ends_in_spanish(tmp_path, capsys) -> None:  # type: ignore[no-untyped-def]
    """The last line too: the winner line at the round cap (L20) and at the last player left."""
    assert main(["play", "--variant", "sculptprice", "--lang", "es", "--seed", "1", "--max-rounds", "3"]) == 0
    out = capsys.readouterr().out
    last = out.splitlines()[-1]
    assert last.startswith("Gana Jugador ") and "límite de rondas" in last
    assert "Winner" not in out and "Player" not in out
    assert main(["play", "--variant", "sculptprice", "--lang", "es", "--seed", "1", "--quiet", "--save", str(tmp_path / "g.json")]) == 0
    first, saved = capsys.readouterr().out.splitlines()
    assert first.startswith("Gana Jugador ") and saved == f"Partida guardada en {tmp_path / 'g.json'}"
    assert main(["play", "--variant", "sculptprice", "--lang", "en", "--seed", "1", "--quiet", "--max-rounds", "3"]) == 0
    assert capsys.readouterr().out.startswith("Winner: Player ")


def test_replay_counts_players_from_1(tmp_path, capsys) -> None:  # type: ignore[no-untyped-def]
    save = tmp_path / "three.json"
    assert main(["play", "--players", "3", "--quiet", "--save", str(save)]) == 0
    data = json.loads(save.read_text())
    data["actions"][0]["player"] = 3  # the fourth player of a three-player game
    save.write_text(json.dumps(data))
    capsys.readouterr()
    assert main(["replay", str(save)]) == 2
    err = capsys.readouterr().err
    assert "there is no player 4 (the players are 1 to 3)" in err and "player 3" not in err


def test_simulate_csv_counts_seats_from_1_and_names_the_bots_as_text(tmp_path, capsys) -> None:  # type: ignore[no-untyped-def]
    csv = tmp_path / "games.csv"
    assert main(["simulate", "--bots", "basic,greedy,hotel", "--games", "9", "--quiet", "--csv", str(csv)]) == 0
    rows = list(DictReader(csv.open()))
    assert len(rows) == 9
    for row in rows:
        seats = row["seats"].split(";")
        assert seats == ["basic", "greedy", "hotel"]
        assert 1 <= int(row["first"]) <= 3 and 1 <= int(row["winner"]) <= 3
        assert seats[int(row["winner"]) - 1] == row["winner_bot"]
    text = capsys.readouterr().out
    for seat in (1, 2, 3):  # the printed table counts seats from 1 too, and agrees with the file
        wins = sum(int(r["winner"]) == seat for r in rows)
        assert f"seat {seat}: {wins}" in text


def test_simulate_plays_as_many_players_as_bots(capsys) -> None:  # type: ignore[no-untyped-def]
    assert main(["simulate", "--bots", "greedy,hotel,basic", "--players", "3", "--games", "3", "--quiet", "--json"]) == 0
    assert len(json.loads(capsys.readouterr().out)["wins_by_seat"]) == 3
    assert main(["simulate", "--bots", "greedy,hotel", "--games", "3", "--quiet", "--json"]) == 0
    assert len(json.loads(capsys.readouterr().out)["wins_by_seat"]) == 2


def test_positions_lists_each_shipped_demonstration_by_id_and_title(capsys) -> None:  # type: ignore[no-untyped-def]
    from laspoly.position_files import demonstrations

    assert main(["positions"]) == 0
    lines = capsys.readouterr().out.splitlines()
    assert len(lines) == len(demonstrations()) >= 10
    assert all(line.split("  ", 1)[0] == d.id and line.split("  ", 1)[1] == d.title for line, d in zip(lines, demonstrations(), strict=True))
    assert main(["positions", "--lang", "es"]) == 0
    assert "El bote del casino" in capsys.readouterr().out


@pytest.mark.parametrize("demo", ["casino-6-6", "start-400", "sculptprice-bote", "classic-auction-claim"])
def test_play_from_a_demonstration_plays_on_to_a_winner(demo: str, capsys) -> None:  # type: ignore[no-untyped-def]
    assert main(["play", "--from", demo, "--quiet"]) == 0
    assert capsys.readouterr().out.strip()


def test_play_from_a_position_file_and_check_validates_it(tmp_path, capsys) -> None:  # type: ignore[no-untyped-def]
    from laspoly.position_files import game_from, save_position

    path = save_position(game_from("start-400"), tmp_path / "start.json")
    assert main(["check", str(path)]) == 0
    assert "a valid laspoly position" in capsys.readouterr().out
    assert main(["play", "--from", str(path), "--quiet"]) == 0


def test_play_from_refuses_options_it_would_ignore_and_unknown_ids(capsys) -> None:  # type: ignore[no-untyped-def]
    assert main(["play", "--from", "casino-6-6", "--players", "3"]) == 2
    assert "leave out --players" in capsys.readouterr().err
    assert main(["play", "--from", "no-such-demo"]) == 2
    err = capsys.readouterr().err
    assert "neither a demonstration" in err and "Traceback" not in err


def test_check_refuses_a_broken_position_naming_its_problems(tmp_path, capsys) -> None:  # type: ignore[no-untyped-def]
    bad = tmp_path / "bad.json"
    bad.write_text('{"format": "laspoly-position", "version": 1, "preset": "laspoly"}')
    assert main(["check", str(bad)]) == 2
    err = capsys.readouterr().err
    assert "needs 'players'" in err and "Traceback" not in err
