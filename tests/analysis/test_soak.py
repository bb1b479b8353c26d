"""The soak run reports games, events and failures, and catches a deliberately broken rule."""

from __future__ import annotations

from laspoly.analysis.soak import soak
from laspoly.cli import main


def test_a_short_soak_ends_every_game_with_no_failure() -> None:
    report = soak(24, seed=3)
    assert report.games == 24 and report.events > 1000 and report.ok, report.failures


def test_the_soak_catches_a_deliberately_broken_rule() -> None:
    report = soak(12, seed=3, fault="leaky_salary")
    assert report.failures and "money not conserved" in report.failures[0]


def test_soak_command_exits_non_zero_on_failures(capsys) -> None:  # type: ignore[no-untyped-def]
    assert main(["soak", "--games", "4", "--quiet"]) == 0
    assert "4 games" in capsys.readouterr().out
    assert main(["soak", "--games", "4", "--quiet", "--fault", "leaky_salary"]) == 1
    assert "FAILURE" in capsys.readouterr().out


def test_a_soak_batch_keeps_young_collections_batched_between_its_bots_turns(monkeypatch) -> None:  # type: ignore[no-untyped-def]
    """The soak checks the invariants between calls of the bot loop; the batched threshold holds there too."""
    import gc

    from laspoly.analysis import soak as soak_module
    from laspoly.bots.runner import BATCHED_YOUNG_COLLECTIONS

    seen: list[int] = []
    real_problems = soak_module.problems
    monkeypatch.setattr(soak_module, "problems", lambda game: seen.append(gc.get_threshold()[0]) or real_problems(game))
    before = gc.get_threshold()
    report = soak_module.soak_games(range(2), seed=3)
    assert report.ok and seen and set(seen) == {BATCHED_YOUNG_COLLECTIONS} and gc.get_threshold() == before
