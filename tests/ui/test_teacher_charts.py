"""The teacher's page as a lesson screen: words without raw placeholders, fields by name, and counts the chain counts.

The class's landing chart compares the class's landings with the movement
chain, so the class counts what the chain counts: where each roll ended (after
cards and go-to-prison, before a train journey), with "in prison" apart.
"""

from __future__ import annotations

import math
import random
from pathlib import Path

import pytest
from bokeh.models import Axis, Line, Plot, Scatter, Title, VBar

from laspoly.analysis.lln import checkpoints, envelope, tv_curve
from laspoly.engine import actions as A
from laspoly.engine import events as E
from laspoly.engine.game import Game
from laspoly.engine.registry import action_from_dict
from laspoly.record import replay
from laspoly.server.classes import ClassData, create_class, find_class
from laspoly.server.rooms import open_room
from laspoly.server.store import Store, open_store
from laspoly.ui.model import GameModel
from laspoly.ui.teacher import TeacherView

OWNER = "owner-key-for-tests-0003"
GO_TO_PRISON = 30  # on the laspoly board


@pytest.fixture()
def store(tmp_path: Path) -> Store:
    return open_store(f"sqlite:///{tmp_path / 'class.db'}")


def _play(m: GameModel, decisions: int) -> None:
    """Roll, decline, stay, end turns: ``decisions`` moves of the people at the table."""
    for _ in range(decisions):
        if m.game.is_over:
            return
        legal = m.game.legal_actions()
        pick = next((a for a in legal if isinstance(a, (A.Roll, A.DeclineBuy, A.StayPut, A.PayFine))), None) or \
            next((a for a in legal if isinstance(a, A.EndTurn)), legal[0])
        assert m.act(pick), m.message


def _class_with_games(store: Store) -> tuple[ClassData, TeacherView, list[GameModel]]:
    made = create_class(store, "6B")
    # two rolls of 6-5, 6-4 and 5-4 each: both players reach Go-Into-Prison (field 30) on their third roll
    dice = "6-5 6-5 6-4 6-4 5-4 5-4 1-2 2-3 3-1 4-2"
    rooms = [GameModel(table=open_room(store, Game(["Ana", "Ben"], seed=1, dice=dice), ["person", "person"], OWNER,
                                       class_code=made.code))]
    rooms += [GameModel(table=open_room(store, Game(["Cy", "Dee"], seed=s), ["person", "person"], OWNER, class_code=made.code))
              for s in (2, 3)]
    for m in rooms:
        _play(m, 40)
    data = ClassData(store, made.code, made.teacher_key)
    return data, TeacherView(data, find_class(store, made.code)), rooms


def _chain_counts(store: Store, room_id: str) -> list[int]:
    """A room's landings counted from its stored log, action by action, as the movement chain counts them."""
    room = store.room(room_id)
    game = replay(room.setup, [])
    counts = [0] * (len(game.fields) + 1)
    for raw in store.actions(room_id):
        action = action_from_dict(raw)
        from_prison = isinstance(action, A.Roll) and game.players[action.player].in_prison
        game.apply(action)
        if isinstance(action, A.Roll) and not from_prison:  # a try for doubles is no move of the chain
            player = game.players[action.player]
            counts[len(game.fields) if player.in_prison else player.pos] += 1
    return counts


def _rolls_from_outside_prison(game: Game) -> int:
    """The game's rolls that did not start in prison: the rolls the chain counts."""
    copy, rolls = replay(game.setup, []), 0
    for action in game.history:
        rolls += isinstance(action, A.Roll) and not copy.players[action.player].in_prison
        copy.apply(action)
    return rolls


def test_pooled_landings_are_the_sum_of_the_rooms_logs_counted_as_the_chain_counts(store: Store) -> None:
    data, _, rooms = _class_with_games(store)
    ids = [m.table.room_id for m in rooms]  # type: ignore[attr-defined]
    summed = [sum(x) for x in zip(*(_chain_counts(store, i) for i in ids), strict=True)]
    assert data.landings()["laspoly"] == summed
    rolls = sum(isinstance(a, A.Roll) for m in rooms for a in m.game.history)
    assert rolls == sum(data.dice_totals())  # every roll's dice
    moves = sum(_rolls_from_outside_prison(m.game) for m in rooms)
    assert sum(summed) == moves  # one landing per roll that did not start in prison
    assert data.csv().getvalue().count(",landing,") == moves


def test_go_into_prison_has_no_landing_its_tokens_are_in_prison(store: Store) -> None:
    data, view, rooms = _class_with_games(store)
    moved_there = [e for e in rooms[0].game.log if isinstance(e, E.Moved) and e.dst == GO_TO_PRISON]
    assert moved_there, "the scene: a token's roll took it to Go-Into-Prison"
    counts = data.landings()["laspoly"]
    assert counts[GO_TO_PRISON] == 0 and counts[-1] >= len(moved_there)
    shares = dict(zip(view.land_source.data["field"], view.land_source.data["share"], strict=True))
    exact = dict(zip(view.land_source.data["field"], view.land_source.data["exact"], strict=True))
    label = view.land_fig.x_range.factors[GO_TO_PRISON]
    assert shares[label] == exact[label] == 0.0


def test_the_landing_chart_names_the_fields_in_the_pages_language(store: Store) -> None:
    _, view, rooms = _class_with_games(store)
    game = rooms[0].game
    for lang, prison in (("en", "in prison"), ("es", "en prisión")):
        view.lang = lang
        factors = list(view.land_fig.x_range.factors)
        assert factors[:len(game.fields)] == [f"{i} {game.field_name(i, lang)}" for i in range(len(game.fields))]
        assert factors[-1] == prison and list(view.land_source.data["field"]) == factors


def test_no_chart_title_or_axis_label_of_the_teachers_page_holds_a_raw_placeholder(store: Store) -> None:
    _, view, _ = _class_with_games(store)
    for lang in ("en", "es"):
        view.lang = lang
        words = []
        for fig in (view.dice_fig, view.lln_fig, view.land_fig):
            assert isinstance(fig, Plot)
            words += [t.text for t in fig.select({"type": Title})]
            words += [a.axis_label for a in fig.select({"type": Axis}) if a.axis_label]
        assert len(words) >= 9 and all(w.strip() for w in words)
        assert not [w for w in words if "{" in w or "}" in w], (lang, words)
    view.lang = "en"
    assert " on Las Poly (bars)" in view.land_fig.title.text  # the rulebook's name, where the placeholder was


def test_the_dice_chart_is_bars_against_the_exact_probabilities_as_markers(store: Store) -> None:
    _, view, _ = _class_with_games(store)
    glyphs = [r.glyph for r in view.dice_fig.renderers]
    assert any(isinstance(g, VBar) for g in glyphs) and any(isinstance(g, Scatter) for g in glyphs)
    assert not any(isinstance(g, Line) for g in glyphs)
    assert view.dice_source.data["exact"][5] == pytest.approx(6 / 36)


# ---------------------------------------------------------------- the law of large numbers chart


def test_the_distance_of_the_exact_two_dice_shares_is_zero() -> None:
    exact = [t for t in range(2, 13) for _ in range(6 - abs(t - 7))]  # 36 rolls in exactly the two-dice shares
    ns, tvs = tv_curve(exact, points=100)
    assert ns[-1] == 36 and tvs[-1] == pytest.approx(0.0)
    assert tv_curve([7])[1] == [pytest.approx(1 - 6 / 36)]


def test_the_distance_of_fair_dice_shrinks_as_rolls_add_up_within_a_few_times_one_over_root_n() -> None:
    rng = random.Random(27)
    totals = [rng.randint(1, 6) + rng.randint(1, 6) for _ in range(20_000)]
    ns, tvs = tv_curve(totals, points=60)
    assert ns[0] == 1 and ns[-1] == 20_000 and ns == sorted(set(ns)) and len(ns) <= 61
    assert tvs[-1] < tvs[len(tvs) // 2] < tvs[0]
    assert all(tv < 3 / math.sqrt(n) for n, tv in zip(ns, tvs, strict=True) if n >= 100)


def test_the_envelope_is_one_over_root_n_and_checkpoints_keep_every_small_count() -> None:
    assert envelope([1, 4, 100]) == [1.0, 0.5, 0.1]
    assert checkpoints(5) == [1, 2, 3, 4, 5] and checkpoints(0) == []
    with pytest.raises(ValueError):
        tv_curve([1, 7])


def test_the_lln_chart_follows_the_class_s_pooled_rolls_in_turn(store: Store) -> None:
    data, view, _ = _class_with_games(store)
    sequence = data.dice_sequence()
    assert sorted(sequence) == sorted(t for t, c in zip(range(2, 13), data.dice_totals(), strict=True) for _ in range(c))
    firsts = [next(e.d1 + e.d2 for e in f.game.log if isinstance(e, E.Rolled)) for f in data.rooms.values()]
    assert sequence[:3] == firsts and 11 in firsts  # each room's first roll (one is 6-5), then each one's second...
    ns = list(view.lln_source.data["n"])
    assert ns[-1] == len(sequence)
    assert list(view.lln_source.data["tv"]) == tv_curve(sequence)[1]
    assert list(view.lln_source.data["envelope"]) == pytest.approx([1 / math.sqrt(n) for n in ns])
    for lang in ("en", "es"):
        view.lang = lang
        assert "1/√n" in view.lln_fig.title.text and view.lln_fig.xaxis[0].axis_label and view.lln_fig.yaxis[0].axis_label


# ---------------------------------------------------------------- the room list, projector mode


def test_the_room_list_shows_each_room_s_names_round_leader_and_watch_link(store: Store) -> None:
    data, view, _ = _class_with_games(store)
    shown = view.rooms.object
    for s in data.summaries():
        assert ", ".join(s.players) in shown and f"<td>{s.round}</td>" in shown and s.leader in shown
        assert s.watch.replace("&", "&amp;") in shown
    assert "Ana, Ben" in shown and "Cy, Dee" in shown
    assert "<td>Las Poly</td>" in shown and "<td>laspoly</td>" not in shown  # the rulebook by its name, not its id


def test_the_room_list_names_each_rulebook_in_the_page_s_language(store: Store) -> None:
    made = create_class(store, "6D")
    m = GameModel(table=open_room(store, Game(["Ana", "Ben"], preset="classic", seed=1), ["person", "person"], OWNER,
                                  class_code=made.code))
    _play(m, 2)
    view = TeacherView(ClassData(store, made.code, made.teacher_key), find_class(store, made.code))
    assert "<td>Classic (web edition)</td>" in view.rooms.object
    view.lang = "es"
    assert "<td>Clásico (edición web)</td>" in view.rooms.object and "<td>classic</td>" not in view.rooms.object


def test_projector_mode_makes_the_page_and_its_charts_large(store: Store) -> None:
    _, view, _ = _class_with_games(store)
    assert "lp-projector" not in view.layout.css_classes
    small = view.lln_fig.title.text_font_size
    view.projector_toggle.value = True
    assert view.projector and "lp-projector" in view.layout.css_classes
    for fig in (view.dice_fig, view.lln_fig, view.land_fig):
        assert fig.title.text_font_size == "24px" and fig.xaxis[0].major_label_text_font_size == "18px"
    assert view.lln_fig.title.text_font_size != small
    assert all(pane.stylesheets for pane in (view.head, view.rooms, view.totals))
    view.projector = False
    assert "lp-projector" not in view.layout.css_classes and not view.projector_toggle.value


def test_the_teacher_link_with_projector_opens_in_projector_mode(store: Store) -> None:
    made = create_class(store, "6B")
    view = TeacherView(ClassData(store, made.code, made.teacher_key), find_class(store, made.code), projector=True)
    assert "lp-projector" in view.layout.css_classes and view.projector_toggle.value
    assert view.projector_toggle.name == "Projector mode (large type)"


def test_a_try_for_doubles_from_prison_is_no_landing_so_the_prison_bar_compares_with_the_chain(store: Store) -> None:
    """The chain pays the fine before rolling; a class's bots and people may roll for doubles from prison instead.

    Those tries are left out of the landings (each failed one would be another "in prison"), so
    the class's "in prison" share is the chain's: bots that stay in prison land there as often as
    the chain says, not several times as often.
    """
    made = create_class(store, "6C")
    rooms = [GameModel(table=open_room(store, Game(["Ana", "Ben"], seed=s, max_rounds=50), ["person", "person"], OWNER,
                                       class_code=made.code)) for s in range(4)]
    for m in rooms:  # people who always stay in prison and roll for doubles
        for _ in range(3000):
            if m.game.is_over:
                break
            legal = m.game.legal_actions()
            pick = next((a for a in legal if isinstance(a, (A.Roll, A.DeclineBuy, A.StayPut))), None) or \
                next((a for a in legal if isinstance(a, A.EndTurn)), legal[0])
            assert m.act(pick), m.message
    tries = sum(isinstance(a, A.Roll) for m in rooms for a in m.game.history) - sum(_rolls_from_outside_prison(m.game) for m in rooms)
    assert tries > 20, "the scene: many rolls were tries for doubles from prison"
    data = ClassData(store, made.code, made.teacher_key)
    data.refresh()
    counts = data.landings()["laspoly"]
    view = TeacherView(data, find_class(store, made.code))
    exact_in_prison = view.land_source.data["exact"][-1]
    share = counts[-1] / sum(counts)
    assert abs(share - exact_in_prison) < 0.025, (share, exact_in_prison)  # counted, the tries would make it about 0.12
