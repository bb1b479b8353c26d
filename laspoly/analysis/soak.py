"""The soak run: many bot games across presets and seeds, invariants checked after every event.

``laspoly soak --games 100000 --workers 2`` (``make soak``) reports games,
events and failures; every game must end (by a winner or the round cap) and
the run must end with no failure.  ``fault=`` injects a deliberately broken
rule, so a test can show that the soak catches faults.
"""

from __future__ import annotations

import traceback
from collections.abc import Callable, Sequence
from concurrent.futures import ProcessPoolExecutor, as_completed
from dataclasses import dataclass, field

from laspoly.analysis.simulate import game_seed
from laspoly.bots.registry import make_bot
from laspoly.bots.runner import play_bot_turns, young_collections_batched
from laspoly.engine.checked import CheckedGame
from laspoly.engine.game import Player
from laspoly.engine.gamestate import GameState, SalaryHook
from laspoly.engine.invariants import problems
from laspoly.engine.turns import pay_salary
from laspoly.rules.presets import preset_names

TEMPERAMENT_MIX = ("basic", "greedy", "cautious", "hotel", "factory", "trader", "random", "dealer", "shark", "companion")


def _leaky_salary(s: GameState, p: Player, landed: bool) -> None:
    """A deliberately broken rule for testing the soak, as the game's salary hook: one more paid from nowhere."""
    pay_salary(s, p, landed)
    p.cash += 1


#: The deliberately broken rules a soak run can inject (``fault=``): each a salary hook of the game.
FAULTS: dict[str, SalaryHook] = {"leaky_salary": _leaky_salary}


@dataclass
class SoakReport:
    """What a soak run found."""

    games: int = 0
    events: int = 0
    unfinished: int = 0
    failures: list[str] = field(default_factory=list)
    by_preset: dict[str, int] = field(default_factory=dict)
    endings: dict[str, int] = field(default_factory=dict)

    def merge(self, other: SoakReport) -> None:
        """Add another worker's counts."""
        self.games += other.games
        self.events += other.events
        self.unfinished += other.unfinished
        self.failures += other.failures
        for mine, theirs in ((self.by_preset, other.by_preset), (self.endings, other.endings)):
            for k, v in theirs.items():
                mine[k] = mine.get(k, 0) + v

    @property
    def ok(self) -> bool:
        """No failure and every game finished."""
        return not self.failures and not self.unfinished

    def summary(self) -> str:
        """One line for people."""
        return (f"{self.games} games, {self.events} events checked, {len(self.failures)} failures, "
                f"{self.unfinished} games that did not end")

    def to_dict(self) -> dict[str, object]:
        """The report as plain data (``laspoly soak --json``)."""
        return {"games": self.games, "events": self.events, "failures": len(self.failures),
                "unfinished": self.unfinished, "by_preset": dict(sorted(self.by_preset.items())),
                "endings": dict(sorted(self.endings.items())), "failure_details": self.failures[:20]}


def soak_games(indices: Sequence[int], seed: int, fault: str | None = None) -> SoakReport:
    """Play the games ``indices`` of a soak run (top-level, so worker processes can run it)."""
    report = SoakReport()
    presets = preset_names()
    salary = FAULTS[fault] if fault else None
    with young_collections_batched():  # for the whole batch, not only while each call of play_bot_turns runs
        for i in indices:
            _soak_one(report, salary, presets[i % len(presets)], game_seed(seed, i))
    return report


def _soak_one(report: SoakReport, salary: SalaryHook | None, preset: str, s: int) -> None:
    """Play one checked game of a soak run and count it in ``report``."""
    n = 2 + s % 5
    game = CheckedGame(n, preset=preset, seed=s, max_rounds=300, keep_history=False, salary=salary)
    bots = [make_bot(TEMPERAMENT_MIX[(s >> (3 * k)) % len(TEMPERAMENT_MIX)], seed=s + k) for k in range(n)]
    try:
        while not game.is_over:
            play_bot_turns(game, bots, max_actions=25)
            found = problems(game)
            if found:
                raise AssertionError("; ".join(found))
    except Exception as exc:  # every failure is reported, none stops the run
        report.failures.append(f"{preset} seed {s}: {type(exc).__name__}: {exc}"[:500])
        report.failures[-1] += "\n" + "".join(traceback.format_exception(exc)[-3:])[:800]
    if not game.is_over:
        report.unfinished += 1
    else:
        ending = game.end_reason or "unknown"
        report.endings[ending] = report.endings.get(ending, 0) + 1
    report.by_preset[preset] = report.by_preset.get(preset, 0) + 1
    report.games += 1
    report.events += game.events_checked


def soak(games: int, *, seed: int = 0, workers: int = 1, fault: str | None = None,
         progress: Callable[[int], None] | None = None) -> SoakReport:
    """Run ``games`` checked bot games on ``workers`` processes."""
    if fault is not None and fault not in FAULTS:
        raise ValueError(f"unknown fault {fault!r}; faults are: {', '.join(FAULTS)}")
    size = max(1, min(200, games // max(1, workers * 8) or 1))
    chunks = [list(range(i, min(games, i + size))) for i in range(0, games, size)]
    report = SoakReport()
    if workers <= 1:
        for c in chunks:
            report.merge(soak_games(c, seed, fault))
            if progress:
                progress(len(c))
        return report
    with ProcessPoolExecutor(max_workers=workers) as pool:
        futures = [pool.submit(soak_games, c, seed, fault) for c in chunks]
        for fut in as_completed(futures):
            part = fut.result()
            report.merge(part)
            if progress:
                progress(part.games)
    return report
