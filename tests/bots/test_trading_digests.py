"""The trading bots play as they did: seeded games of every trading temperament against their pinned fingerprints.

``tests/fixtures/trading_digests.json`` (written by ``tools/pin_trading_digests.py``, first by the trading
bots of the release before their appraisal was kept between decisions) holds 50 four-player games per
preset played by ``dealer``, ``shark``, ``companion``, ``hotelier`` and ``industrialist`` bots. A change that makes
the trading bots cheaper must leave every one of them as it was.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from helpers import load_tool

FIXTURE = Path(__file__).parents[1] / "fixtures" / "trading_digests.json"
PINNED = json.loads(FIXTURE.read_text(encoding="utf-8"))
PRESETS = ("laspoly", "sculptprice", "classic", "standard")


def test_the_fixture_covers_every_preset_and_every_trading_temperament() -> None:
    tool = load_tool("pin_trading_digests")
    assert set(PINNED["presets"]) == set(PRESETS) and all(len(PINNED["presets"][p]) == PINNED["games"] == 50 for p in PRESETS)
    assert PINNED["lineups"] == [list(s) for s in tool.LINEUPS] and PINNED["max_rounds"] == tool.MAX_ROUNDS
    assert {"dealer", "shark", "companion", "hotelier", "industrialist"} <= {name for seats in tool.LINEUPS for name in seats}


@pytest.mark.parametrize("preset", PRESETS)
def test_seeded_games_of_trading_bots_replay_to_their_pinned_fingerprints(preset: str) -> None:
    tool = load_tool("pin_trading_digests")
    changed = [seed for seed in range(PINNED["games"]) if tool.fingerprint(preset, seed) != PINNED["presets"][preset][seed]]
    assert changed == [], f"{preset}: seeds {changed} no longer play as pinned"
