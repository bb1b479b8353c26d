"""The words and files around the lessons: what lesson 05 says about the dashboard, the log's numbers, make lab."""

from __future__ import annotations

import json
import re
from pathlib import Path

from laspoly.ui.model import GameModel
from laspoly.ui.views import LogView

ROOT = Path(__file__).resolve().parents[2]


def _lesson_text(name: str) -> str:
    nb = json.loads((ROOT / "notebooks" / name).read_text(encoding="utf-8"))
    return "\n".join("".join(c["source"]) for c in nb["cells"])


def test_lesson_05_describes_the_dashboard_as_it_is() -> None:
    text = _lesson_text("05_play_las_poly.ipynb")
    assert "the tooltip gives" not in text and "point at a greyed-out" not in text and "Why some buttons are off" in text
    assert "until it is your turn again" not in text and "plays that turn" in text
    assert not re.search(r"new_game\(\[\"You\"", text), "a player named You reads \"You's turn\""


def test_the_log_leaves_room_for_three_digit_entry_numbers() -> None:
    m = GameModel()
    m.new_game(["Ana", "Ben"], ["basic", "basic"], seed=3)
    for _ in range(20):
        if len(m.game.log) >= 12:
            break
        m.advance()
    html = LogView(model=m).pane.object
    padding = float(re.search(r"padding-left:([\d.]+)em", html).group(1))
    assert html.count("<li>") >= 10 and padding >= 2.5


def test_make_lab_opens_copies_offline_and_git_ignores_them_and_checkpoints() -> None:
    ignored = (ROOT / ".gitignore").read_text(encoding="utf-8").splitlines()
    assert ".ipynb_checkpoints/" in ignored and ".lab/" in ignored
    lab = re.search(r"^lab:.*?(?=^\S|\Z)", (ROOT / "Makefile").read_text(encoding="utf-8"), re.M | re.S).group(0)
    assert "cd .lab &&" in lab and "PANEL_INLINE=true" in lab and "jupyter lab notebooks" not in lab
