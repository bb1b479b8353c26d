"""Pin the exact movement chains and the figures derived from them as a JSON fixture.

    python tools/pin_markov_chains.py

Writes ``tests/fixtures/markov_chains.json``: for every preset, both prison
policies, every train policy of a preset with train travel, and a few rule
overrides that change chance, the chain's results per roll and per turn
(landings, in prison, rolls per turn) and the landing weights the figures use
(dice total, card rent multiplier, doubles, double six).  The presets' own
chains also pin the stationary distribution over the chain's states, and
under ``leave`` every state's row of the transition matrix and of each landing
array, through fixed projections (each row times a fixed vector), so that a
change of one transition shows.  The
figures of :mod:`laspoly.analysis.figures` (expected rent per opponent roll,
payback, the pot's share per landing) are pinned for each preset.

``tests/analysis/test_markov.py`` compares the chains of today's code with this file to
1e-12.  Regenerate it only when a change of the chain is intended, and say why
in the commit.
"""

from __future__ import annotations

import argparse
import json
import math
import sys
from pathlib import Path
from typing import Any

import numpy as np

from laspoly.analysis.figures import landing_model, payback_table, pot_payout_per_landing, rent_table
from laspoly.analysis.markov import MovementChain
from laspoly.rules.presets import load_preset, preset_names

ROOT = Path(__file__).resolve().parents[1]
FIXTURE = ROOT / "tests" / "fixtures" / "markov_chains.json"
POLICIES = ("leave", "stay")

#: Rule overrides that change chance: the doubles rules, the way out of prison, the card model.
OVERRIDES: list[tuple[str, dict[str, Any]]] = [
    ("standard", {"jail_exit": "total_3"}),
    ("standard", {"jail_exit": "any_die_3"}),
    ("standard", {"jail_exit_move": "roll_again"}),
    ("standard", {"jail_tries_per_turn": 3, "jail_max_turns": 2}),
    ("standard", {"card_draw": "random"}),
    ("classic", {"doubles": "standard"}),
    ("classic", {"jail_exit": "doubles", "jail_exit_move": "exit_roll"}),
    ("laspoly", {"three_doubles": "nothing"}),
    ("laspoly", {"jail_fine_turns": 1, "jail_tries_per_turn": 2}),
    ("laspoly", {"doubles": "none"}),
    ("sculptprice", {"three_doubles": "nothing"}),
    ("sculptprice", {"doubles": "none"}),
]


def weights(m: int) -> np.ndarray:
    """A fixed vector with no two entries alike, to project each row of a matrix onto one number."""
    j = np.arange(m, dtype=float)
    return 1.0 / (1.0 + j) + np.sqrt(j + 2.0) % 1.0


def _rows(matrix: np.ndarray) -> list[float]:
    flat = matrix.reshape(matrix.shape[0], -1)
    return [float(x) for x in flat @ weights(flat.shape[1])]


def chain_entry(preset: str, rules: dict[str, Any] | None, policy: str, target: int | None, *,
                stationary: bool = False, per_state: bool = False) -> dict[str, Any]:
    """Everything the analysis layer reads from one chain."""
    p = load_preset(preset)
    chain = MovementChain(p.board, p.rules.with_overrides(rules), policy, target, variant=preset)
    pi = chain.stationary()
    card = np.einsum("s,slm->lm", pi, chain.land_card)
    entry: dict[str, Any] = {
        "preset": preset, "rules": rules or {}, "prison_policy": policy, "train_target": target, "states": chain.size,
        "land_total": [float(x) for x in pi @ chain.land_total],
        "land_card": [[int(i), int(m), float(card[i, m])] for i, m in zip(*np.nonzero(card), strict=True)],
        "land_double": [float(x) for x in pi @ chain.land_double],
        "land_double6": [float(x) for x in pi @ chain.land_double6],
    }
    for per in ("roll", "turn"):
        r = chain.solve(per)
        entry[per] = {"squares": [float(x) for x in r.squares], "in_prison": r.in_prison,
                      "expected_rolls_per_turn": r.expected_rolls_per_turn, "train_target": r.train_target}
    if stationary:
        entry["stationary"] = [float(x) for x in pi]
    if per_state:
        entry["rows"] = {name: _rows(getattr(chain, name)) for name in
                         ("P", "land", "turn_end", "land_total", "land_card", "land_double", "land_double6")}
    return entry


def _number(x: Any) -> Any:
    if isinstance(x, float) and math.isinf(x):
        return "inf"
    return x


def figures_entry(preset: str, policy: str) -> dict[str, Any]:
    """The exact figures of :mod:`laspoly.analysis.figures` for one preset and prison policy."""
    rents = rent_table(preset, prison_policy=policy)
    pay = payback_table(preset, prison_policy=policy)
    model = landing_model(preset, prison_policy=policy)
    return {
        "preset": preset, "prison_policy": policy, "rolls_per_turn": model.rolls_per_turn,
        "rent": [[int(r["index"]), r["level"], float(r["expected_rent_per_roll"])] for _, r in rents.iterrows()],
        "payback": [{k: _number(v) for k, v in row.items() if k not in ("field", "group")} for row in pay.to_dict("records")],
        "pot": pot_payout_per_landing(preset, prison_policy=policy)["fields"],
    }


def build() -> dict[str, Any]:
    """The whole fixture."""
    chains = []
    for preset in preset_names():
        board = load_preset(preset).board
        targets: list[int | None] = [None]
        if load_preset(preset).rules.train_travel:
            targets += list(board.fields_of_kind("station"))
        for policy in POLICIES:
            for target in targets:
                main = target is None
                chains.append(chain_entry(preset, None, policy, target, stationary=main, per_state=main and policy == "leave"))
    for preset, rules in OVERRIDES:
        for policy in POLICIES:
            chains.append(chain_entry(preset, rules, policy, None))
    figures = [figures_entry(preset, policy) for preset in preset_names() for policy in POLICIES]
    return {"about": __doc__.split("\n\n")[2].replace("\n", " "), "chains": chains, "figures": figures}


def main() -> int:
    argparse.ArgumentParser(description=__doc__.splitlines()[0]).parse_args()
    data = build()
    FIXTURE.write_text(json.dumps(data, separators=(",", ":")) + "\n", encoding="utf-8")
    print(f"wrote {FIXTURE.relative_to(ROOT)}: {len(data['chains'])} chains, {len(data['figures'])} figure sets, "
          f"{FIXTURE.stat().st_size:,} bytes")
    return 0


if __name__ == "__main__":
    sys.exit(main())
