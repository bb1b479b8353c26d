"""The engine by composition: one state built one way, rule modules over it, a thin Game, explicit hooks.

The hooks (an observer of every event, a rent policy, a salary hook) replace overriding private methods:
the checked game, the exact movement chain and the soak's deliberately broken rule use them.
"""

from __future__ import annotations

import ast
import inspect
import tomllib
from pathlib import Path

import pytest
from helpers import new_game

from laspoly.analysis.soak import FAULTS, soak_games
from laspoly.bots.registry import make_bot
from laspoly.bots.runner import play_bot_turns
from laspoly.chain import movement
from laspoly.engine import actions as A
from laspoly.engine import events as E
from laspoly.engine.base import rent
from laspoly.engine.checked import CheckedGame
from laspoly.engine.compiled import is_compiled
from laspoly.engine.game import Game
from laspoly.engine.gamestate import STATE_FIELDS, GameState
from laspoly.engine.position_format import STATE_IN_POSITION, position_of
from laspoly.engine.turns import pay_salary
from laspoly.rules.presets import load_preset

ROOT = Path(__file__).resolve().parents[2]
ENGINE = ROOT / "laspoly" / "engine"
#: The modules a game is made of: its state, the rules over it, the face and the checked game.
RULE_MODULES = ("state", "gamestate", "base", "wording", "legality", "payments", "turns", "decisions", "game", "checked")


def _bot_game(game: Game, turns: int = 60) -> Game:
    bots = [make_bot("basic", seed=k) for k in range(len(game.players))]
    play_bot_turns(game, bots, max_actions=turns)
    return game


# ------------------------------------------------------------ one state, built one way


def test_the_state_has_exactly_the_fields_the_position_format_accounts_for() -> None:
    """A new attribute of the state needs its row in STATE_IN_POSITION: a position says where it keeps each one."""
    assert set(GameState.__slots__) == set(STATE_FIELDS) == set(STATE_IN_POSITION)
    assert len(STATE_FIELDS) == len(set(STATE_FIELDS))


@pytest.mark.skipif(is_compiled(), reason="counts the constructor's calls by patching it, which a compiled class refuses")
def test_a_new_game_and_a_position_are_built_by_the_same_constructor(monkeypatch: pytest.MonkeyPatch) -> None:
    built: list[GameState] = []
    original = GameState.__init__

    def counting(self: GameState, *args: object, **kwargs: object) -> None:
        original(self, *args, **kwargs)  # type: ignore[arg-type]
        built.append(self)

    monkeypatch.setattr(GameState, "__init__", counting)
    g = _bot_game(Game(3, seed=5))
    assert len(built) == 1 and built[0] is g.state
    again = Game.from_position(position_of(g))
    assert len(built) == 2 and built[1] is again.state


def test_a_game_rebuilt_from_its_position_has_every_attribute_of_the_state_and_plays_on_alike() -> None:
    g = _bot_game(Game(3, seed=11, max_rounds=50))
    twin = Game.from_position(position_of(g))
    assert type(twin.state) is GameState
    for name in STATE_FIELDS:
        getattr(twin.state, name)  # set by the one constructor, whichever way the game was built
    assert position_of(twin) == position_of(g)
    for game in (g, twin):
        _bot_game(game, 40)
    mine, theirs = g.snapshot(), twin.snapshot()
    assert mine.pop("history") > theirs.pop("history") == 40 and mine == theirs  # only the record of decisions differs


def test_the_game_is_a_thin_face_over_its_state() -> None:
    g = Game(2, seed=1)
    assert g.phase is g.state.phase and g.owner is g.state.owner and g.players is g.state.players
    g.prison_tries = 2
    assert g.state.prison_tries == 2


def test_no_rule_module_raises_not_implemented_and_the_game_has_no_stubs() -> None:
    for module in RULE_MODULES:
        assert "NotImplementedError" not in (ENGINE / f"{module}.py").read_text(encoding="utf-8"), module
    for cls in (Game, CheckedGame):
        for name, member in inspect.getmembers(cls):
            if inspect.isfunction(member):
                try:
                    source = inspect.getsource(member)
                except (OSError, TypeError):  # the compiled build's methods have no source to read
                    continue
                assert "NotImplementedError" not in source, name


def test_no_engine_module_imports_one_above_it_not_even_for_the_type_checker() -> None:
    """The engine's layers (pyproject.toml) hold for imports under ``if TYPE_CHECKING:`` too: no loop at all."""
    config = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))["tool"]["importlinter"]["contracts"]
    layers = next(c for c in config if c.get("containers") == ["laspoly.engine"])["layers"]
    depth = {m.strip(): k for k, line in enumerate(layers) for m in line.split("|")}
    for path in ENGINE.glob("*.py"):
        if path.stem == "__init__":
            continue
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            names: list[str] = []
            if isinstance(node, ast.ImportFrom) and node.module and node.module.startswith("laspoly.engine"):
                names = [node.module.split(".")[2]] if node.module != "laspoly.engine" else [a.name for a in node.names]
            elif isinstance(node, ast.Import):
                names = [a.name.split(".")[2] for a in node.names if a.name.startswith("laspoly.engine.")]
            for name in names:
                assert depth[name] > depth[path.stem], f"engine/{path.stem}.py imports {name}, which is not below it"


# ------------------------------------------------------------ the hooks


def test_the_observer_sees_every_event_as_it_happens() -> None:
    seen: list[E.Event] = []
    g = _bot_game(Game(3, seed=2, observer=seen.append), 200)
    assert seen == g.log and len(seen) > 100
    quiet: list[E.Event] = []
    h = _bot_game(Game(3, seed=2, observer=quiet.append, record_events=False), 200)
    assert h.log == [] and quiet == seen  # no log kept, every event still shown


def test_the_checked_game_checks_through_its_observer_and_counts_every_event() -> None:
    g = _bot_game(CheckedGame(3, seed=4), 200)
    assert g.state.observer is not None and g.events_checked == len(g.log)
    position = CheckedGame.from_position(position_of(g))
    assert position.state.observer is not None


def test_the_rent_policy_decides_the_rent_of_a_landing() -> None:
    asked: list[int] = []

    def free_rent(s: GameState, i: int) -> int:
        asked.append(i)
        return 0

    g = new_game("1-2", rules=None)
    g.state.rent_policy = free_rent
    g.owner[3] = 1  # Ben owns the street Ana lands on
    cash = g.players[0].cash
    g.apply(A.Roll(0))
    assert asked == [3] and g.players[0].cash == cash and rent(g.state, 3) > 0


def test_the_movement_chain_reads_card_multipliers_through_its_rent_policy() -> None:
    preset = load_preset("standard")
    roller = movement._Roller(preset.board, preset.rules, "leave", None, False)
    assert roller.game.state.rent_policy is roller.arrival
    tables = movement.chain_tables(preset.board, preset.rules)
    assert tables.land_card.sum() > 0  # the railroad and utility cards' multipliers were recorded, none charged


def test_the_salary_hook_pays_the_salary_and_the_soak_breaks_it_there() -> None:
    paid: list[tuple[int, bool]] = []

    def watched(s: GameState, p: object, landed: bool) -> None:
        assert isinstance(p, type(s.players[0]))
        paid.append((p.index, landed))
        pay_salary(s, p, landed)

    g = Game(2, seed=3, salary=watched, max_rounds=30)
    _bot_game(g, 300)
    assert paid and all(i in (0, 1) for i, _ in paid)
    leaky = Game(2, seed=3, salary=FAULTS["leaky_salary"], max_rounds=30)
    _bot_game(leaky, 300)
    assert leaky.total_money() > 2 * leaky.rules.start_money
    report = soak_games(range(4), seed=3, fault="leaky_salary")
    assert report.failures and "money not conserved" in report.failures[0]
