"""Real-browser tests of the server's limits: a save loaded in the page is stored off the event loop."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest
from playwright.sync_api import Page, expect
from test_browser import _button, _errors, _open, _tab

from laspoly.bots.registry import make_bot
from laspoly.bots.runner import play_game
from laspoly.engine.game import Game
from laspoly.record import game_to_dict

pytestmark = pytest.mark.browser
expect.set_options(timeout=15_000)


def test_a_save_loaded_in_the_page_is_stored_in_a_new_room_and_the_page_moves_there(
        server: str, page: Page, tmp_path: Path, server_log: Path) -> None:
    game = Game(["Ana", "Ben", "Cy"], seed=3, max_rounds=40)
    play_game(game, [make_bot("basic", seed=k) for k in range(3)])
    save = tmp_path / "game.json"
    save.write_text(json.dumps(game_to_dict(game)))
    errors = _errors(page)
    _open(page, server)
    first_room = re.search(r"room=([^&]+)", page.url)
    _tab(page, "Save and load")
    page.locator("input[type=file]").first.set_input_files(str(save))
    expect(page).to_have_url(re.compile(r"room=(?!" + re.escape(first_room.group(1) if first_room else "-") + ")"), timeout=60_000)
    expect(_button(page, "Roll")).to_be_visible(timeout=60_000)
    expect(page.get_by_text("wins", exact=False).first).to_be_visible(timeout=30_000)  # the loaded game, over
    assert errors == []
    assert "Traceback" not in server_log.read_text(errors="replace")
