"""Live odds for the table: where the player to move may end this roll and this turn, and each decision's stakes.

Every number comes from the exact movement chain (:mod:`laspoly.analysis.markov`),
which walks the engine's own rules and chance outcomes; nothing here is a table
written by hand.  The chain's states are the moments before a roll, so a live
game maps onto one: a free token on field ``pos`` with ``d`` doubles this turn,
or a prisoner after ``k`` failed prison turns and ``t`` failed tries.  From it:

* **this roll**: the chain's landing row of that state;
* **this turn**: the rolls still to come in the turn are the chain's transitions
  that do not end it (``P_cont``), so the turn's end is
  ``(I - P_cont)^-1 @ turn_stop``;
* **an opponent landing before your next turn**: field ``i`` is visited during a
  turn unless every roll avoids it, and a roll that lands on ``i`` and goes on
  leaves the token on ``i``, so the visit probability solves
  ``(I - P_cont without the states on i) v = land[:, i]``;
* **the long run**: the stationary landing share per roll, with prisoners paying to leave as the
  published tables and the Probability tab assume (:func:`~laspoly.analysis.markov.markov`'s default).

Cards are drawn as a fresh random card of the deck (the chain's card model: a
player does not know the deck's order), the train is never taken and a
prisoner rolls for doubles (the policy "stay"): the odds of the roll about to
be made.  Figures for decisions (buy, build, the casino) use the long-run
landing share per roll, as the lessons' rent tables do, and say rent per
**opponent turn** (the share per roll times the expected rolls in a turn), the
one unit the Play tab speaks in.
"""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction
from functools import lru_cache
from typing import Any

import numpy as np

from laspoly.analysis.figures import LandingModel, landing_model, pot_payout_per_landing
from laspoly.analysis.markov import MovementChain
from laspoly.engine.game import Game
from laspoly.rules.presets import load_preset

#: The largest denominator a probability is shown as a fraction with (6^6 = 46656 covers three rolls of two dice).
MAX_DENOMINATOR = 46656


@dataclass(frozen=True)
class LiveOdds:
    """Per field (and the prison apart): this roll, this turn and the long run, for one player's token."""

    player: int
    roll: np.ndarray  # P(the next roll ends on each field); index n is "in prison"
    turn: np.ndarray  # P(this turn ends on each field); index n is "in prison"
    long_run: np.ndarray  # the stationary share of rolls ending on each field (prisoners pay to leave); n: "in prison"
    expected_rent: list[float | None]  # per field: expected rent per opponent turn to its owner now (None: unowned)


class _Solved:
    """A preset's chain under the live odds' policy, with the turn's solves done once."""

    def __init__(self, preset: str, rules: tuple[tuple[str, Any], ...]) -> None:
        p = load_preset(preset)
        overrides = dict(rules)
        self.chain = MovementChain(p.board, p.rules.with_overrides(overrides), "stay", variant=preset)
        t = self.chain.tables
        size = self.chain.size
        self.eye = np.eye(size)
        self.P_cont, self.land = t.P_cont, t.land
        self.turn = np.linalg.solve(self.eye - t.P_cont, t.turn_stop)
        self.n = self.chain.n
        # the field each state's token stands on (the prison's field for prison states)
        layout = self.chain.layout
        self.pos = np.array([s // 3 for s in range(3 * self.n)] + [p.board.prison] * len(layout.prison_states), dtype=int)
        self.free_states = np.arange(size) < 3 * self.n
        self.models: dict[str, LandingModel] = {}
        self._visits: dict[int, np.ndarray] = {}
        self._prison_turns: np.ndarray | None = None
        self._out: np.ndarray | None = None

    def visits(self, field: int) -> np.ndarray:
        """Per state: P(the rest of this turn lands on ``field`` at least once)."""
        if field not in self._visits:
            keep = self.P_cont.copy()
            keep[:, self.free_states & (self.pos == field)] = 0.0  # landing there and going on: already counted
            self._visits[field] = np.linalg.solve(self.eye - keep, self.land[:, field])
        return self._visits[field]

    def out_by_doubles(self) -> np.ndarray:
        """Per prison state: P(doubles within the tries left this turn).  A roll that moves a prisoner is doubles or,
        on the last try of the last turn, the forced fine; the chain counts doubles landings apart."""
        if self._out is None:
            jail = ~self.free_states
            t = self.chain.tables
            doubles = (t.land_double + t.land_double6)[jail].sum(axis=1)
            within = self.P_cont[np.ix_(jail, jail)]
            self._out = np.linalg.solve(np.eye(int(jail.sum())) - within, doubles)
        return self._out

    def prison_turns(self) -> np.ndarray:
        """Per prison state: the expected number of turns, this one included, that end in prison, rolling for doubles
        (a move straight back into prison, by its field or a card, counts again)."""
        if self._prison_turns is None:
            jail = ~self.free_states
            Q = self.chain.P[np.ix_(jail, jail)]
            ends_in_prison = self.chain.tables.turn_stop[jail, self.n]
            self._prison_turns = np.linalg.solve(np.eye(int(jail.sum())) - Q, ends_in_prison)
        return self._prison_turns


@lru_cache(maxsize=16)
def _solved(preset: str, rules: tuple[tuple[str, Any], ...]) -> _Solved:
    return _Solved(preset, rules)


def solved_for(game: Game) -> _Solved:
    """The chain of the game's preset and rule overrides, solved once per process."""
    return _solved(game.preset.id, tuple(sorted(game.setup["rules"].items())))


@lru_cache(maxsize=16)
def _landing_model(preset: str, rules: tuple[tuple[str, Any], ...]) -> LandingModel:
    return landing_model(preset, dict(rules) or None)


def _model_of(game: Game) -> LandingModel:
    """The long-run landing model of the game's rules (prisoners pay to leave, as the published tables assume)."""
    return _landing_model(game.preset.id, tuple(sorted(game.setup["rules"].items())))


def state_of(game: Game, player: int) -> int:
    """The chain state of a player's next roll: this turn's doubles and prison tries when the roll is theirs now."""
    chain = solved_for(game).chain
    p = game.players[player]
    now = game.current == player and game.rolls_due
    if p.in_prison:
        turns = min(p.prison_turns, game.rules.jail_max_turns - 1)
        return chain.jail(turns, game.prison_tries if now else 0)
    return chain.free(p.pos, game.doubles_count if now else 0)


def live_odds(game: Game, player: int | None = None) -> LiveOdds:
    """The odds of ``player``'s token (the player to move by default), and the expected rent of every owned field."""
    player = game.current if player is None else player
    solved = solved_for(game)
    s = state_of(game, player)
    return LiveOdds(player, solved.land[s], solved.turn[s], _model_of(game).prob, expected_rents(game))


def _rent_per_roll(game: Game, model: LandingModel, i: int, rent_now: int | None = None) -> float:
    """Expected rent one opponent roll brings field ``i`` at a rent of ``rent_now`` (the rent due now by default)."""
    f = game.fields[i]
    card = model.card[i]
    if f.kind == "attraction":  # the dice total times the multiplier; a card's landing rolls again, times its own
        mult = game.rent(i, dice_total=1) if rent_now is None else rent_now
        return mult * float(model.total[i]) + float(sum(k * 7 * card[k] for k in range(1, card.shape[0])))
    rent = game.rent(i) if rent_now is None else rent_now
    by_card = float(sum(k * card[k] for k in range(1, card.shape[0])))
    return rent * (float(model.prob[i]) - float(card[1:].sum()) + by_card)


def expected_rents(game: Game) -> list[float | None]:
    """Per field: the expected rent per opponent turn to its owner, as things stand (None where nobody owns it)."""
    model = _model_of(game)
    per_turn = model.rolls_per_turn
    return [(_rent_per_roll(game, model, i) * per_turn if game.owner[i] >= 0 else None) for i in range(len(game.fields))]


def as_fraction(p: float) -> Fraction | None:
    """``p`` as a fraction with a denominator up to :data:`MAX_DENOMINATOR`, if one equals it to 1e-12."""
    f = Fraction(p).limit_denominator(MAX_DENOMINATOR)
    return f if abs(float(f) - p) < 1e-12 else None


def show_probability(p: float) -> str:
    """A probability as a student reads it: "5/36 = 13.9%", or "13.9%" when no small fraction is exact."""
    f = as_fraction(p)
    percent = f"{100 * p:.1f}%"
    if f is None or f.denominator == 1:
        return percent
    return f"{f.numerator}/{f.denominator} = {percent}"


# ---------------------------------------------------------------- the stakes of decisions


@dataclass(frozen=True)
class BuyStakes:
    """A purchase in numbers: its rent per opponent turn, the turns to pay back, the chance of a landing soon."""

    price: int
    rent_per_opponent_turn: float
    payback_opponent_turns: float  # opponent turns (all opponents together) for the rent to repay the price
    p_landed_before_next_turn: float  # P(at least one opponent lands on it before the buyer's next turn)


def buy_stakes(game: Game, field: int, buyer: int) -> BuyStakes:
    """The stakes of buying ``field``: its rent as things would then stand, and how soon opponents arrive."""
    model = _model_of(game)
    f = game.fields[field]
    owner = game.owner[field]
    game.owner[field] = buyer  # asked of the engine's rent, then put back: nothing else reads the game meanwhile
    try:
        rent = _rent_per_roll(game, model, field)
    finally:
        game.owner[field] = owner
    per_turn = rent * model.rolls_per_turn
    opponents = [j for j in game.active_players if j != buyer]
    visits = solved_for(game).visits(field)
    miss = 1.0
    for j in opponents:
        miss *= 1.0 - float(visits[state_of(game, j)])
    return BuyStakes(f.price, per_turn, f.price / per_turn if per_turn > 0 else float("inf"), 1.0 - miss)


@dataclass(frozen=True)
class PrisonStakes:
    """A prisoner's choice in numbers: the chance of doubles within the tries left, the fine, the turns to wait."""

    p_out_by_rolling: float  # P(doubles within the tries left this turn)
    tries_left: int
    fine: int
    expected_turns_in_prison: float  # turns, this one included, that end in prison if the prisoner keeps rolling
    last_turn: bool  # the last prison turn: without doubles the fine is paid and the token moves anyway


def prison_stakes(game: Game, player: int) -> PrisonStakes:
    """The stakes of rolling for doubles against paying the fine, from the chain's prison states."""
    solved = solved_for(game)
    s = state_of(game, player)
    k = int(np.searchsorted(np.flatnonzero(~solved.free_states), s))
    p = game.players[player]
    tries = game.rules.jail_tries_per_turn - (game.prison_tries if game.current == player else 0)
    return PrisonStakes(float(solved.out_by_doubles()[k]), tries, game.rules.jail_fine, float(solved.prison_turns()[k]),
                        p.prison_turns >= game.rules.jail_max_turns - 1)


@dataclass(frozen=True)
class CasinoStakes:
    """The pot's expected payout to the next landing on a pot field: money, not a chance."""

    pot: int
    expected_share: float  # the expected fraction of the pot one landing takes (L8: a quarter on doubles, half on 6-6)
    expected_payout: float  # the pot times that fraction, in money


@lru_cache(maxsize=16)
def _pot_shares(preset: str, rules: tuple[tuple[str, Any], ...]) -> dict[int, float]:
    table = pot_payout_per_landing(preset, dict(rules) or None)
    return {row["index"]: row["expected_share_per_landing"] for row in table["fields"]}


def casino_stakes(game: Game, field: int) -> CasinoStakes:
    """The expected payout of the next landing on ``field`` from the pot as it stands (L8, S4)."""
    share = _pot_shares(game.preset.id, tuple(sorted(game.setup["rules"].items())))[field]
    return CasinoStakes(game.pot, share, share * game.pot)


@dataclass(frozen=True)
class BuildStakes:
    """One more house (or the hotel) in numbers: the rent it adds per opponent turn against its cost."""

    cost: int
    rent_gain_per_opponent_turn: float
    payback_opponent_turns: float  # opponent turns (all opponents together) for the added rent to repay the cost


def build_stakes(game: Game, field: int) -> BuildStakes:
    """The stakes of building one more level on ``field``: the expected rent it adds per opponent turn."""
    model = _model_of(game)
    f = game.fields[field]
    level = game.level[field]
    nxt = f.rents[min(level + 1, len(f.rents) - 1)]
    gain = (_rent_per_roll(game, model, field, nxt) - _rent_per_roll(game, model, field)) * model.rolls_per_turn
    cost = game.hotel_price(field) if level + 1 == game.hotel_level else game.house_price(field)
    return BuildStakes(cost, gain, cost / gain if gain > 0 else float("inf"))
