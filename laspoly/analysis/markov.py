"""Exact Markov chains of one token's movement, by preset name: the analysis's face of :mod:`laspoly.chain.movement`.

The chain itself (its states, its walk through the engine, its solution) is in
:mod:`laspoly.chain.movement`, below the bots, which price rents by it.  This
module names it as the lessons, the command line and the dashboard use it, and
adds :func:`markov`, the chain of a preset by name.
"""

from __future__ import annotations

from typing import Any

from laspoly.chain.movement import (
    CACHE_SIZE,
    CARD_MODEL,
    MULTIPLIERS,
    POLICIES,
    PURSE,
    ChainResult,
    ChainTables,
    Layout,
    MovementChain,
    Step,
    chain_tables,
    clear_chain_cache,
)
from laspoly.rules.board import Board
from laspoly.rules.presets import load_preset

__all__ = [
    "CACHE_SIZE", "CARD_MODEL", "MULTIPLIERS", "POLICIES", "PURSE", "ChainResult", "ChainTables", "Layout",
    "MovementChain", "Step", "chain_tables", "clear_chain_cache", "markov",
]


def markov(variant: str = "laspoly", *, rules: dict[str, Any] | None = None, per: str = "roll",
           prison_policy: str = "leave", train_target: int | None = None, board: Board | None = None) -> ChainResult:
    """Build and solve the movement chain of a preset (with optional rule overrides)."""
    preset = load_preset(variant)
    chain = MovementChain(board or preset.board, preset.rules.with_overrides(rules), prison_policy, train_target, variant)
    return chain.solve(per)
