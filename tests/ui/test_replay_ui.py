"""The Replay tab: every step of a game's history, the same state as a fresh replay, moments to jump to."""

from __future__ import annotations

import json

from laspoly.engine import events as E
from laspoly.record import replay
from laspoly.ui.app import Dashboard
from laspoly.ui.model import GameModel
from laspoly.ui.replay import ReplayView, moments


def _played(turns: int = 100) -> GameModel:
    """A game of three bots, played on for at least ``turns`` turns."""
    m = GameModel()
    assert m.new_game(["Ana", "Ben", "Cy"], ["basic", "greedy", "cautious"], seed=1, max_rounds=400)
    while m.game.turns < turns and not m.game.is_over:
        m.advance()
    return m


def test_the_slider_reaches_every_step_of_a_100_turn_game_and_matches_a_fresh_replay() -> None:
    m = _played(100)
    view = ReplayView(model=m)
    history = m.game.history
    assert m.game.turns >= 100 and view.step.end == len(history) and view.at == len(history)
    assert view.past.game.digest() == m.game.digest()
    checked = set(range(0, len(history) + 1, max(1, len(history) // 12))) | {1, len(history)}
    for k in range(len(history) + 1):  # every step, forward
        view.show(k)
        assert view.at == k and len(view.past.game.history) == k
        if k in checked:
            assert view.past.game.digest() == replay(m.game.setup, history[:k]).digest()
    for k in sorted(checked, reverse=True):  # and back
        view.show(k)
        assert view.past.game.digest() == replay(m.game.setup, history[:k]).digest()


def test_the_cards_log_and_cash_chart_follow_the_chosen_step() -> None:
    m = _played(30)
    view = ReplayView(model=m)
    view.show(0)
    assert view.log.pane.object.count("<li>") <= 2 and all(len(xs) <= 2 for xs in view.source.data["xs"])  # the start
    assert "Ana" in view.cards.pane.object
    view.show(len(m.game.history))
    assert view.source.data["ys"] == [[row[i] for row in m.cash_history] for i in range(3)]
    assert "Step" in view.head.object and f"of {len(m.game.history)}" in view.head.object


def test_jump_to_lists_purchases_and_prison_with_the_step_after_each() -> None:
    m = _played(60)
    found = moments(m.game, "en")
    assert any("bought" in words for words, _ in found)
    view = ReplayView(model=m)
    _, step = found[0]
    view.jump.value = step
    assert view.at == step
    kinds = {type(e) for e in view.past.game.log}
    assert kinds & {E.Bought, E.SentToPrison, E.Built}


def test_the_position_at_a_step_downloads_and_plays_on() -> None:
    m = _played(20)
    view = ReplayView(model=m)
    view.show(5)
    data = json.loads(view._position_file().getvalue())
    assert data["format"] == "laspoly-position"
    assert GameModel().open_position(data)


def test_the_replay_follows_the_live_game_while_at_its_end_and_stays_put_otherwise() -> None:
    m = _played(10)
    view = ReplayView(model=m)
    m.advance()
    assert view.at == len(m.game.history)
    view.show(3)
    m.advance()
    assert view.at == 3 and view.step.end == len(m.game.history)


def test_the_replay_speaks_spanish() -> None:
    m = _played(10)
    view = ReplayView(model=m)
    m.lang = "es"
    assert "Paso" in view.head.object and view.jump.label == "Saltar a"


def test_the_dashboard_has_a_replay_tab() -> None:
    d = Dashboard(GameModel())
    assert "replay" in d._page_names and isinstance(d.replay, ReplayView)
