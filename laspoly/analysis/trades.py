"""How trades decide bot games: which colour groups were completed by a trade, and how often their owner won."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from laspoly.analysis.simulate import game_seed
from laspoly.bots.registry import DEFAULT_BOT, make_bot
from laspoly.bots.runner import DEFAULT_MAX_ROUNDS, play_bot_turns
from laspoly.engine import actions as A
from laspoly.engine.game import Game


@dataclass(frozen=True)
class TradeOutcome:
    """One game: its winner, whether it hit the cap, trades accepted, and who completed a group by trade."""

    winner: int
    capped: bool
    rounds: int
    trades: int
    completed_by_trade: frozenset[int]  # players who completed at least one group through a trade

    @property
    def won_by_trade(self) -> bool:
        """The winner completed a colour group through a trade."""
        return self.winner in self.completed_by_trade


def play_traced(variant: str, seed: int, bots: Sequence[str]) -> TradeOutcome:
    """Play one capped bot game, noting each group a trade completed."""
    game = Game(len(bots), preset=variant, seed=seed, max_rounds=DEFAULT_MAX_ROUNDS, keep_history=False)
    players = [make_bot(name, seed=seed + k) for k, name in enumerate(bots)]
    completed: set[int] = set()
    trades = 0

    def commit(action: A.Action) -> None:
        nonlocal trades
        offer = game.offers.get(action.offer) if isinstance(action, A.AcceptTrade) else None
        before = _whole_groups(game)
        game.push(action)
        if offer is not None:
            trades += 1
            completed.update(p for p, g in _whole_groups(game) - before if p in (offer.proposer, offer.receiver))

    play_bot_turns(game, players, commit=commit)
    if not game.is_over:
        game.end_by_cap()
    return TradeOutcome(game.winner, game.end_reason == "net_worth", game.round, trades, frozenset(completed))


def _whole_groups(game: Game) -> set[tuple[int, tuple[int, ...]]]:
    return {(game.owner[g[0]], g) for g in game.board_groups if game.owner[g[0]] >= 0 and game.owns_group(game.owner[g[0]], g[0])}


def trade_outcomes(variant: str, games: int, *, bots: Sequence[str] | None = None, seed: int = 0) -> list[TradeOutcome]:
    """``games`` games with the seeds of ``laspoly simulate --seed`` (default: four default bots)."""
    names = tuple(bots) if bots is not None else (DEFAULT_BOT,) * 4
    return [play_traced(variant, game_seed(seed, i), names) for i in range(games)]
