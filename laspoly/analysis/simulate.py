"""Monte Carlo of whole bot games, on local processes or a Dask cluster, and bot tournaments.

Each game's seed is derived from the master seed and the game's index
(:func:`game_seed`), and bots are dealt to seats by the index too, so the
results for a given seed are identical whatever the number of workers or the
backend.
"""

from __future__ import annotations

import math
import sys
import time
from collections.abc import Callable, Iterable, Sequence
from concurrent.futures import ProcessPoolExecutor, as_completed
from dataclasses import asdict, dataclass, field
from typing import Any

from laspoly.analysis.stats import binomial_two_sided_p, goodness_of_fit, percentile, wilson
from laspoly.bots.registry import DEFAULT_BOT, make_bot
from laspoly.bots.runner import DEFAULT_MAX_ROUNDS, play_bot_turns, young_collections_batched
from laspoly.engine.game import Game
from laspoly.errors import LaspolyError, RuleOptionError
from laspoly.rules.presets import load_preset

MASK64 = (1 << 64) - 1
#: How long to wait for a Dask scheduler to answer before giving up with one clear error.
DASK_CONNECT_TIMEOUT_S = 3


def game_seed(master: int, index: int) -> int:
    """A 63-bit seed for game ``index`` of a run with seed ``master`` (SplitMix64 mixing)."""
    x = (master * 0x9E3779B97F4A7C15 + (index + 1) * 0xD1B54A32D192ED03) & MASK64
    x = ((x ^ (x >> 30)) * 0xBF58476D1CE4E5B9) & MASK64
    x = ((x ^ (x >> 27)) * 0x94D049BB133111EB) & MASK64
    return (x ^ (x >> 31)) >> 1


@dataclass(frozen=True)
class Spec:
    """Everything a worker needs to play games (plain data, so it pickles to any backend)."""

    variant: str = "laspoly"
    rules: dict[str, Any] = field(default_factory=dict)
    bots: tuple[str, ...] = (DEFAULT_BOT,) * 4
    seed: int = 0
    max_turns: int | None = None
    rotate: bool = False

    def seats(self, index: int) -> tuple[str, ...]:
        """Bots by seat for game ``index``: rotated by the index in a tournament."""
        if not self.rotate:
            return self.bots
        r = index % len(self.bots)
        return self.bots[r:] + self.bots[:r]


@dataclass(frozen=True)
class GameRecord:
    """The outcome of one simulated game."""

    index: int
    seed: int
    seats: tuple[str, ...]
    first: int
    winner: int
    turns: int
    rounds: int
    capped: bool
    landings: tuple[int, ...]

    @property
    def winner_bot(self) -> str:
        """The temperament that won."""
        return self.seats[self.winner]


def play_one(spec: Spec, index: int) -> GameRecord:
    """Play game ``index`` of ``spec`` to its end and record it."""
    seed = game_seed(spec.seed, index)
    seats = spec.seats(index)
    # no event log: the engine counts each move's destination as it moves (the log's Moved events, counted), and a
    # game that keeps no log makes fewer events, none of which outlives its turn for the collector to walk again
    game = Game(len(seats), preset=spec.variant, seed=seed, rules=spec.rules or None,
                max_rounds=DEFAULT_MAX_ROUNDS, keep_history=False, record_events=False)
    landings = game.state.landings = [0] * len(game.fields)
    bots = [make_bot(name, seed=seed + k) for k, name in enumerate(seats)]
    cap = spec.max_turns
    play_bot_turns(game, bots, until=(lambda g: g.turns > cap) if cap else None)
    if not game.is_over:
        game.end_by_cap()
    return GameRecord(index, seed, seats, game.first, game.winner, min(game.turns, cap) if cap else game.turns,
                      game.round, game.end_reason == "net_worth", tuple(landings))


def play_many(spec: Spec, indices: Sequence[int]) -> list[GameRecord]:
    """A worker's share: play each game index (top-level, so processes and Dask can run it).

    Young collections stay batched for the whole share, not only while each game's bots play: put back
    between two short games, the threshold made the collector walk each finished game's event log, which
    cost about 5% of a run of trading bots' games.
    """
    with young_collections_batched():
        return [play_one(spec, i) for i in indices]


def _chunks(games: int, size: int) -> list[list[int]]:
    return [list(range(i, min(i + size, games))) for i in range(0, games, size)]


def run(spec: Spec, games: int, *, workers: int = 1, dask: str | None = None,
        progress: Callable[[int], None] | None = None) -> list[GameRecord]:
    """Play ``games`` games on this process, ``workers`` local processes, or a Dask cluster."""
    if games < 1:
        raise RuleOptionError("play at least one game")
    # Dask spreads many small tasks over however many workers the cluster has; processes take a few each.
    size = math.ceil(games / 40) if dask else math.ceil(games / max(1, workers) / 4)
    chunks = _chunks(games, max(1, min(50, size)))
    out: list[GameRecord] = []
    if dask:
        out = _run_dask(spec, chunks, dask, progress)
    elif workers > 1:
        with ProcessPoolExecutor(max_workers=workers) as pool:
            futures = [pool.submit(play_many, spec, c) for c in chunks]
            for fut in as_completed(futures):
                part = fut.result()
                out += part
                if progress:
                    progress(len(part))
    else:
        for c in chunks:
            part = play_many(spec, c)
            out += part
            if progress:
                progress(len(part))
    return sorted(out, key=lambda r: r.index)


def _connect(client_class: Any, address: str) -> Any:
    """A client of the scheduler at ``address``, or one clear error within a few seconds."""
    try:
        return client_class(address, timeout=DASK_CONNECT_TIMEOUT_S)
    except OSError:  # distributed raises OSError("Timed out trying to connect ...")
        raise LaspolyError(f"no Dask scheduler answered at {address} within {DASK_CONNECT_TIMEOUT_S} s; "
                           "is it running? (`dask scheduler` starts one)") from None


def _run_dask(spec: Spec, chunks: list[list[int]], address: str, progress: Callable[[int], None] | None) -> list[GameRecord]:
    """Run on a Dask scheduler at ``address``, or on a LocalCluster started here for ``local``."""
    from laspoly.extras import require

    require("dask", "running games on Dask")  # an optional extra: a clear error, not a traceback
    from dask.distributed import Client, LocalCluster
    from dask.distributed import as_completed as dask_completed

    cluster = LocalCluster(n_workers=2, threads_per_worker=1, host="127.0.0.1", dashboard_address=None,  # type: ignore[no-untyped-call]
                           processes=True) if address == "local" else None
    client = Client(cluster) if cluster is not None else _connect(Client, address)  # type: ignore[no-untyped-call]
    try:
        futures = client.map(play_many, [spec] * len(chunks), chunks, pure=False)
        out: list[GameRecord] = []
        for fut in dask_completed(futures):  # type: ignore[no-untyped-call]
            part = fut.result()
            out += part
            if progress:
                progress(len(part))
        return out
    finally:
        client.close()
        if cluster is not None:
            cluster.close()


# ---------------------------------------------------------------- results


@dataclass
class SimulationResult:
    """A batch of simulated games and its summary figures."""

    spec: Spec
    records: list[GameRecord]
    elapsed_s: float

    @property
    def games(self) -> int:
        """Number of games played."""
        return len(self.records)

    def wins_by_seat(self) -> list[int]:
        """Wins of each seat, first player's seat... in seat order."""
        wins = [0] * len(self.spec.bots)
        for r in self.records:
            wins[r.winner] += 1
        return wins

    def wins_by_order(self) -> list[int]:
        """Wins by place in the turn order: the first player to move, the second...(the seat effect)."""
        n = len(self.spec.bots)
        wins = [0] * n
        for r in self.records:
            wins[(r.winner - r.first) % n] += 1
        return wins

    def wins_by_bot(self) -> dict[str, int]:
        """Wins of each temperament."""
        wins = {b: 0 for b in self.spec.bots}
        for r in self.records:
            wins[r.winner_bot] += 1
        return wins

    def turn_counts(self) -> list[int]:
        """Player-turns of each game (a re-roll after doubles stays within its turn)."""
        return [r.turns for r in self.records]

    def as_dict(self) -> dict[str, Any]:
        """The JSON shape of ``laspoly simulate --json``."""
        turns = self.turn_counts()
        total_turns = sum(turns)
        landings = [sum(col) for col in zip(*(r.landings for r in self.records), strict=True)]
        return {
            "variant": self.spec.variant,
            "games": self.games,
            "seed": self.spec.seed,
            "bots": list(self.spec.bots),
            "wins_by_seat": self.wins_by_seat(),
            "wins_by_order": self.wins_by_order(),
            "wins_by_bot": self.wins_by_bot(),
            "turns": {"mean": total_turns / self.games, "median": percentile(turns, 0.5), "p90": percentile(turns, 0.9)},
            "capped_games": sum(r.capped for r in self.records),
            "landings": landings,
            "elapsed_s": self.elapsed_s,
            "games_per_s": self.games / self.elapsed_s if self.elapsed_s else math.inf,
            "turns_per_s": total_turns / self.elapsed_s if self.elapsed_s else math.inf,
        }

    def to_frame(self) -> Any:
        """One row per game: index, seed, seats, first, winner, turns, rounds, capped, winner_bot.

        Seats are counted from 1 as a person reads them (``first`` and ``winner``),
        and ``seats`` is the bots by seat as text, ``"basic;greedy"``.
        """
        import pandas as pd

        rows = [{k: v for k, v in asdict(r).items() if k != "landings"}
                | {"seats": ";".join(r.seats), "first": r.first + 1, "winner": r.winner + 1, "winner_bot": r.winner_bot}
                for r in self.records]
        return pd.DataFrame(rows)

    def game_lengths(self) -> Any:
        """The distribution of game lengths: a DataFrame of turns and how many games took them."""
        import pandas as pd

        counts: dict[int, int] = {}
        for t in self.turn_counts():
            counts[t] = counts.get(t, 0) + 1
        frame = pd.DataFrame(sorted(counts.items()), columns=["turns", "games"])
        frame["share"] = frame["games"] / self.games
        return frame


def _progress_bar(total: int, quiet: bool, unit: str) -> Any:
    from tqdm import tqdm

    return tqdm(total=total, disable=quiet, delay=1.0, file=sys.stderr, unit=unit)


def simulate(variant: str = "laspoly", *, players: int = 4, games: int = 100, bots: Iterable[str] | None = None,
             max_turns: int | None = None, seed: int = 0, rules: dict[str, Any] | None = None,
             workers: int = 1, dask: str | None = None, quiet: bool = True) -> SimulationResult:
    """Play ``games`` bot games and summarise them (wins by seat and bot, lengths, landings)."""
    names = tuple(bots) if bots is not None else (DEFAULT_BOT,) * players
    if len(names) != players:
        raise RuleOptionError(f"give one bot per player: {players} players but {len(names)} bots")
    for name in names:
        make_bot(name)
    load_preset(variant).rules.with_overrides(rules)
    spec = Spec(variant, dict(rules or {}), names, seed, max_turns)
    start = time.perf_counter()
    with _progress_bar(games, quiet, "game") as bar:
        records = run(spec, games, workers=workers, dask=dask, progress=bar.update)
    return SimulationResult(spec, records, time.perf_counter() - start)


@dataclass
class TournamentResult:
    """Win rates of temperaments with fair seat rotation, their intervals and tests."""

    result: SimulationResult

    def table(self) -> list[dict[str, Any]]:
        """One row per bot: games, wins, win rate and its 95% interval."""
        games_per_bot = {b: 0 for b in self.result.spec.bots}
        for r in self.result.records:
            for b in set(r.seats):
                games_per_bot[b] += r.seats.count(b)
        wins = self.result.wins_by_bot()
        rows = []
        for b in self.result.spec.bots:
            lo, hi = wilson(wins[b], games_per_bot[b])
            rows.append({"bot": b, "games": games_per_bot[b], "wins": wins[b],
                         "win_rate": wins[b] / games_per_bot[b], "ci_low": lo, "ci_high": hi})
        return rows

    def seat_table(self) -> list[dict[str, Any]]:
        """One row per place in the turn order (1 moves first): wins and 95% interval."""
        n = self.result.games
        rows = []
        for order, w in enumerate(self.result.wins_by_order()):
            lo, hi = wilson(w, n)
            rows.append({"seat": order + 1, "games": n, "wins": w, "win_rate": w / n, "ci_low": lo, "ci_high": hi})
        return rows

    def as_dict(self) -> dict[str, Any]:
        """The JSON shape of ``laspoly tournament --json``.

        Each game has one winner, so the tests treat the win counts as one
        multinomial sample: a goodness-of-fit test against wins in proportion to
        seats played (bots) or equal shares (turn order), and for each pair an
        exact binomial test on the games that one of the two won.
        """
        bots, seats = self.table(), self.seat_table()
        stat, p = goodness_of_fit([r["wins"] for r in bots], [r["games"] for r in bots])
        seat_stat, seat_p = goodness_of_fit([r["wins"] for r in seats], [1.0] * len(seats))
        pairs = [
            {"a": a["bot"], "b": b["bot"],
             "p_value": binomial_two_sided_p(a["wins"], a["wins"] + b["wins"], a["games"] / (a["games"] + b["games"]))}
            for i, a in enumerate(bots) for b in bots[i + 1:]
        ]
        return {
            "variant": self.result.spec.variant, "games": self.result.games, "seed": self.result.spec.seed,
            "bots": bots, "equal_rates": {"chi2": stat, "p_value": p}, "pairs": pairs,
            "seats": seats, "seat_effect": {"chi2": seat_stat, "p_value": seat_p},
            "capped_games": sum(r.capped for r in self.result.records), "elapsed_s": self.result.elapsed_s,
        }

    def to_frame(self) -> Any:
        """The bot table as a DataFrame."""
        import pandas as pd

        return pd.DataFrame(self.table())


def tournament(bots: Sequence[str], *, games: int = 200, variant: str = "laspoly", seed: int = 0,
               rules: dict[str, Any] | None = None, max_turns: int | None = None, workers: int = 1,
               dask: str | None = None, quiet: bool = True) -> TournamentResult:
    """Bots play each other with seats rotated game by game, so every bot sits in every seat equally."""
    names = tuple(bots)
    if len(names) < 2:
        raise RuleOptionError("a tournament needs at least two bots")
    for name in names:
        make_bot(name)
    load_preset(variant).rules.with_overrides(rules)
    spec = Spec(variant, dict(rules or {}), names, seed, max_turns, rotate=True)
    start = time.perf_counter()
    with _progress_bar(games, quiet, "game") as bar:
        records = run(spec, games, workers=workers, dask=dask, progress=bar.update)
    return TournamentResult(SimulationResult(spec, records, time.perf_counter() - start))
