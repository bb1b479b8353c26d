"""Simulations and tournaments: same results whatever the workers or backend; honest statistics."""

from __future__ import annotations

import json

import pytest

from laspoly.analysis.simulate import game_seed, simulate, tournament
from laspoly.analysis.stats import binomial_two_sided_p, chi2_sf, goodness_of_fit, wilson
from laspoly.cli import main


def test_game_seeds_come_from_the_master_seed_and_the_index() -> None:
    seeds = [game_seed(7, i) for i in range(1000)]
    assert len(set(seeds)) == 1000 and all(0 <= s < 2**63 for s in seeds)
    assert seeds == [game_seed(7, i) for i in range(1000)] and game_seed(8, 0) != seeds[0]


def test_results_are_identical_on_one_process_two_processes_and_a_dask_local_cluster() -> None:
    one = simulate(games=24, seed=5, players=3)
    two = simulate(games=24, seed=5, players=3, workers=2)
    dask = simulate(games=24, seed=5, players=3, dask="local")
    assert one.records == two.records == dask.records
    assert one.as_dict()["wins_by_seat"] == dask.as_dict()["wins_by_seat"]


def test_simulate_json_shape_and_turn_cap() -> None:
    d = simulate(games=20, seed=1, max_turns=40, bots=["greedy", "cautious", "hotel", "factory"]).as_dict()
    for key in ("variant", "games", "seed", "wins_by_seat", "wins_by_bot", "turns", "capped_games", "landings",
                "elapsed_s", "games_per_s", "turns_per_s"):
        assert key in d
    assert sum(d["wins_by_seat"]) == 20 and d["capped_games"] == 20 and d["turns"]["mean"] == 40
    assert set(d["turns"]) == {"mean", "median", "p90"} and len(d["landings"]) == 40


def test_tournament_rotates_seats_so_every_bot_sits_everywhere() -> None:
    r = tournament(["greedy", "cautious", "hotel", "factory"], games=40, seed=2)
    seats = [rec.seats for rec in r.result.records]
    for bot in ("greedy", "cautious", "hotel", "factory"):
        assert sorted(s.index(bot) for s in seats) == [0] * 10 + [1] * 10 + [2] * 10 + [3] * 10
    d = r.as_dict()
    assert [row["games"] for row in d["bots"]] == [40, 40, 40, 40]
    assert sum(row["wins"] for row in d["bots"]) == 40
    assert 0 <= d["equal_rates"]["p_value"] <= 1 and len(d["pairs"]) == 6 and len(d["seats"]) == 4
    assert all(row["ci_low"] <= row["win_rate"] <= row["ci_high"] for row in d["bots"])


def test_statistics_match_known_values() -> None:
    assert chi2_sf(3.841458820694124, 1) == pytest.approx(0.05, abs=1e-9)
    assert chi2_sf(7.814727903251178, 3) == pytest.approx(0.05, abs=1e-9)
    assert chi2_sf(30.0, 3) == pytest.approx(1.3800570312932553e-06, rel=1e-6)
    lo, hi = wilson(50, 100)
    assert lo == pytest.approx(0.4038, abs=1e-4) and hi == pytest.approx(0.5962, abs=1e-4)
    assert goodness_of_fit([50, 50], [1, 1]) == (0.0, 1.0)
    assert goodness_of_fit([60, 40], [1, 1])[0] == pytest.approx(4.0)
    assert binomial_two_sided_p(5, 10) == pytest.approx(1.0)
    assert binomial_two_sided_p(0, 10) == pytest.approx(2 / 1024)
    assert binomial_two_sided_p(8, 10) == pytest.approx(112 / 1024)


def test_tournament_tests_hold_their_level_between_equal_bots() -> None:
    """Between identical bots a 5% test rejects about 5% of the time (seat rotation makes them equal)."""
    import random

    rng = random.Random(3)
    rejections = 0
    for _ in range(400):
        wins = [0, 0, 0, 0]
        for _ in range(200):
            wins[rng.randrange(4)] += 1
        rejections += goodness_of_fit(wins, [1, 1, 1, 1])[1] < 0.05
    assert 8 <= rejections <= 35


def test_cli_analysis_commands_print_json_tables_and_csv(tmp_path, capsys) -> None:  # type: ignore[no-untyped-def]
    assert main(["markov", "--variant", "standard", "--json"]) == 0
    d = json.loads(capsys.readouterr().out)
    assert d["variant"] == "standard" and d["per"] == "roll" and d["prison_policy"] == "leave"
    assert abs(sum(s["probability"] for s in d["squares"]) + d["in_prison"] - 1) < 1e-9
    assert set(d["squares"][0]) >= {"index", "name", "probability"} and "expected_rolls_per_turn" in d
    assert main(["landings", "--rolls", "5000", "--json", "--quiet", "--per", "turn"]) == 0
    d2 = json.loads(capsys.readouterr().out)
    assert d2["per"] == "turn" and set(d2) >= set(d)
    csv = tmp_path / "t.csv"
    assert main(["markov", "--per", "turn", "--prison-policy", "stay", "--csv", str(csv)]) == 0
    assert "in prison" in capsys.readouterr().out and csv.read_text().startswith("index,name,probability,percent")
    assert main(["simulate", "--games", "6", "--json", "--quiet", "--rule", "start_money=2000"]) == 0
    assert json.loads(capsys.readouterr().out)["games"] == 6
    assert main(["tournament", "--bots", "greedy,cautious", "--games", "4", "--quiet"]) == 0
    assert "equal win rates" in capsys.readouterr().out
    assert main(["markov", "--rule", "jail_exit=nope"]) == 2
    assert "jail_exit" in capsys.readouterr().err


def test_a_share_of_simulated_games_keeps_young_collections_batched_between_its_games(monkeypatch: pytest.MonkeyPatch) -> None:
    """Put back between two short games, the collector's threshold made it walk each finished game's log."""
    import gc

    from laspoly.analysis import simulate as simulate_module
    from laspoly.bots.runner import BATCHED_YOUNG_COLLECTIONS

    seen: list[int] = []
    real_play_one = simulate_module.play_one
    monkeypatch.setattr(simulate_module, "play_one", lambda spec, i: seen.append(gc.get_threshold()[0]) or real_play_one(spec, i))
    before = gc.get_threshold()
    records = simulate_module.play_many(simulate_module.Spec("standard"), range(3))
    assert [r.index for r in records] == [0, 1, 2] and seen == [BATCHED_YOUNG_COLLECTIONS] * 3 and gc.get_threshold() == before


def test_a_simulated_games_landings_count_its_moves(monkeypatch: pytest.MonkeyPatch) -> None:
    """A simulated game keeps no event log: the engine counts each move's destination, as its Moved events would."""
    from laspoly.analysis import simulate as simulate_module
    from laspoly.engine import events as E

    games: list[object] = []
    real_game = simulate_module.Game
    asked: list[object] = []
    # the same game with its log kept beside the count (keeping it changes no move)
    monkeypatch.setattr(simulate_module, "Game", lambda *a, **k: asked.append(k.get("record_events"))
                        or games.append(real_game(*a, **{**k, "record_events": True})) or games[-1])
    record = simulate_module.play_one(simulate_module.Spec("standard"), 0)
    assert asked == [False]
    log = games[0].log  # type: ignore[attr-defined]
    assert list(record.landings) == [sum(1 for e in log if type(e) is E.Moved and e.dst == j) for j in range(len(record.landings))]
    assert sum(record.landings) > 0
