"""Each game draws its own seed: the first page, a class's student link, a lesson link and a new game; ``?seed=N`` reproduces one."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from laspoly.bots.registry import DEFAULT_OPPONENT, make_bot
from laspoly.engine import events as E
from laspoly.engine.game import Game
from laspoly.engine.position_format import position_of
from laspoly.errors import SetupError
from laspoly.position_files import demonstration_ids, load_demonstration
from laspoly.record import replay
from laspoly.server.table import PERSON
from laspoly.ui import app
from laspoly.ui.app import Dashboard
from laspoly.ui.model import DRAWN_SEEDS, SEED_MAX, GameModel, check_seed, default_game
from laspoly.ui.standings import PlayerCardsView, WinnerView
from laspoly.ui.views import SetupView


def _first_rolls(game: Game, count: int = 10) -> list[tuple[int, int]]:
    """The first ``count`` rolls of ``game`` played on by bots (a copy's: the game itself is untouched)."""
    g = replay(game.setup, list(game.history))
    bots = [make_bot("basic", seed=k) for k in range(len(g.players))]
    while not g.is_over and sum(isinstance(e, E.Rolled) for e in g.log) < count:
        g.apply(bots[g.actor].choose(g.observe()))
    return [(e.d1, e.d2) for e in g.log if isinstance(e, E.Rolled)][:count]


def _page(tmp_path: Path, monkeypatch: pytest.MonkeyPatch, **args: str) -> Any:
    """The page ``build_app`` makes for a browser that asks with the address's ``args`` (``?seed=…``, ``?lesson=1``)."""
    monkeypatch.setattr(app, "_arg", lambda name: args.get(name, ""))
    return app.build_app(f"sqlite:///{tmp_path / 'rooms.db'}")


def test_the_default_game_is_defined_once_a_person_and_the_dashboards_bots() -> None:
    game, seats = default_game(seed=3)
    assert [p.name for p in game.players] == ["Ana", "Bot 1", "Bot 2"] and game.setup["seed"] == 3
    assert seats == [PERSON, DEFAULT_OPPONENT, DEFAULT_OPPONENT]
    assert GameModel().seats == seats


def test_two_fresh_models_draw_different_seeds_and_roll_differently() -> None:
    a, b = GameModel(), GameModel()
    assert 0 <= a.game.setup["seed"] < DRAWN_SEEDS and a.game.setup["seed"] != b.game.setup["seed"]
    assert _first_rolls(a.game) != _first_rolls(b.game)


def test_the_same_seed_gives_the_same_rolls() -> None:
    assert _first_rolls(default_game(seed=12345)[0]) == _first_rolls(default_game(seed=12345)[0])


@pytest.mark.parametrize("args", [{}, {"lesson": "1"}], ids=["first page", "lesson link"])
def test_two_first_pages_start_games_of_their_own(tmp_path: Path, monkeypatch: pytest.MonkeyPatch, args: dict[str, str]) -> None:
    one, two = _page(tmp_path, monkeypatch, **args), _page(tmp_path, monkeypatch, **args)
    assert one.model.game.setup["seed"] != two.model.game.setup["seed"]
    assert _first_rolls(one.model.game) != _first_rolls(two.model.game)
    assert one.model.seats == default_game()[1]


def test_two_students_of_a_class_start_games_of_their_own(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    teacher = _page(tmp_path, monkeypatch)
    made = teacher.model.create_class("7B")
    assert made is not None
    code = made.code
    one = _page(tmp_path, monkeypatch, **{"class": code}).join("Ana", 1, 2)
    two = _page(tmp_path, monkeypatch, **{"class": code}).join("Ben", 1, 2)
    assert one.table.class_code == two.table.class_code == code
    assert one.game.setup["seed"] != two.game.setup["seed"]
    assert _first_rolls(one.game) != _first_rolls(two.game)


def test_a_seed_in_the_address_reproduces_the_game_and_is_shown(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    one, two = _page(tmp_path, monkeypatch, seed="424242"), _page(tmp_path, monkeypatch, seed="424242")
    assert one.model.game.setup["seed"] == two.model.game.setup["seed"] == 424242
    assert _first_rolls(one.model.game) == _first_rolls(two.model.game)
    assert one.model.message == ""
    assert "seed 424242" in PlayerCardsView(model=one.model).pane.object


@pytest.mark.parametrize("bad", ["-1", "1.5", "abc", "1e3", str(SEED_MAX + 1), "9" * 40, "<b>7</b>"])
def test_a_bad_seed_in_the_address_is_explained_and_the_game_draws_its_own(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch, bad: str) -> None:
    page = _page(tmp_path, monkeypatch, seed=bad)
    seed = page.model.game.setup["seed"]
    assert 0 <= seed < DRAWN_SEEDS
    assert f"A seed is a whole number from 0 to {SEED_MAX}" in page.model.message and f"random seed instead: {seed}." in page.model.message
    html = Dashboard(page.model).controls.message.object
    assert "<b>" not in html  # the typed text is escaped on the page


@pytest.mark.parametrize(("text", "seed"), [("0", 0), (" 42 ", 42), (str(SEED_MAX), SEED_MAX), (17, 17)])
def test_check_seed_takes_whole_numbers_in_range(text: str | int, seed: int) -> None:
    assert check_seed(text) == seed


def test_check_seed_explains_a_refusal_in_the_pages_language() -> None:
    with pytest.raises(SetupError, match="Una semilla es un número entero"):
        check_seed("x", "es")


def _start(view: SetupView, seed: int | None) -> bool:
    view.seed.value = seed
    before = view.model.game
    view._start(None)
    return view.model.game is not before


def test_the_new_game_form_draws_a_fresh_seed_reproduces_a_typed_one_and_refuses_a_bad_one() -> None:
    m = GameModel(*default_game(seed=1))
    view = SetupView(model=m)
    first = view.seed.value
    assert 0 <= first < DRAWN_SEEDS
    assert _start(view, first) and m.game.setup["seed"] == first
    assert view.seed.value != first  # the next game gets a seed of its own
    rolls = _first_rolls(m.game)
    assert _start(view, first) and _first_rolls(m.game) == rolls  # typed again, the same game
    assert _start(view, None) and 0 <= m.game.setup["seed"] < DRAWN_SEEDS  # an empty box draws one
    kept = m.game
    assert not _start(view, SEED_MAX + 1) and m.game is kept
    assert "A seed is a whole number" in view.note.object


def test_new_game_on_the_winner_screen_draws_a_fresh_seed_and_shows_it() -> None:
    m = GameModel(*default_game(seed=1))
    m.advance(to_end=True)
    winner = WinnerView(model=m)
    assert "Seed 1:" in winner.title.object
    winner.new_game.clicks += 1
    assert m.game.setup["seed"] != 1 and not m.game.is_over
    m.advance(to_end=True)
    assert f"Seed {m.game.setup['seed']}:" in winner.title.object


def test_a_demonstration_keeps_its_position() -> None:
    for ident in demonstration_ids()[:3]:
        m = GameModel()
        assert m.open_position(ident)
        assert position_of(m.game) == position_of(Game.from_position(load_demonstration(ident)))

