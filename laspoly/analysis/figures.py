"""Derived figures for lessons: expected rent, payback, the pot, and win chances.

Rents and payback are exact expectations from the movement chain
(:mod:`laspoly.analysis.markov`) and the board's cards; the pot's growth and
win chances from a saved position are Monte Carlo with 95% intervals.  Every
function takes a preset name and rule overrides, so a figure always follows
the rules the engine plays.
"""

from __future__ import annotations

import copy
from collections import deque
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np

from laspoly.analysis.markov import MovementChain
from laspoly.analysis.simulate import game_seed
from laspoly.analysis.stats import mean_interval, wilson
from laspoly.bots.registry import make_bot
from laspoly.bots.runner import play_bot_turns
from laspoly.engine.chance import Chance
from laspoly.engine.game import Game
from laspoly.record import load_game
from laspoly.rules.presets import load_preset


@dataclass(frozen=True)
class LandingModel:
    """Per-roll landing weights from the stationary chain, for rent and pot figures."""

    chain: MovementChain
    prob: np.ndarray  # P(a roll ends on the field)
    total: np.ndarray  # E[dice total; the roll ends on the field, moved by dice]
    card: np.ndarray  # P(the roll ends on the field after a card with rent multiplier m), by m
    double: np.ndarray  # P(ends on the field with doubles other than double six)
    double6: np.ndarray  # P(ends on the field with double six)
    rolls_per_turn: float


def landing_model(variant: str = "laspoly", rules: dict[str, Any] | None = None, prison_policy: str = "leave") -> LandingModel:
    """Solve the chain once and keep what rents and the pot need."""
    preset = load_preset(variant)
    chain = MovementChain(preset.board, preset.rules.with_overrides(rules), prison_policy, variant=variant)
    pi = chain.stationary()
    turns_per_roll = float(pi @ chain.turn_end.sum(axis=1))
    return LandingModel(chain, pi @ chain.land, pi @ chain.land_total, np.einsum("s,slm->lm", pi, chain.land_card),
                        pi @ chain.land_double, pi @ chain.land_double6, 1.0 / turns_per_roll)


def _frame(rows: list[dict[str, Any]]) -> Any:
    import pandas as pd

    return pd.DataFrame(rows)


def rent_table(variant: str = "laspoly", rules: dict[str, Any] | None = None, prison_policy: str = "leave") -> Any:
    """Expected rent per opponent roll, for every property at every level.

    Streets: each building level (``base``, ``group`` for the doubled base rent,
    1-4 houses, hotel, and factory, which collects nothing).  Stations: by the
    number the owner has.  Attractions: one or all owned; their rent is the dice
    total times the multiplier, so the expectation weights each landing by the
    dice that brought the player there (and a card's own multiplier).
    """
    m = landing_model(variant, rules, prison_policy)
    g = Game(2, preset=variant, rules=rules)
    r, rows = g.rules, []
    stations = g.stations
    for f in g.fields:
        i, p = f.index, float(m.prob[f.index])
        if f.kind == "street":
            group = g.board.groups[f.group]  # type: ignore[index]
            levels: list[tuple[str, int]] = [("base", f.rents[0])]
            if r.group_doubles_rent:
                levels.append(("group", 2 * f.rents[0]))
            levels += [(f"{k} house{'s' if k > 1 else ''}", f.rents[k]) for k in range(1, min(r.max_houses, len(f.rents) - 1) + 1)]
            if r.hotels and len(f.rents) > r.max_houses + 1:
                levels.append(("hotel", f.rents[r.max_houses + 1]))
            if f.factory_price:
                levels.append(("factory", 0))
            rows += [{"index": i, "field": f.label(), "kind": "street", "group": group.label(), "level": lvl, "rent": rent,
                      "landing_per_roll": p, "expected_rent_per_roll": rent * p} for lvl, rent in levels]
        elif f.kind == "station":
            card = float(sum(k * m.card[i, k] for k in range(m.card.shape[1])))
            for n in range(1, len(stations) + 1):
                base = r.station_base_rent * (n if r.station_rent == "linear" else 2 ** (n - 1 if r.station_rent == "doubling" else n))
                rows.append({"index": i, "field": f.label(), "kind": "station", "group": "stations", "level": f"{n} owned",
                             "rent": base, "landing_per_roll": p, "expected_rent_per_roll": base * (p - float(m.card[i, 1:].sum())) + base * card})
        elif f.kind == "attraction":
            card = float(sum(k * 7 * m.card[i, k] for k in range(1, m.card.shape[1])))
            for label, mult in (("one owned", r.attraction_one), ("all owned", r.attraction_all)):
                rows.append({"index": i, "field": f.label(), "kind": "attraction", "group": "attractions", "level": label,
                             "rent": f"{mult} x dice", "landing_per_roll": p, "expected_rent_per_roll": mult * float(m.total[i]) + card})
    return _frame(rows)


def group_rent_table(variant: str = "laspoly", rules: dict[str, Any] | None = None, prison_policy: str = "leave") -> Any:
    """Expected rent per opponent roll of each colour group at each level (the same level on every street)."""
    table = rent_table(variant, rules, prison_policy)
    streets = table[table["kind"] == "street"]
    return streets.groupby(["group", "level"], sort=False, as_index=False)[["expected_rent_per_roll", "landing_per_roll"]].sum()


def payback_table(variant: str = "laspoly", rules: dict[str, Any] | None = None, opponents: int = 3,
                  prison_policy: str = "leave") -> Any:
    """Rounds for a street's buildings to pay for themselves, against ``opponents`` opponents.

    In a round each opponent takes one turn, of ``E[rolls per turn]`` rolls.  The
    gain of houses or a hotel is their rent above the group's doubled base rent
    (which an owner of the whole group collects anyway); a factory earns its
    income each round (L12) but gives up that base rent.
    """
    m = landing_model(variant, rules, prison_policy)
    g = Game(2, preset=variant, rules=rules)
    r, rows = g.rules, []
    for f in g.fields:
        if f.kind != "street" or len(f.rents) < 2:
            continue
        landings = float(m.prob[f.index]) * m.rolls_per_turn * opponents
        base = f.rents[0] * (2 if r.group_doubles_rent else 1)
        row: dict[str, Any] = {"index": f.index, "field": f.label(), "group": g.board.groups[f.group].label(),  # type: ignore[index]
                               "landings_per_round": landings}
        for k in range(1, min(r.max_houses, len(f.rents) - 1) + 1):
            gain = (f.rents[k] - base) * landings
            row[f"{k}_house{'s' if k > 1 else ''}"] = k * g.house_price(f.index) / gain if gain > 0 else float("inf")
        if r.hotels and len(f.rents) > r.max_houses + 1:
            gain = (f.rents[r.max_houses + 1] - base) * landings
            cost = r.max_houses * g.house_price(f.index) + g.hotel_price(f.index)
            row["hotel"] = cost / gain if gain > 0 else float("inf")
        if f.factory_price:
            income = f.factory_income * (landings if r.factory_income_when == "landing" else 1)
            gain = income - base * landings
            row["factory"] = f.factory_price / gain if gain > 0 else float("inf")
        rows.append(row)
    return _frame(rows)


def pot_payout_per_landing(variant: str = "laspoly", rules: dict[str, Any] | None = None, prison_policy: str = "leave") -> dict[str, Any]:
    """The expected share of the pot paid per landing on each pot field (L8: 1/4 on doubles, 1/2 on double six; S4: all)."""
    m = landing_model(variant, rules, prison_policy)
    r = m.chain.rules
    out = []
    for f in m.chain.board.fields:
        if f.kind != "pot":
            continue
        p = float(m.prob[f.index])
        if r.pot_payout == "all":
            share = 1.0
        elif r.pot_payout == "casino_doubles":
            share = (0.25 * float(m.double[f.index]) + 0.5 * float(m.double6[f.index])) / p if p else 0.0
        else:
            share = 0.0
        out.append({"index": f.index, "field": f.label(), "landing_per_roll": p, "expected_share_per_landing": share,
                    "p_doubles_given_landing": float(m.double[f.index]) / p if p else 0.0,
                    "p_double_six_given_landing": float(m.double6[f.index]) / p if p else 0.0})
    return {"variant": variant, "pot_payout": r.pot_payout, "fields": out}


def pot_over_time(variant: str = "laspoly", *, games: int = 50, rounds: int = 60, seed: int = 0,
                  rules: dict[str, Any] | None = None, bots: Sequence[str] = ("basic",) * 4) -> Any:
    """The pot at the start of each round of bot games: mean and 95% interval per round."""
    samples: list[list[int]] = [[] for _ in range(rounds)]
    for k in range(games):
        g = Game(len(bots), preset=variant, seed=game_seed(seed, k), rules=rules, keep_history=False, record_events=False)
        players = [make_bot(b, seed=game_seed(seed, k) + j) for j, b in enumerate(bots)]
        while not g.is_over and g.round <= rounds:
            r = g.round
            samples[r - 1].append(g.pot)
            def round_over(game: Game, r: int = r) -> bool:
                return game.round != r

            play_bot_turns(g, players, until=round_over)
    rows = []
    for r, values in enumerate(samples, start=1):
        mean, lo, hi = mean_interval([float(v) for v in values])
        rows.append({"round": r, "games": len(values), "mean_pot": mean, "ci_low": lo, "ci_high": hi})
    return _frame(rows)


def branch(game: Game, seed: int) -> Game:
    """A copy of ``game`` whose future dice come from ``seed``; the unseen deck order is reshuffled.

    The draw piles are hidden from the players, so a fair look at the future does
    not know their order either.
    """
    memo: dict[int, Any] = {id(game.board): game.board, id(game.preset): game.preset, id(game.fields): game.fields,
                            id(game.rules): game.rules, id(game.log): [], id(game.history): []}
    twin = copy.deepcopy(game, memo)
    twin.chance = Chance(seed)
    for name, deck in twin.decks.items():
        cards = list(deck)
        twin.chance.shuffle(cards)
        twin.decks[name] = deque(cards)
    twin.keep_history = False
    twin.record_events = False
    twin.log = []
    twin.history = []
    return twin


def win_probability(position: Game | str | Path, *, games: int = 200, seed: int = 0,
                    bots: Sequence[str] | None = None, max_rounds: int | None = 300) -> Any:
    """Each player's chance to win from a (saved) position, by Monte Carlo of bot futures, with 95% intervals.

    Each future is a :func:`branch` with its own seed, played by bots (default ``basic``) for at most
    ``max_rounds`` more rounds, after which the richest by net worth wins (L20).
    """
    start = position if isinstance(position, Game) else load_game(position)
    if start.is_over:
        raise ValueError("the game is already over")
    names = list(bots) if bots is not None else ["basic"] * len(start.players)
    wins = [0] * len(start.players)
    for k in range(games):
        g = branch(start, game_seed(seed, k))
        if max_rounds is not None:
            g.setup = {**g.setup, "max_rounds": g.round + max_rounds}
        play_bot_turns(g, [make_bot(n, seed=k) for n in names])
        if not g.is_over:
            g.end_by_cap()
        wins[g.winner] += 1
    rows = []
    for i, p in enumerate(start.players):
        lo, hi = wilson(wins[i], games)
        rows.append({"player": p.name, "active": p.active, "net_worth": start.net_worth(i), "wins": wins[i],
                     "win_probability": wins[i] / games, "ci_low": lo, "ci_high": hi})
    return _frame(rows)
