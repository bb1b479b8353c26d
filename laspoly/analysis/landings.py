"""Landing counts by Monte Carlo on the real engine, playing a movement-only policy.

The walkers are ordinary players of an ordinary :class:`~laspoly.engine.game.Game`
(with a large purse so that no tax ends a long run); the policy never buys and
makes the same prison and train choices as the Markov chain's policy.  Every
move, card and prison rule is therefore the engine's own: there is no second
copy of the movement rules here.
"""

from __future__ import annotations

import math
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from laspoly.engine import actions as A
from laspoly.engine.game import AUCTION, BUYING, TRAVEL, TURN, Game
from laspoly.errors import RuleOptionError
from laspoly.rules.board import Board

WALKERS = 2
PURSE = 1_000_000


@dataclass(frozen=True)
class LandingCounts:
    """Counts of where rolls (or turns) ended, with "in prison" as the last entry."""

    variant: str
    per: str
    prison_policy: str
    train_target: int | None
    names: tuple[str, ...]
    counts: tuple[int, ...]
    rolls: int
    turns: int

    @property
    def total(self) -> int:
        """Number of rolls (or turns) counted."""
        return sum(self.counts)

    def probabilities(self) -> list[float]:
        """Each field's share, then "in prison"."""
        return [c / self.total for c in self.counts]

    def half_widths(self, z: float = 1.96) -> list[float]:
        """95% normal-approximation half-widths of each share."""
        n = self.total
        return [z * math.sqrt(max(p * (1 - p), 1e-12) / n) for p in self.probabilities()]

    def as_dict(self) -> dict[str, Any]:
        """The same JSON shape as ``laspoly markov --json``, plus counts and half-widths."""
        probs, hws = self.probabilities(), self.half_widths()
        return {
            "variant": self.variant,
            "per": self.per,
            "prison_policy": self.prison_policy,
            "train_target": self.train_target,
            "squares": [{"index": i, "name": name, "probability": probs[i], "count": self.counts[i], "half_width_95": hws[i]}
                        for i, name in enumerate(self.names)],
            "in_prison": probs[-1],
            "expected_rolls_per_turn": self.rolls / self.turns if self.turns else float("nan"),
            "rolls": self.rolls,
        }

    def to_frame(self) -> Any:
        """A pandas DataFrame like :meth:`ChainResult.to_frame`, with counts and half-widths."""
        import pandas as pd

        probs, hws = self.probabilities(), self.half_widths()
        names = [*self.names, "in prison"]
        return pd.DataFrame({"index": range(len(names)), "name": names, "count": self.counts,
                             "probability": probs, "percent": [100 * p for p in probs], "half_width_95": hws})


def engine_landings(
    variant: str = "laspoly", rolls: int = 100_000, *, rules: dict[str, Any] | None = None, seed: int = 0,
    per: str = "roll", prison_policy: str = "leave", train_target: int | None = None, board: Board | None = None,
    progress: Callable[[int], None] | None = None,
) -> LandingCounts:
    """Play ``rolls`` rolls of movement-only walkers on the real engine and count landings."""
    if per not in ("roll", "turn"):
        raise RuleOptionError(f"per must be 'roll' or 'turn', not {per!r}")
    if prison_policy not in ("leave", "stay"):
        raise RuleOptionError(f"prison policy must be 'leave' or 'stay', not {prison_policy!r}")
    # Walkers never bid, so an auction would always end unsold: without auctions no move changes.
    overrides = {**(rules or {}), "start_money": PURSE, "auctions": False}
    game = Game(WALKERS, preset=variant, seed=seed, rules=overrides, board=board, record_events=False, keep_history=False)
    if train_target is not None and train_target not in game.stations:
        raise RuleOptionError(f"the train target must be a station: one of {list(game.stations)}")
    roll_counts, turn_counts, done_rolls, done_turns = _walk(game, rolls, prison_policy, train_target, progress)
    counts = roll_counts if per == "roll" else turn_counts
    return LandingCounts(variant, per, prison_policy, train_target if game.rules.train_travel else None,
                         tuple(f.label() for f in game.fields), tuple(counts), done_rolls, done_turns)


def _walk(game: Game, rolls: int, policy: str, target: int | None,
          progress: Callable[[int], None] | None) -> tuple[list[int], list[int], int, int]:
    """The movement-only policy loop: roll, decline, travel by policy, end the turn."""
    n = len(game.fields)
    prison_slot = n
    by_roll, by_turn = [0] * (n + 1), [0] * (n + 1)
    players, push = game.players, game.push
    roll = [A.Roll(i) for i in range(WALKERS)]
    end = [A.EndTurn(i) for i in range(WALKERS)]
    decline = [A.DeclineBuy(i) for i in range(WALKERS)]
    stay = [A.StayPut(i) for i in range(WALKERS)]
    fine = [A.PayFine(i) for i in range(WALKERS)]
    card = [A.UseJailCard(i) for i in range(WALKERS)]
    travel = [A.Travel(i, target) for i in range(WALKERS)] if target is not None else None
    leave = policy == "leave"
    fine_turns = game.rules.jail_fine_turns
    done = turns = 0
    step = max(1, rolls // 100)
    while done < rolls:
        me = game.current
        p = players[me]
        phase = game.phase
        if phase == TURN:
            if not game.rolls_due:
                slot = prison_slot if p.in_prison else p.pos
                by_turn[slot] += 2 if p.lose_turn else 1
                turns += 2 if p.lose_turn else 1
                push(end[me])
                continue
            if p.in_prison and not game.prison_tries and leave:
                if p.jail_cards:
                    push(card[me])
                elif p.prison_turns < fine_turns:
                    push(fine[me])
            push(roll[me])
            done += 1
            if progress is not None and done % step == 0:
                progress(step)
            if p.in_prison:
                by_roll[prison_slot] += 1
                if game.current != me:  # sent to prison: the turn ended at once (and S2's lost turn is spent there)
                    by_turn[prison_slot] += 2 if p.lose_turn else 1
                    turns += 2 if p.lose_turn else 1
            else:
                by_roll[p.pos] += 1
        elif phase == BUYING:
            push(decline[me])
        elif phase == TRAVEL:
            push(travel[me] if travel is not None and p.pos != target else stay[me])
        elif phase == AUCTION:
            push(A.PassAuction(game.actor))
        else:
            raise RuntimeError(f"a movement-only walker reached phase {phase!r}")
    return by_roll, by_turn, done, turns


@dataclass(frozen=True)
class Agreement:
    """How far Monte Carlo landing shares are from exact ones, in standard errors."""

    max_z: float
    worst: int
    max_half_width: float
    limit: float

    @property
    def ok(self) -> bool:
        """True when every field (and "in prison") is within ``limit`` standard errors."""
        return self.max_z <= self.limit


def agreement(exact: list[float], counts: LandingCounts, limit: float = 4.0) -> Agreement:
    """Compare exact probabilities (fields then "in prison") with counted landings.

    The standard error of each share uses the exact probability, so a field the
    chain says is never landed on but the engine lands on shows up as infinite.
    """
    n = counts.total
    worst, max_z = -1, 0.0
    for i, (p, c) in enumerate(zip(exact, counts.counts, strict=True)):
        se = math.sqrt(p * (1 - p) / n)
        z = abs(c / n - p) / se if se > 0 else (0.0 if c == 0 else math.inf)
        if z > max_z:
            worst, max_z = i, z
    return Agreement(max_z, worst, max(counts.half_widths()), limit)
