"""The benchmark scripts stay runnable: each imports, with the helpers the others take from it."""

from __future__ import annotations

import importlib
import sys
from pathlib import Path
from types import SimpleNamespace

import pytest

BENCHMARKS = Path(__file__).resolve().parents[2] / "benchmarks"


@pytest.mark.parametrize("name", sorted(p.stem for p in BENCHMARKS.glob("*.py")))
def test_every_benchmark_script_imports(name: str, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.syspath_prepend(str(BENCHMARKS))
    module = importlib.import_module(name)
    assert callable(getattr(module, "main", None)), f"{name}.py has no main()"
    sys.modules.pop(name, None)


def test_the_live_odds_benchmark_measures_a_few_steps(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.syspath_prepend(str(BENCHMARKS))
    bench = importlib.import_module("bench_dashboard")
    assert bench.odds_latency(steps=5) > 0


def test_the_page_build_figure_leaves_out_the_first_page_and_gives_each_pieces_median(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.syspath_prepend(str(BENCHMARKS))
    bench = importlib.import_module("bench_dashboard")
    line = bench.page_build([(2000.0, [900.0, 900.0]), (500.0, [40.0, 60.0]), (700.0, [20.0, 80.0]), (600.0, [30.0, 70.0])])
    assert line == ("page build on the server (median of 3): 600 ms CPU, of which the Play tab's 2 pieces 100 ms: "
                    "30 / 70 ms (largest 70 ms)")


def test_the_engine_benchmark_runs_a_repeat_on_the_build_it_names(monkeypatch: pytest.MonkeyPatch) -> None:
    import argparse

    monkeypatch.syspath_prepend(str(BENCHMARKS))
    bench = importlib.import_module("bench_engine")
    args = argparse.Namespace(games=2, max_rounds=30, bot="basic")
    result = bench.one_repeat("pure", "standard", args)
    assert result["build"] == "pure" and result["turns"] > 0 and result["seconds"] > 0


@pytest.mark.parametrize("workload", ["simulate standard", "lab laspoly", "soak"])
def test_the_runs_benchmark_times_a_batch_of_each_workload(workload: str, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.syspath_prepend(str(BENCHMARKS))
    bench = importlib.import_module("bench_runs")
    result = bench.child(workload, 2)
    assert result["count"] > 0 and result["seconds"] > 0 and result["build"] in ("pure", "compiled")


def test_the_runs_benchmark_times_an_earlier_commit_beside_the_builds(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """``bench_runs.py --before REV``: the source of a commit, unpacked from git, timed as a build of its own."""
    monkeypatch.syspath_prepend(str(BENCHMARKS))
    bench = importlib.import_module("bench_runs")
    tree = bench.before_tree("HEAD", into=tmp_path)
    assert (tree / "laspoly" / "engine" / "game.py").exists() and bench.before_tree("HEAD", into=tmp_path) == tree
    result = bench.one_repeat("before", "soak", 2, {"before": tree})
    assert result["count"] == 2 and result["build"] == "pure"


#: A stand-in for a checkout of the peer simulator (github.com/gamescomputersplay/monopoly), with the two
#: modules the peer benchmark imports: each game writes two players' moves and one double, worded as the
#: peer's event log words them, when its log is kept. No network, and none of the peer's code.
_FAKE_PEER = {
    "monopoly/__init__.py": "",
    "monopoly/core/__init__.py": "",
    "monopoly/log_settings.py": '''
from pathlib import Path


class LogSettings:
    KEEP_GAME_LOG = True
    EVENTS_LOG_PATH = Path("events.log")
    BANKRUPTCIES_PATH = Path("bankruptcies.tsv")

    @classmethod
    def init_logs(cls):
        cls.EVENTS_LOG_PATH.write_text("Events log\\n", encoding="utf-8")
''',
    "monopoly/core/game.py": '''
from monopoly.log_settings import LogSettings


def monopoly_game(game_number_and_seed):
    if not LogSettings.KEEP_GAME_LOG:
        return
    with open(LogSettings.EVENTS_LOG_PATH, "a", encoding="utf-8") as log:
        log.write("=== Alice ($1500, at Go) goes: ===\\nAlice rolled a double (1 in a row) so they go again.\\n"
                  "=== Alice ($1500, at Chance) goes: ===\\n=== Bob ($1500, at Go) goes: ===\\n")
''',
}


def _fake_peer(root: Path) -> Path:
    for name, text in _FAKE_PEER.items():
        (root / name).parent.mkdir(parents=True, exist_ok=True)
        (root / name).write_text(text, encoding="utf-8")
    return root


def test_the_peer_benchmark_times_the_peer_with_its_log_off_and_counts_its_player_turns_from_the_same_games_logged(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.syspath_prepend(str(BENCHMARKS))
    bench = importlib.import_module("bench_peer")
    peer = _fake_peer(tmp_path / "peer")
    result = bench.peer_repeat(peer, 3)
    # the fake writes its moves only with its log kept: the turns come from the second, logged play
    assert result["games"] == 3 and result["turns"] == 3 * 2 and result["seconds"] >= 0 and result["seconds_log"] >= 0
    assert not (peer / "events.log").exists(), "the peer's log goes to a temporary directory, not into its checkout"


def test_the_peer_benchmark_prints_each_target_with_its_ratio(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.syspath_prepend(str(BENCHMARKS))
    bench = importlib.import_module("bench_peer")
    lines = bench.targets({"peer": {"games": 50.0, "turns": 30_000.0}, "pure": {"games": 80.0, "turns": 60_000.0}})
    assert len(lines) == 2
    assert "1.60x: met" in lines[0] and ">= 1.5x" in lines[0]
    assert "2.00x: NOT met" in lines[1] and ">= 2.5x" in lines[1]


def test_the_peer_benchmark_skips_with_one_line_when_no_peer_is_given(monkeypatch: pytest.MonkeyPatch,
                                                                       capsys: pytest.CaptureFixture[str]) -> None:
    monkeypatch.syspath_prepend(str(BENCHMARKS))
    monkeypatch.delenv("PEER", raising=False)
    monkeypatch.setattr(sys, "argv", ["bench_peer.py"])
    importlib.import_module("bench_peer").main()
    out = capsys.readouterr().out
    assert out.count("\n") == 1 and "PEER is unset" in out


def test_the_peer_benchmark_times_the_peer_and_a_build_in_one_run(tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                                                                  capsys: pytest.CaptureFixture[str]) -> None:
    """``make bench PEER=...``: the peer and laspoly's pure build alternate, and the targets are printed with ratios."""
    monkeypatch.syspath_prepend(str(BENCHMARKS))
    monkeypatch.setenv("PEER", str(_fake_peer(tmp_path / "peer")))
    monkeypatch.setattr(sys, "argv", ["bench_peer.py", "--games", "1", "--repeats", "1", "--builds", "pure"])
    importlib.import_module("bench_peer").main()
    out = capsys.readouterr().out
    assert "games per second, default bots" in out and "player-turns per second, basic bots" in out
    assert "x the peer" in out and out.count("pure: ") == 2


def test_the_instructions_benchmark_counts_a_player_turn_as_the_batch_less_the_warm_up(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.syspath_prepend(str(BENCHMARKS))
    bench = importlib.import_module("bench_instructions")
    counts = {0: (1_000_000, 0), 20: (1_600_000, 10)}
    asked: list[tuple[str, bool]] = []
    monkeypatch.setattr(bench, "count", lambda tree, build, preset, games, bot="basic", as_simulate=False:
                        asked.append((bot, as_simulate)) or counts[games])
    assert bench.per_turn(BENCHMARKS.parent, "pure", "standard", 20) == (60_000.0, 10)
    assert bench.per_turn(BENCHMARKS.parent, "pure", "standard", 20, "dealer") == (60_000.0, 10)
    assert bench.per_turn(BENCHMARKS.parent, "pure", "standard", 20, "dealer", True) == (60_000.0, 10)
    assert asked == [("basic", False)] * 2 + [("dealer", False)] * 2 + [("dealer", True)] * 2
    assert "from laspoly.analysis.simulate import simulate" in bench.SIMULATE_CHILD  # --simulate: as `laspoly simulate` plays
    assert bench.build_path(BENCHMARKS.parent, "compiled") == BENCHMARKS.parent / "build" / "compiled"
    sys.modules.pop("bench_instructions", None)


def test_a_timed_batch_starts_once_the_other_threads_of_the_process_stop_spinning(monkeypatch: pytest.MonkeyPatch) -> None:
    """The warm-up's numpy solve leaves OpenBLAS threads spinning for a moment; ``process_time`` would charge it to the games.

    The process's clocks are stood in for (a real spinning thread gets too little of a loaded machine to be told apart
    from an idle one): its CPU time grows by 40 ms in each of the first four 50 ms waits, then stays.
    """
    monkeypatch.syspath_prepend(str(BENCHMARKS))
    bench = importlib.import_module("bench_engine")
    clock = {"wall": 0.0, "cpu": 0.0, "busy": 4}

    def sleep(seconds: float) -> None:
        clock["wall"] += seconds
        if clock["busy"]:
            clock["busy"] -= 1
            clock["cpu"] += 0.04

    monkeypatch.setattr(bench, "time", SimpleNamespace(sleep=sleep, perf_counter=lambda: clock["wall"], process_time=lambda: clock["cpu"]))
    assert bench.quiet_threads() == pytest.approx(0.25), "four busy waits, then one idle"
    assert bench.quiet_threads() == pytest.approx(0.05), "an idle process starts after one wait"
