"""The optional compiled build (mypyc, ``make compiled``) and the pure-Python source play the same engine.

``make test`` runs the engine, rules and bot tests twice: on the source as it is, and again with
``PYTHONPATH=build/compiled`` and ``LASPOLY_EXPECT_COMPILED=1``.  These tests make sure each run tests the
build it names, and pin what the compiled build needed the source to say explicitly.
"""

from __future__ import annotations

import os
from pathlib import Path

import laspoly
from laspoly.bots.registry import make_bot
from laspoly.bots.runner import play_bot_turns
from laspoly.engine import actions as A
from laspoly.engine import events as E
from laspoly.engine import registry as R
from laspoly.engine.game import Game
from laspoly.engine.words import table

SOURCE = Path(__file__).resolve().parents[2] / "laspoly"


def test_each_run_tests_the_build_it_names() -> None:
    assert laspoly.COMPILED is (os.environ.get("LASPOLY_EXPECT_COMPILED") == "1")


def test_the_source_tree_holds_no_extension_module_that_would_shadow_its_source() -> None:
    assert [str(p) for p in SOURCE.rglob("*") if p.suffix in (".so", ".pyd")] == []


def test_the_action_and_event_tables_name_every_class_of_their_modules() -> None:
    actions = {v for v in vars(A).values() if isinstance(v, type) and issubclass(v, A.Action) and v is not A.Action}
    events = {v for v in vars(E).values() if isinstance(v, type) and issubclass(v, E.Event) and v is not E.Event}
    assert set(R.ACTION_TYPES.values()) == actions and len(actions) == 19
    sentences = {key.split(".")[1] for key in table() if key.startswith("event.")}
    assert set(E.EVENT_TYPES.values()) == events and sentences == set(E.EVENT_TYPES)


def test_a_branched_game_mid_play_copies_players_offers_debts_and_auctions() -> None:
    """``figures.branch`` deep-copies a game (its board and rules shared), compiled or not."""
    from laspoly.analysis.figures import branch

    for preset in ("laspoly", "classic"):
        game = Game(4, preset=preset, seed=7, max_rounds=60)
        bots = [make_bot("dealer", seed=i) for i in range(4)]
        for _ in range(8):
            play_bot_turns(game, bots, max_actions=40)
            twin = branch(game, 1)
            for name in ("players", "owner", "level", "offers", "auction", "debt", "claims", "phase", "pot"):
                assert twin.snapshot()[name] == game.snapshot()[name], name
            assert twin.players[0] is not game.players[0] and twin.owner is not game.owner
            play_bot_turns(twin, [make_bot("basic", seed=i) for i in range(4)], max_actions=40)


def test_the_version_line_names_the_build(capsys) -> None:  # type: ignore[no-untyped-def]
    from laspoly.cli import main

    assert main(["--version"]) == 0
    assert capsys.readouterr().out.rstrip().endswith("(compiled (mypyc))" if laspoly.COMPILED else "(pure Python)")


def test_every_event_takes_its_fields_in_order_whether_its_init_is_written_or_generated() -> None:
    """The events made on most turns write their ``__init__`` out (a compiled dataclass's own runs interpreted).

    Each must still take exactly its dataclass fields, in order, with their defaults, and compare and
    print as a dataclass does, so that save files, digests and sentences see no difference.
    """
    import dataclasses

    written = [cls for cls in E.EVENT_TYPES.values() if "__init__" in vars(cls) and not dataclasses.fields(cls) == ()]
    assert {cls.__name__ for cls in written} >= {"TurnStarted", "Rolled", "Moved", "Paid", "CardDrawn"}
    for cls in E.EVENT_TYPES.values():
        names = [f.name for f in dataclasses.fields(cls)]
        values: list[int | str] = [f"v{k}" if f.type in ("str", str) else 10 + k for k, f in enumerate(dataclasses.fields(cls))]
        event = cls(*values)
        assert [getattr(event, n) for n in names] == values, cls.__name__
        assert event == cls(*values) and event != cls(*[v + "x" if isinstance(v, str) else v + 1 for v in values])
        assert repr(event) == f"{cls.__name__}(" + ", ".join(f"{n}={v!r}" for n, v in zip(names, values, strict=True)) + ")"
        assert event.as_dict() == {"type": cls.__name__, **dict(zip(names, values, strict=True))}
    assert E.Paid(0, 1, 50, "tax").field == -1  # the one default


def test_bots_batch_the_young_garbage_collections_while_they_play_and_put_the_threshold_back() -> None:
    import gc
    import threading

    from laspoly.bots.runner import BATCHED_YOUNG_COLLECTIONS, young_collections_batched

    before = gc.get_threshold()
    seen: list[int] = []

    class Watching(type(make_bot("basic"))):  # type: ignore[misc]
        def choose(self, game):  # type: ignore[no-untyped-def]
            seen.append(gc.get_threshold()[0])
            return super().choose(game)

    play_bot_turns(Game(2, preset="standard", seed=3, max_rounds=5), [Watching(), Watching()])
    assert seen and set(seen) == {BATCHED_YOUNG_COLLECTIONS}
    assert gc.get_threshold() == before

    # loops in several threads (the dashboard's lab): the threshold comes back only when the last one ends
    inside, release = threading.Event(), threading.Event()

    def hold() -> None:
        with young_collections_batched():
            inside.set()
            release.wait(10)

    worker = threading.Thread(target=hold)
    worker.start()
    inside.wait(10)
    with young_collections_batched():
        pass
    assert gc.get_threshold()[0] == BATCHED_YOUNG_COLLECTIONS
    release.set()
    worker.join(10)
    assert gc.get_threshold() == before
