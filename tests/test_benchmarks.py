"""The benchmark scripts stay runnable: each imports, with the helpers the others take from it."""

from __future__ import annotations

import importlib
import sys
from pathlib import Path

import pytest

BENCHMARKS = Path(__file__).resolve().parents[1] / "benchmarks"


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
