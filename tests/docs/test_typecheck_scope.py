"""What ``mypy --strict`` covers (``make test`` runs it): the core, the bots, the analysis and the view-models."""

from __future__ import annotations

import tomllib
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]


def test_mypy_strict_covers_the_core_the_bots_the_analysis_and_the_panel_free_view_models() -> None:
    config = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))["tool"]["mypy"]
    assert config["strict"] is True
    covered = set(config["files"])
    for path in ("laspoly/errors.py", "laspoly/engine", "laspoly/rules", "laspoly/chain", "laspoly/bots",
                 "laspoly/analysis", "laspoly/ui/playview.py", "laspoly/ui/classview.py", "laspoly/ui/boardtext.py"):
        assert path in covered, f"{path} left out of mypy --strict"
        assert (ROOT / path).exists(), path
