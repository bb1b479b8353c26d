"""Exact Markov chains of one token's movement, derived from a preset's rules and board data.

The chain's states are the moments just before a roll:

* ``free(pos, d)``: on field ``pos`` with ``d`` doubles already rolled this turn;
* ``jail(k, t)``: in prison after ``k`` failed prison turns and ``t`` failed tries this turn.

A roll enumerates the 36 dice outcomes; a card field enumerates its deck's cards,
each drawn with equal probability (a card that moves onto another card field draws
again).  Doubles, third doubles (prison, lose a turn, or nothing), how prison is
left (doubles, a total of 3, a die showing 3; tries per turn; the forced fine) all
come from :class:`~laspoly.rules.options.RuleOptions`; the fields, decks and the
prison from the :class:`~laspoly.rules.board.Board`.  Nothing here is written for
one board.

Where a person chooses, the chain takes a stated policy:

* ``prison_policy="leave"``: pay the fine before rolling whenever the rules allow;
  ``"stay"``: never pay, roll for the way out as long as allowed;
* ``train_target``: ``None`` never takes the train, or a station index to travel to
  after landing on any other station (when the rules have train travel).

Landings are counted **per roll** (where each roll ended: after cards and
go-to-prison, before a train journey) or **per turn** (where each turn ended),
with "in prison" kept apart from "just visiting".
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import numpy as np

from laspoly.errors import RuleOptionError
from laspoly.rules.board import Board
from laspoly.rules.options import RuleOptions
from laspoly.rules.presets import load_preset

DICE = [(a, b) for a in range(1, 7) for b in range(1, 7)]
MAX_CARD_DEPTH = 8
POLICIES = ("leave", "stay")


@dataclass(frozen=True)
class ChainResult:
    """The stationary landing distribution and what goes with it."""

    variant: str
    per: str
    prison_policy: str
    train_target: int | None
    names: tuple[str, ...]
    squares: np.ndarray  # probability of each field (in prison excluded)
    in_prison: float
    expected_rolls_per_turn: float
    states: int

    def as_dict(self) -> dict[str, Any]:
        """The JSON shape of ``laspoly markov --json``."""
        return {
            "variant": self.variant,
            "per": self.per,
            "prison_policy": self.prison_policy,
            "train_target": self.train_target,
            "squares": [{"index": i, "name": n, "probability": float(p)} for i, (n, p) in enumerate(zip(self.names, self.squares, strict=True))],
            "in_prison": float(self.in_prison),
            "expected_rolls_per_turn": float(self.expected_rolls_per_turn),
        }

    def to_frame(self) -> Any:
        """A pandas DataFrame: one row per field plus "in prison", with probability and percent."""
        import pandas as pd

        rows = [(i, n, float(p)) for i, (n, p) in enumerate(zip(self.names, self.squares, strict=True))]
        rows.append((len(self.names), "in prison", float(self.in_prison)))
        frame = pd.DataFrame(rows, columns=["index", "name", "probability"])
        frame["percent"] = 100 * frame["probability"]
        return frame


class MovementChain:
    """Builds and solves the chain for one board, rule set and policy."""

    def __init__(self, board: Board, rules: RuleOptions, prison_policy: str = "leave",
                 train_target: int | None = None, variant: str = "custom") -> None:
        if prison_policy not in POLICIES:
            raise RuleOptionError(f"prison policy must be one of {POLICIES}, not {prison_policy!r}")
        stations = board.fields_of_kind("station")
        if train_target is not None and train_target not in stations:
            raise RuleOptionError(f"the train target must be a station: one of {list(stations)}")
        self.board, self.rules, self.variant = board, rules, variant
        self.policy, self.target = prison_policy, train_target if rules.train_travel else None
        self.n = board.size
        self.prison = board.prison
        self.jail_states = rules.jail_max_turns * rules.jail_tries_per_turn if self.prison is not None else 0
        self.size = 3 * self.n + self.jail_states
        self._resolved: dict[int, list[tuple[int, float, int]]] = {}
        self.P = np.zeros((self.size, self.size))
        self.land = np.zeros((self.size, self.n + 1))  # per-roll landing probabilities given the state
        self.turn_end = np.zeros((self.size, self.n + 1))  # turn-ending weight by final position
        # for rents and the casino: landing weighted by the dice total, by a card's rent multiplier,
        # and landings on doubles (not six) and on double six
        self.land_total = np.zeros((self.size, self.n + 1))
        self.land_card = np.zeros((self.size, self.n + 1, 11))
        self.land_double = np.zeros((self.size, self.n + 1))
        self.land_double6 = np.zeros((self.size, self.n + 1))
        self._build()

    # -- state ids
    def free(self, pos: int, d: int) -> int:
        """Id of the state on ``pos`` with ``d`` doubles rolled this turn."""
        return pos * 3 + d

    def jail(self, k: int, t: int) -> int:
        """Id of the prison state after ``k`` failed turns and ``t`` failed tries this turn."""
        return 3 * self.n + k * self.rules.jail_tries_per_turn + t

    @property
    def prison_slot(self) -> int:
        """The landing index that means "in prison" (one past the last field)."""
        return self.n

    # -- resolving a landing: go-to-prison and cards
    def resolve(self, x: int, depth: int = 0, mult: int = 0) -> list[tuple[int, float, int]]:
        """Where a token that lands on ``x`` ends up: (field or prison slot, probability, card rent multiplier)."""
        if depth == 0 and x in self._resolved:
            return self._resolved[x]
        f = self.board.fields[x]
        if f.kind == "go_to_prison":
            out = [(self.prison_slot, 1.0, 0)]
        elif f.kind == "card" and depth < MAX_CARD_DEPTH:
            cards = self.board.decks[f.deck]  # type: ignore[index]
            acc: dict[tuple[int, int], float] = {}
            for card in cards:
                for y, p, m in self._card(x, card.effect, card.args, depth):
                    acc[(y, m)] = acc.get((y, m), 0.0) + p / len(cards)
            out = [(y, p, m) for (y, m), p in acc.items()]
        else:
            out = [(x, 1.0, mult)]
        if depth == 0:
            self._resolved[x] = out
        return out

    def _card(self, x: int, effect: str, args: dict[str, Any], depth: int) -> list[tuple[int, float, int]]:
        n = self.n
        if effect == "go_to_prison":
            return [(self.prison_slot, 1.0, 0)]
        if effect == "advance_to":
            return self.resolve(args["field"], depth + 1)
        if effect == "advance_to_nearest":
            kind = args["kind"]
            target = min((i for i in range(n) if self.board.fields[i].kind == kind), key=lambda i: (i - x - 1) % n)
            return self.resolve(target, depth + 1, args.get("rent_multiplier") or 0)
        if effect == "move":
            return self.resolve((x + args["steps"]) % n, depth + 1)
        return [(x, 1.0, 0)]

    def _after_landing(self, landing: int) -> int:
        """The train policy: where the token stands after an optional journey."""
        if self.target is not None and landing != self.prison_slot and landing != self.target and self.board.fields[landing].kind == "station":
            return self.target
        return landing

    # -- building
    def _add(self, s: int, p: float, landing: int, nxt: int, ends_turn: bool, skipped: int = 0,
             dice: tuple[int, int] = (0, 0), mult: int = 0) -> None:
        self.P[s, nxt] += p
        self.land[s, landing] += p
        a, b = dice
        if mult:
            self.land_card[s, landing, mult] += p
        else:
            self.land_total[s, landing] += p * (a + b)
        if a and a == b:
            if a == 6:
                self.land_double6[s, landing] += p
            else:
                self.land_double[s, landing] += p
        if ends_turn:
            final = self.prison_slot if landing == self.prison_slot else self._after_landing(landing)
            self.turn_end[s, final] += p * (1 + skipped)

    def _move(self, s: int, p: float, start: int, dice: tuple[int, int], d_next: int | None, skipped: int = 0) -> None:
        """Move by ``dice`` from ``start``; ``d_next`` is the next doubles count if the turn goes on."""
        for landing, q, mult in self.resolve((start + dice[0] + dice[1]) % self.n):
            if landing == self.prison_slot:
                self._add(s, p * q, landing, self.jail(0, 0), True, dice=dice)
            else:
                pos = self._after_landing(landing)
                if d_next is None:
                    self._add(s, p * q, landing, self.free(pos, 0), True, skipped, dice, mult)
                else:
                    self._add(s, p * q, landing, self.free(pos, d_next), False, 0, dice, mult)

    def _build(self) -> None:
        r = self.rules
        for pos in range(self.n):
            for d in range(3):
                self._free_roll(self.free(pos, d), pos, d)
        if self.prison is None:
            return
        for k in range(r.jail_max_turns):
            for t in range(r.jail_tries_per_turn):
                s = self.jail(k, t)
                if self.policy == "leave" and t == 0 and k < r.jail_fine_turns:
                    self._free_roll(s, self.prison, 0)  # pay the fine, then a normal roll
                else:
                    self._jail_roll(s, k, t)

    def _free_roll(self, s: int, pos: int, d: int) -> None:
        r = self.rules
        for a, b in DICE:
            p = 1 / 36
            if a == b and r.doubles == "extra_roll":
                third = d + 1 >= 3
                if third and r.three_doubles == "prison" and self.prison is not None:
                    self._add(s, p, self.prison_slot, self.jail(0, 0), True)
                elif third and r.three_doubles == "lose_turn":
                    self._move(s, p, pos, (a, b), None, skipped=1)
                else:
                    self._move(s, p, pos, (a, b), min(d + 1, 2))
            else:
                self._move(s, p, pos, (a, b), None)

    def _jail_roll(self, s: int, k: int, t: int) -> None:
        r = self.rules
        for a, b in DICE:
            p = 1 / 36
            way = r.jail_exit
            freed = (way == "doubles" and a == b) or (way == "total_3" and a + b == 3) or (way == "any_die_3" and 3 in (a, b))
            if freed:
                if r.jail_exit_move == "roll_again":
                    for c, e in DICE:
                        self._move(s, p / 36, self.prison, (c, e), None)  # type: ignore[arg-type]
                else:
                    self._move(s, p, self.prison, (a, b), None)  # type: ignore[arg-type]
            elif t + 1 < r.jail_tries_per_turn:
                self._add(s, p, self.prison_slot, self.jail(k, t + 1), False)
            elif k + 1 >= r.jail_max_turns:
                self._move(s, p, self.prison, (a, b), None)  # type: ignore[arg-type]  # the forced fine
            else:
                self._add(s, p, self.prison_slot, self.jail(k + 1, 0), True)

    # -- solving
    def stationary(self) -> np.ndarray:
        """The stationary distribution over roll states."""
        m = self.size
        A = self.P.T - np.eye(m)
        A[-1, :] = 1.0
        rhs = np.zeros(m)
        rhs[-1] = 1.0
        pi, *_ = np.linalg.lstsq(A, rhs, rcond=None)
        pi = np.clip(pi, 0.0, None)
        return pi / pi.sum()

    def solve(self, per: str = "roll") -> ChainResult:
        """Landing probabilities per roll or per turn, and the expected rolls per turn."""
        if per not in ("roll", "turn"):
            raise RuleOptionError(f"per must be 'roll' or 'turn', not {per!r}")
        pi = self.stationary()
        turns_per_roll = float(pi @ self.turn_end.sum(axis=1))
        dist = pi @ (self.land if per == "roll" else self.turn_end)
        dist = dist / dist.sum()
        return ChainResult(
            variant=self.variant, per=per, prison_policy=self.policy, train_target=self.target,
            names=tuple(f.label() for f in self.board.fields), squares=dist[: self.n],
            in_prison=float(dist[self.n]), expected_rolls_per_turn=1.0 / turns_per_roll, states=self.size,
        )


def markov(variant: str = "laspoly", *, rules: dict[str, Any] | None = None, per: str = "roll",
           prison_policy: str = "leave", train_target: int | None = None, board: Board | None = None) -> ChainResult:
    """Build and solve the movement chain of a preset (with optional rule overrides)."""
    preset = load_preset(variant)
    chain = MovementChain(board or preset.board, preset.rules.with_overrides(rules), prison_policy, train_target, variant)
    return chain.solve(per)
