"""The same seeds give the same games: seeded bot games of every preset against their pinned fingerprints.

``tests/fixtures/game_digests.json`` (written by ``tools/pin_game_digests.py``)
holds 200 four-player games per preset: the final state's digest, a hash of the
event log and of the actions, the turns played, and for the first seeds a hash
of every event's sentence in English and Spanish.  A change that makes the
engine faster must leave every one of them as it was.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from helpers import load_tool

FIXTURE = Path(__file__).parents[1] / "fixtures" / "game_digests.json"
PINNED = json.loads(FIXTURE.read_text(encoding="utf-8"))
PRESETS = ("laspoly", "sculptprice", "classic", "standard")
#: The suite plays every fifth seed (all four line-ups and every pinned sentence hash among them), a few seconds;
#: ``make soak`` checks all 800 games with ``python tools/pin_game_digests.py --check``.
QUICK_SEEDS = range(0, PINNED["games"], 5)


def _pin_tool() -> Any:
    """The script that wrote the fixture: the test recomputes exactly what it stored."""
    return load_tool("pin_game_digests")


def _mismatches(preset: str, seeds: range) -> list[str]:
    tool = _pin_tool()
    out = []
    for seed in seeds:
        stored = PINNED["presets"][preset][seed]
        now = tool.fingerprint(preset, seed, text="text" in stored)
        if now != stored:
            out.append(f"{preset} seed {seed}: {now} != pinned {stored}")
    return out


def test_fixture_covers_every_preset_with_200_games_per_preset() -> None:
    assert set(PINNED["presets"]) == set(PRESETS)
    assert all(len(PINNED["presets"][p]) == PINNED["games"] == 200 for p in PRESETS)
    tool = _pin_tool()
    assert PINNED["lineups"] == [list(s) for s in tool.LINEUPS] and PINNED["max_rounds"] == tool.MAX_ROUNDS


@pytest.mark.parametrize("preset", PRESETS)
def test_seeded_games_replay_to_their_pinned_digests(preset: str) -> None:
    assert _mismatches(preset, QUICK_SEEDS) == []


def test_a_changed_game_is_caught() -> None:
    """The check can fail: another seed's fingerprint is not this seed's."""
    tool = _pin_tool()
    assert tool.fingerprint("laspoly", 1) != PINNED["presets"]["laspoly"][0]
