"""Exact Markov chains of one token's movement, walked through the engine's own rules.

The chain's states are the moments just before a roll:

* ``free(pos, d)``: on field ``pos`` with ``d`` doubles already rolled this turn
  (``d = 2`` stands for two or more: no rule looks past the third doubles);
* ``jail(k, t)``: in prison after ``k`` failed prison turns and ``t`` failed tries this turn.

Nothing here knows a rule.  For each state the chain puts one token in that
state on an ordinary engine :class:`~laspoly.engine.game.Game` and plays the
roll, and :func:`~laspoly.engine.chance.walk_outcomes` replays it once for
every path of chance outcomes the engine meets: the dice (the 21 pairs of
:data:`~laspoly.engine.chance.ROLL_UNORDERED`, since no rule reads their
order), then any card draw (each card of the deck with equal probability, the
engine's ``card_draw=random``), the draw on another card field that a card
moved the token to, C7's second roll after leaving prison.  Doubles, third doubles,
prison tries and the way out, the forced fine, Go-To-Prison, card moves and the
train are the engine's code; the chain only reads where the token ended,
whether the turn goes on, and the dice (``Game.dice``) and card rent multiplier
that rents and the casino would use at that landing.

Where a person chooses, the chain takes a stated policy:

* ``prison_policy="leave"``: pay the fine before rolling whenever the engine allows it;
  ``"stay"``: never pay, roll for the way out as long as allowed;
* ``train_target``: ``None`` never takes the train, or a station index to travel to
  whenever the engine offers a journey (after landing on any other station).

Landings are counted **per roll** (where each roll ended: after cards and
go-to-prison, before a train journey) or **per turn** (where each turn ended),
with "in prison" kept apart from "just visiting".  A chain is built once per
board, rules and policy and kept (:func:`chain_tables`); building it plays
6,000 to 10,000 short pieces of engine play.

The chain sits between the engine and the bots: the trading bots price a
position by its expected rent from these landings, and the analysis
(:mod:`laspoly.analysis.markov`, :func:`~laspoly.analysis.markov.markov` for a
preset by name) builds its tables and lessons on it.
"""

from __future__ import annotations

import dataclasses
from collections import OrderedDict
from dataclasses import dataclass
from typing import Any

import numpy as np

from laspoly.engine import actions as A
from laspoly.engine import events as E
from laspoly.engine.base import rent
from laspoly.engine.chance import Chooser, walk_outcomes
from laspoly.engine.game import TRAVEL, TURN, Game
from laspoly.engine.gamestate import GameState
from laspoly.errors import RuleOptionError
from laspoly.rules.board import Board
from laspoly.rules.options import RuleOptions
from laspoly.rules.presets import Preset

POLICIES = ("leave", "stay")
#: The card model of the chain and of the published tables: every draw a fresh random card of the whole deck.
CARD_MODEL: dict[str, Any] = {"card_draw": "random"}
PURSE = 10**12  # no payment ever interrupts the token's walk
MULTIPLIERS = 11  # card rent multipliers 0..10 are tracked
CACHE_SIZE = 32


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


class _ArrivalRent:
    """The chain's rent policy (``Game(rent_policy=...)``): a rent due on landing is never charged, its card multiplier recorded.

    The chain puts every property in the other player's hands, so a landing
    neither stops for a purchase nor moves money for a card's rent, and the
    engine's own landing code asks this policy for the rent of a landing,
    with the multiplier of the card that brought the token (the standard
    utility and railroad cards) set at the moment it would apply it.
    """

    def __init__(self) -> None:
        self.multiplier = 0

    def __call__(self, s: GameState, i: int) -> int:
        mult = s.card_rent_multiplier
        if not mult:
            return rent(s, i)
        self.multiplier = mult
        s.card_rent_multiplier = 0
        return 0


#: What the chain reads off the engine after one path of chance outcomes through a roll: where the roll
#: ended (the prison slot for "in prison", before any train journey), the next chain state, whether the turn
#: ended, where it ended (after the train), how many turns that was (2 when the next one is lost, S2), the
#: dice that moved the token ((0, 0) if it did not move) and the card rent multiplier it arrived with.
Step = tuple[int, int, bool, int, int, tuple[int, int], int]


@dataclass(frozen=True)
class ChainTables:
    """The transition matrix and landing arrays of one chain, read-only (they are shared through the cache)."""

    P: np.ndarray
    land: np.ndarray
    turn_end: np.ndarray
    land_total: np.ndarray
    land_card: np.ndarray
    land_double: np.ndarray
    land_double6: np.ndarray
    train_offered: bool
    P_cont: np.ndarray  # the part of P where the turn goes on: the next roll is the same player's
    turn_stop: np.ndarray  # where the turn ends, by state: probabilities (turn_end counts a lost next turn twice)


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
        self.policy = prison_policy
        self.n = board.size
        self.prison = board.prison
        self.layout = Layout(board, rules)
        tables = chain_tables(board, rules, prison_policy, train_target)
        self.target = train_target if tables.train_offered else None
        self.tables = tables
        self.P, self.land, self.turn_end = tables.P, tables.land, tables.turn_end
        # for rents and the casino: landing weighted by the dice total, by a card's rent multiplier,
        # and landings on doubles (not six) and on double six
        self.land_total, self.land_card = tables.land_total, tables.land_card
        self.land_double, self.land_double6 = tables.land_double, tables.land_double6
        self.size = self.layout.size

    # -- state ids
    def free(self, pos: int, d: int) -> int:
        """Id of the state on ``pos`` with ``d`` doubles rolled this turn."""
        return self.layout.free(pos, d)

    def jail(self, k: int, t: int) -> int:
        """Id of the prison state after ``k`` failed turns and ``t`` failed tries this turn."""
        return self.layout.jail(k, t)

    @property
    def prison_slot(self) -> int:
        """The landing index that means "in prison" (one past the last field)."""
        return self.n

    # -- solving
    def stationary(self) -> np.ndarray:
        """The stationary distribution over roll states."""
        m = self.size
        A_ = self.P.T - np.eye(m)
        A_[-1, :] = 1.0
        rhs = np.zeros(m)
        rhs[-1] = 1.0
        pi, *_ = np.linalg.lstsq(A_, rhs, rcond=None)
        pi = np.clip(pi, 0.0, None)
        stationary: np.ndarray = pi / pi.sum()
        return stationary

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


class Layout:
    """The chain's state ids: three free states per field, then the prison states by failed turns and tries.

    The prison's shape (how many turns, how many tries per turn) only sizes the
    state space; which state follows which is the engine's to say.
    """

    def __init__(self, board: Board, rules: RuleOptions) -> None:
        self.n = board.size
        self.tries = rules.jail_tries_per_turn
        turns = rules.jail_max_turns if board.prison is not None else 0
        self.prison_states = [(k, t) for k in range(turns) for t in range(self.tries)]
        self.size = 3 * self.n + len(self.prison_states)

    def free(self, pos: int, d: int) -> int:
        """Id of the state on ``pos`` with ``d`` doubles rolled this turn (2 or more counting as 2)."""
        return pos * 3 + min(d, 2)

    def jail(self, k: int, t: int) -> int:
        """Id of the prison state after ``k`` failed turns and ``t`` failed tries this turn."""
        return 3 * self.n + k * self.tries + t


class _Roller:
    """Plays one roll from a chain state on a walker game, under the chain's policy, and reads off the result."""

    def __init__(self, board: Board, rules: RuleOptions, policy: str, target: int | None, ordered_dice: bool) -> None:
        preset = Preset(id="chain", name={}, board=board, rules=dataclasses.replace(rules, **CARD_MODEL), lang="en")
        self.arrival = _ArrivalRent()
        g = self.game = Game(2, preset=preset, keep_history=False, rent_policy=self.arrival)
        for f in board.fields:
            if f.is_property:
                g.owner[f.index] = 1
        self.me, self.other = g.players
        self.layout = Layout(board, rules)
        self.policy, self.target, self.ordered_dice = policy, target, ordered_dice
        self.train_offered = False

    def place(self, pos: int, d: int, jail: tuple[int, int] | None) -> None:
        """Put the token in a chain state, at the start of its roll, with nothing else pending."""
        g, me = self.game.state, self.me
        g.current, g.phase, g.rolls_due, g.pending_field = 0, TURN, True, -1
        g.doubles_count, g.prison_tries = d, jail[1] if jail else 0
        g.card_rent_multiplier = self.arrival.multiplier = 0
        g.dice, g.pot, g.collect_queue = (0, 0), 0, []
        me.pos, me.in_prison, me.prison_turns = pos, jail is not None, jail[0] if jail else 0
        me.lose_turn, me.cash, self.other.cash = False, PURSE, PURSE
        me.jail_cards.clear()
        g.log.clear()

    def paths(self, pos: int, d: int, jail: tuple[int, int] | None) -> list[tuple[float, Step]]:
        """Every path of chance outcomes through one roll from this state, with its probability."""
        g, roll, fine = self.game, A.Roll(0), A.PayFine(0)
        self.place(pos, d, jail)
        pays = self.policy == "leave" and g.is_legal(fine)

        def play(chooser: Chooser) -> Step:
            self.place(pos, d, jail)
            g.chance.chooser = chooser
            if pays:
                g.push(fine)
            g.push(roll)
            return self._read()

        return [(p, step) for p, _, step in walk_outcomes(play, ordered_dice=self.ordered_dice)]

    def _read(self) -> Step:
        """Where the roll left the token, after the train policy, and whether the turn goes on."""
        g, me, layout = self.game, self.me, self.layout
        moved = any(type(e) is E.Moved for e in g.log)
        landing = layout.n if me.in_prison else me.pos
        multiplier = 0 if me.in_prison else self.arrival.multiplier
        if g.phase == TRAVEL:
            self.train_offered = True
            go = self.target is not None and me.pos != self.target
            g.push(A.Travel(0, self.target) if go else A.StayPut(0))  # type: ignore[arg-type]
        if g.phase != TURN:
            raise RuntimeError(f"a chain walker reached phase {g.phase!r}")
        goes_on = g.current == 0 and g.rolls_due
        if me.in_prison:
            nxt = layout.jail(me.prison_turns, g.prison_tries if goes_on else 0)
        else:
            nxt = layout.free(me.pos, g.doubles_count if goes_on else 0)
        return (landing, nxt, not goes_on, layout.n if me.in_prison else me.pos, 2 if me.lose_turn else 1,
                g.dice if moved else (0, 0), multiplier)


def _build(board: Board, rules: RuleOptions, policy: str, target: int | None, ordered_dice: bool) -> ChainTables:
    """Walk one roll from every state through the engine and add up the chain's arrays."""
    roller = _Roller(board, rules, policy, target, ordered_dice)
    layout = roller.layout
    n, size = layout.n, layout.size
    prison = -1 if board.prison is None else board.prison  # a board without a prison has no prison states
    starts: list[tuple[int, int, int, tuple[int, int] | None]] = [
        (layout.free(pos, d), pos, d, None) for pos in range(n) for d in range(3)]
    starts += [(layout.jail(k, t), prison, 0, (k, t)) for k, t in layout.prison_states]
    rows: list[tuple[int, float, Step]] = [(s, p, step) for s, pos, d, jail in starts
                                           for p, step in roller.paths(pos, d, jail)]
    state, p = np.array([r[0] for r in rows]), np.array([r[1] for r in rows])
    x, nxt, ends, final, turns, dice, mult = (np.array(column) for column in zip(*(r[2] for r in rows), strict=True))
    a, b = dice[:, 0], dice[:, 1]
    by_card, six = mult > 0, (a == b) & (a == 6)
    double = (a == b) & (a > 0) & ~six

    def add(shape: tuple[int, ...], where: np.ndarray, columns: tuple[np.ndarray, ...], weight: np.ndarray) -> np.ndarray:
        out = np.zeros(shape)
        np.add.at(out, (state[where], *(c[where] for c in columns)), weight[where])
        return out

    everywhere, landings = np.ones(len(rows), dtype=bool), (size, n + 1)
    P = add((size, size), everywhere, (nxt,), p)
    land = add(landings, everywhere, (x,), p)
    turn_end = add(landings, ends, (final,), p * turns)
    land_total = add(landings, ~by_card, (x,), p * (a + b))
    land_card = add((size, n + 1, MULTIPLIERS), by_card, (x, mult), p)
    land_double, land_double6 = add(landings, double, (x,), p), add(landings, six, (x,), p)
    P_cont, turn_stop = add((size, size), ~ends, (nxt,), p), add(landings, ends, (final,), p)
    return ChainTables(P, land, turn_end, land_total, land_card, land_double, land_double6, roller.train_offered,
                       P_cont, turn_stop)


_CACHE: OrderedDict[tuple[Any, ...], tuple[Board, ChainTables]] = OrderedDict()


def chain_tables(board: Board, rules: RuleOptions, policy: str = "leave", target: int | None = None,
                 *, ordered_dice: bool = False) -> ChainTables:
    """The chain's arrays for a board, rules and policy: walked on first use, then kept (the last 32).

    ``ordered_dice=True`` walks all 36 ordered pairs of dice instead of 21; the
    chain is the same (a test holds every preset to it), only slower to build.
    """
    key = (id(board), rules, policy, target, ordered_dice)
    hit = _CACHE.get(key)
    if hit is not None and hit[0] is board:
        _CACHE.move_to_end(key)
        return hit[1]
    tables = _build(board, rules, policy, target, ordered_dice)
    for f in dataclasses.fields(tables):
        value = getattr(tables, f.name)
        if isinstance(value, np.ndarray):
            value.setflags(write=False)
    _CACHE[key] = (board, tables)
    while len(_CACHE) > CACHE_SIZE:
        _CACHE.popitem(last=False)
    return tables


def clear_chain_cache() -> None:
    """Forget every walked chain (for benchmarks that time a build from scratch)."""
    _CACHE.clear()

