"""The dashboard's model and components, without a browser."""

from __future__ import annotations

import contextlib
import gc
import html
import re
import weakref
from collections.abc import Iterator

import panel as pn
import pytest
from bokeh.document import Document
from bokeh.document.events import ColumnDataChangedEvent
from helpers import give, set_cash
from panel.io.state import set_curdoc

from laspoly.analysis.simulate import GameRecord
from laspoly.bots.registry import DEFAULT_OPPONENT
from laspoly.bots.runner import DEFAULT_MAX_ROUNDS
from laspoly.engine import actions as A
from laspoly.server.table import PERSON
from laspoly.ui import app
from laspoly.ui.app import Dashboard
from laspoly.ui.board import board_data, cell_xy, token_data
from laspoly.ui.common import assign
from laspoly.ui.model import GameModel, default_game
from laspoly.ui.probability import ProbabilityView, game_lengths
from laspoly.ui.timers import Timer
from laspoly.ui.views import PlayersView


def _model(dice: str = "", seats: tuple[str, ...] = (PERSON, "basic", "basic"), seed: int = 4) -> GameModel:
    m = GameModel()
    assert m.new_game(["Ana", "Ben", "Cy"][: len(seats)], list(seats), seed=seed, dice=dice)
    return m


def test_a_person_acts_through_the_checked_path_and_an_illegal_click_changes_nothing() -> None:
    m = _model("1-2")
    before = m.game.digest()
    assert not m.act(A.Buy(0))
    assert "cannot buy" in m.message and m.game.digest() == before
    assert m.act(A.Roll(0)) and m.game.phase == "buy"


def test_disabled_choices_say_why_in_the_engines_words() -> None:
    m = _model()
    give(m.game, 0, "Fremont Street")
    choice = m.choice(lambda p: A.Build(p, 1, "house"))
    assert not choice.enabled and choice.reason == "you need the whole colour group"
    d = Dashboard(m)
    m.selected_field = 1
    m.version += 1
    assert d.controls.house.disabled and "whole colour group" in d.controls.why.object


def test_a_voluntary_move_to_zero_asks_for_confirmation_L19() -> None:
    m = _model("1-2")
    set_cash(m.game, 0, 80)
    m.act(A.Roll(0))
    assert not m.act(A.Buy(0)) and m.pending_confirm == A.Buy(0) and "Confirm" in m.message
    m.cancel()
    assert m.game.owner[3] == -1
    m.act(A.Buy(0))
    assert m.confirm() and not m.game.players[0].active


def test_next_plays_one_bot_turn_and_stops_for_a_person() -> None:
    m = _model("1-2 3-4 2-5", seats=(PERSON, "basic", "basic"))
    m.act(A.Roll(0))
    m.act(A.DeclineBuy(0))
    m.act(A.EndTurn(0))
    assert m.game.current == 1
    m.advance()
    assert m.game.current == 2
    m.advance()
    assert m.person_to_move == 0


def test_run_to_end_finishes_the_game_and_undo_takes_back_a_persons_decision() -> None:
    m = _model("1-2")
    m.act(A.Roll(0))
    m.act(A.Buy(0))
    assert m.undo() and m.game.phase == "buy" and m.game.owner[3] == -1
    m.advance(to_end=True)
    assert m.game.is_over and "wins" in m.status()


def test_save_and_load_and_a_bad_file_leaves_the_game_untouched() -> None:
    m = _model("1-2")
    m.act(A.Roll(0))
    raw = m.save_json().getvalue()
    before = m.game.digest()
    assert not m.load_json(b"{ not json", "bad.json")
    assert "Could not load bad.json" in m.message and m.game.digest() == before
    assert not m.load_json(b" " * 6_000_000, "huge.json") and "limit" in m.message
    other = _model()
    assert other.load_json(raw, "game.json") and other.game.digest() == before


def test_csv_exports_have_headers_and_rows() -> None:
    m = _model("1-2")
    m.act(A.Roll(0))
    assert m.log_csv().getvalue().splitlines()[0] == "index,event,text"
    assert m.dice_csv().getvalue().splitlines()[1].endswith("1,2,3")
    assert len(m.landings_csv().getvalue().splitlines()) == 42  # 40 fields, "in prison", the header


def test_the_board_places_40_fields_round_the_square() -> None:
    cells = {cell_xy(i) for i in range(40)}
    assert len(cells) == 40 and cell_xy(0) == (10.5, 0.5) and cell_xy(10) == (0.5, 0.5) and cell_xy(20) == (0.5, 10.5)
    m = _model("1-2")
    m.act(A.Roll(0))
    m.act(A.Buy(0))
    data = board_data(m)
    assert data["owner"][3] == "Ana" and data["owner_alpha"][3] == 1.0 and data["owner_alpha"][1] == 0.0
    assert len(token_data(m)["x"]) == 3


def test_hostile_names_are_escaped_everywhere_in_html() -> None:
    hostile = "<img src=x onerror=alert(1)>"
    m = GameModel()
    assert m.new_game([hostile, "Ben"], [PERSON, "basic"], seed=4)
    d = Dashboard(m)
    m.act(A.Roll(0))
    for pane in (d.players.table, d.log.pane, d.controls.status):
        assert "<img" not in pane.object
    assert html.escape(hostile) in d.players.table.object


def test_odd_unicode_names_are_shown_as_typed_and_long_or_invisible_ones_are_refused_clearly() -> None:
    m = _model()
    odd = ["Zoë 🎲", "名前", "Ĺåš Ṗǒľÿ", "e\u0301mile", "👩🏽\u200d🏫 Ana"]  # emoji, CJK, accents, a combining accent, a joined emoji
    assert m.new_game(odd, [PERSON, "basic", "basic", "basic", "basic"], seed=4)
    d = Dashboard(m)
    for name in odd:
        assert html.escape(name) in d.players.table.object
    before = m.game.digest()
    for bad, why in (("x" * 41, "at most 40 characters"), ("\u202eevil", "printable"), ("a\x00b", "printable"),
                     ("\u200d", "printable"), ("Ana\u200d", "printable"), ("\u200dAna", "printable"),
                     ("a\u200d\u200db", "printable"), ("\u200b", "printable")):
        assert not m.new_game([bad, "Ben"], [PERSON, "basic"], seed=4)
        assert why in m.message and m.game.digest() == before


def test_new_game_with_bad_settings_keeps_the_current_game() -> None:
    m = _model()
    before = m.game.digest()
    assert not m.new_game(["A", "B"], [PERSON, "basic"], rules="jail_exit=magic")
    assert "jail_exit" in m.message and m.game.digest() == before
    assert not m.new_game(["A"], [PERSON])


def test_two_models_never_share_a_game() -> None:
    a, b = Dashboard(GameModel(*default_game(seed=7))), Dashboard(GameModel(*default_game(seed=7)))  # the same game twice
    a.model.act(A.Roll(a.model.person_to_move))
    assert a.model.game is not b.model.game and b.model.game.history == []


def test_spanish_switch_translates_the_log() -> None:
    m = _model("1-2")
    m.act(A.Roll(0))
    m.lang = "es"
    assert "Ana sacó 1 y 2." in m.log_lines()


def test_a_class_period_cap_ends_the_game_by_net_worth_L20() -> None:
    m = GameModel()
    assert m.new_game(["Ana", "Ben"], ["basic", "basic"], seed=1, max_rounds=3)
    m.advance(to_end=True)
    assert m.game.is_over and m.game.end_reason == "net_worth" and "net worth" in m.status()
    m2 = GameModel()
    m2.new_game(["Ana", "Ben"], [PERSON, "basic"], seed=4, minutes=1)
    m2.deadline = 0.0
    m2.act(A.Roll(0))
    assert m2.game.is_over


def test_the_dashboard_renders_as_bokeh_models_as_in_a_notebook() -> None:
    d = Dashboard()
    root = pn.panel(d).get_root()
    assert len(list(root.references())) > 50


def test_hidden_tabs_views_are_made_when_first_shown_and_redraw_only_while_shown() -> None:
    d = Dashboard(_model())
    probability = 2
    assert not d.tabs[probability].objects  # nothing built for a tab nobody opened
    d.tabs.active = probability
    view = d.probability
    assert d.tabs[probability].objects and isinstance(view, ProbabilityView) and view.shown
    d.tabs.active = 0
    assert not view.shown
    players = d.players  # read before its tab is shown: made, and hidden like the others
    assert isinstance(players, PlayersView) and not players.shown
    table = players.table.object
    d.model.advance(to_end=True)
    assert players.table.object == table  # hidden: the game moved on, the table waits
    d.tabs.active = 1
    assert players.shown and players.table.object != table  # shown: redrawn once, up to date


def test_the_play_tab_is_filled_in_steps_the_turns_controls_first_then_the_board_and_the_rest() -> None:
    d = Dashboard(_model())
    d._slots[0].objects = []  # as a served page starts, before it has loaded
    d._fill_play()  # outside a server every step runs at once
    winner, row = d._slots[0].objects
    assert winner is d.winner.panel
    board, side = row.objects
    assert [p.object for p in board.select(pn.pane.Bokeh)] == [d.board.figure]
    header, cards, turn, manage, guessing, log = side.objects
    assert header is d.controls.header and cards is d.cards.pane and d.controls.autoplay in turn.select(pn.widgets.Toggle)
    # the lesson's and predict's switches sit under the turn's decisions, the guesses' scores and charts further down
    assert d.odds.switch in turn.select(pn.widgets.Switch) and d.guessing.switch in turn.select(pn.widgets.Switch)
    assert guessing is d.guessing.panel and d.controls.house in manage.select(pn.widgets.Button) and d.log.pane in log.select(pn.pane.HTML)
    assert d.card.pane in board.select(pn.pane.HTML)  # the clicked field's card opens over the board


class _Session:
    """A served session as a page being built sees it: whether it is gone and how many browsers it has."""

    def __init__(self) -> None:
        self.destroyed = False
        self.connection_count = 1


class _Doc(Document):
    """A served document: a session, and the pieces of its page held as one message each."""

    def __init__(self) -> None:
        super().__init__()
        context = type("Context", (), {"session": _Session(), "request": type("Request", (), {"arguments": {}})()})()
        self._session_context = lambda: context  # type: ignore[assignment]  # Bokeh keeps a weak reference
        self.held: list[str] = []

    def hold(self, policy: str = "combine") -> None:  # type: ignore[override]
        self.held.append(policy)

    def unhold(self) -> None:
        self.held.append("unhold")


@pytest.fixture
def served(monkeypatch: pytest.MonkeyPatch) -> tuple[list, list]:  # type: ignore[type-arg]
    """Dashboards made as on a served page: the page's onload callbacks, and the next-tick callbacks, wait in lists."""
    loaded: list = []  # type: ignore[type-arg]
    ticks: list = []  # type: ignore[type-arg]
    monkeypatch.setattr(app, "_serving", lambda: True)
    monkeypatch.setattr(pn.state, "onload", lambda callback, **_: loaded.append(callback))
    monkeypatch.setattr(pn.state, "on_session_destroyed", lambda callback: None)
    monkeypatch.setattr(pn.state, "execute", lambda callback, schedule=False: ticks.append(callback))
    return loaded, ticks


def test_a_served_pages_timers_are_the_documents_own_periodic_callbacks_outside_panels_busy_count() -> None:
    """Autoplay, a room's poll and the projector's are Bokeh periodic callbacks of the page's document, which stop with
    it; Panel's periodic callbacks would also count every run in ``pn.state``'s busy list, shared by all sessions."""
    doc, ran = _Doc(), []  # type: ignore[var-annotated]
    with set_curdoc(doc):
        timer = Timer(lambda: ran.append(pn.state.curdoc), period=1000)
        assert timer.served and timer.running and len(doc.session_callbacks) == 1
        timer.period = 250  # autoplay's pace changed: the same callback, every 250 ms
        (callback,) = doc.session_callbacks
        assert callback.period == 250 and timer.period == 250
        with set_curdoc(Document()):  # scheduled from another page's context: it still runs as its own page's
            callback.callback()
        assert ran == [doc] and pn.state._busy_counter == []
        timer.stop()
        timer.stop()  # twice: nothing to do
        assert not timer.running and doc.session_callbacks == []
        ended = Timer(lambda: None, period=500)
    listener = lambda event: None  # noqa: E731  # the session, as the document knows it
    doc.on_change(listener)
    doc.destroy(listener)  # the session ended, and its document with it: stopping afterwards must not raise
    ended.stop()
    assert not ended.running and ended._call is not None and ended._call.callback is None  # the document keeps no way back


def test_a_page_closed_before_its_play_tab_arrived_gets_no_more_pieces(served) -> None:  # type: ignore[no-untyped-def]
    loaded, ticks = served
    d = Dashboard(_model())
    doc = _Doc()
    with set_curdoc(doc):
        loaded.pop()()  # the page has loaded: its first piece, the controls' widgets
        doc.session_context.session.connection_count = 0  # the tab is closed
        ticks.pop()()
    assert not ticks and doc.held == ["combine", "unhold"] and "Setting out the board" in d._slots[0].objects[0].object


#: The pieces a served page's Play tab arrives in (:meth:`Dashboard._fill_play`).
PIECES = 10


def test_a_served_page_gets_its_play_tab_in_pieces_and_makes_its_controls_and_board_in_their_own(served) -> None:  # type: ignore[no-untyped-def]
    loaded, ticks = served
    m = _model()
    d = Dashboard(m)
    assert d._board is None and d._controls is None  # the session's first moments on the server cannot be split
    m.selected_field, m.odds = 1, True  # chosen before the board is drawn: it starts from them
    doc = _Doc()
    assert "Setting out the board" in d._slots[0].objects[0].object
    asked = [loaded.pop()]
    with set_curdoc(doc):
        for k in range(PIECES):  # each piece is its own turn of the event loop, and schedules the next
            assert (d._controls is None) == (k < 1) and (d._board is None) == (k <= 7) and (d._board_started is None) == (k <= 6 or k > 7)
            asked.pop()()
            assert len(ticks) == (k < PIECES - 1)
            asked += ticks
            ticks.clear()
            row = d._slots[0].objects[-1] if k else None  # whose turn, the cards and the board's square, from the second piece
            side = row.objects[1] if row is not None else None
            if k == 1:  # the board's square is on the page from the start, so nothing beside it moves when it is drawn
                board, _ = row.objects
                assert not board.select(pn.pane.Bokeh) and board.styles["aspect-ratio"] == "1 / 1" and board.styles["width"].startswith("min(100%")
                # the property card, hidden until a field is clicked, and the board's text wait there for the figure
                assert board.objects == [d.field_card.panel, d.board_text, d.board_news]
            if k == 2:  # the turn's buttons, and a reserved block for the decisions that come and go
                assert d.controls.roll in side.select(pn.widgets.Button) and not side.select(pn.widgets.Switch)
            if k == 3:  # then the switches, the decisions' block (empty until one comes), the keys' hint and the reasons
                assert d.odds.switch in side.select(pn.widgets.Switch) and d.controls.why in side.objects[-1].objects
                assert d.controls.buy not in side.select(pn.widgets.Button)
            if k == 5:  # the other controls, the guessing and the log come before the board, whose walk costs most
                assert d.controls.house in side.select(pn.widgets.Button) and d.log.pane in side.objects[-1].select(pn.pane.HTML)
                assert not d._slots[0].select(pn.pane.Bokeh)
            if k == 7:  # the board's figure is made in two pieces of its own, and drawn in the next
                assert not d._slots[0].select(pn.pane.Bokeh)
            if k == 8:  # the winner screen (hidden until the game is over) goes above the board once the board is drawn
                assert d.winner.panel not in d._slots[0].objects
    assert d._slots[0].objects[0] is d.winner.panel
    board, _ = d._slots[0].objects[1].objects  # the figure goes first in the board's place, under the property card
    assert board.objects[0].object is d.board.figure and board.objects[1:] == [d.field_card.panel, d.board_text, d.board_news]
    assert doc.held == ["combine", "unhold"] * PIECES  # each piece's changes reach the page as one message
    # no decision is waiting: its block keeps its height, empty, and its buttons are made when one comes
    assert d.controls.buy not in d._slots[0].select(pn.widgets.Button) and not d.controls._occasional.objects
    assert len(d._slots[0].objects) == 2 and d.board.figure in [p.object for p in d._slots[0].select(pn.pane.Bokeh)]
    assert d.board.cells.selected.indices == [1] and d.board.cells.data["fill"][7] != "#fdfdf6"


def test_the_lesson_and_guessing_views_are_built_the_first_time_their_switch_is_turned_on() -> None:
    d = Dashboard(_model())
    odds, guessing = pn.panel(d.odds), pn.panel(d.guessing)
    assert not odds.select(pn.widgets.RadioButtonGroup) and not odds.select(pn.pane.HTML)[1:]  # the switch and its label only
    assert not guessing.select(pn.pane.Bokeh) and not any(b.visible for b in d.controls.guess_buttons.values())
    d.guessing.switch.value = True
    charts = guessing.select(pn.pane.Bokeh)
    assert len(charts) == 2 and d.guessing.body.visible and all(b.visible for b in d.controls.guess_buttons.values())
    d.guessing.switch.value = False
    assert not d.guessing.body.visible
    d.guessing.switch.value = True
    assert guessing.select(pn.pane.Bokeh) == charts  # made once, kept
    d.odds.switch.value = True
    assert odds.select(pn.widgets.RadioButtonGroup) == [d.odds.mode] and d.odds.legend.visible and "Darker fields" in d.odds.legend.object
    d.odds.switch.value = False
    assert not d.odds.mode.visible and not d.odds.legend.visible


def test_a_lesson_page_opens_with_its_lesson_view_built() -> None:
    m = _model()
    m.odds = True  # ?lesson=1
    d = Dashboard(m)
    assert pn.panel(d.odds).select(pn.widgets.RadioButtonGroup) == [d.odds.mode] and d.odds.legend.visible


def test_a_steps_redraw_does_not_touch_the_lesson_or_guessing_views_while_their_switches_are_off() -> None:
    m = _model(seats=("basic", "basic", "basic"))
    d = Dashboard(m)
    redrawn: list[str] = []
    d.odds.refresh = lambda: redrawn.append("odds")  # type: ignore[method-assign]
    d.guessing.refresh = lambda: redrawn.append("guessing")  # type: ignore[method-assign]
    m.advance()
    m.advance()
    assert redrawn == []
    m.odds = m.predict = True
    redrawn.clear()
    m.advance()
    assert sorted(redrawn) == ["guessing", "odds"]


def test_a_steps_redraw_words_only_the_logs_new_events_and_a_new_language_rewords_them_all(monkeypatch) -> None:  # type: ignore[no-untyped-def]
    m = _model(seats=("basic", "basic", "basic"))
    d = Dashboard(m)
    for _ in range(3):
        m.advance()
    worded: list[object] = []
    describe = type(m.game).describe
    monkeypatch.setattr(type(m.game), "describe", lambda g, e, lang="en": worded.append(e) or describe(g, e, lang))
    seen = len(m.game.log)
    m.advance()
    # the events already shown keep their lines (the board's live region words the last of the new ones again)
    assert worded and {repr(e) for e in worded} == {repr(e) for e in m.game.log[seen:]}
    shown = re.findall(r"<li>(.*?)</li>", d.log.pane.object)
    assert [html.unescape(t) for t in shown[::-1]] == m.log_lines(120)
    worded.clear()
    m.lang = "es"
    # every line of the log again (and the live region's last sentence)
    assert min(120, len(m.game.log)) <= len(worded) <= min(120, len(m.game.log)) + 1 and "sacó" in d.log.pane.object


def test_the_trade_card_is_filled_the_first_time_it_is_opened() -> None:
    d = Dashboard(_model())
    trade = d.controls.manage_controls().objects[1]
    assert trade.title == "Trade" and trade.collapsed and not trade.objects
    trade.collapsed = False
    assert d.controls.partner in trade.select(pn.widgets.Select)
    trade.collapsed = True
    trade.collapsed = False
    assert len(trade.objects) == 1


def test_a_steps_redraw_runs_inside_the_models_redraw_batch() -> None:
    m = _model(seats=("basic", "basic", "basic"))
    Dashboard(m)
    assert m.redraw_batch is not pn.io.hold  # outside a server (a notebook) Panel pushes each change itself
    seen: list[int] = []

    @contextlib.contextmanager
    def batch() -> Iterator[None]:
        seen.append(m.version)
        yield

    m.redraw_batch = batch
    before = m.version
    m.advance()
    assert seen == [before] and m.version == before + 1


def test_a_served_dashboard_batches_each_redraw_with_panels_hold(monkeypatch) -> None:  # type: ignore[no-untyped-def]
    monkeypatch.setattr(app, "_serving", lambda: True)
    monkeypatch.setattr(pn.state, "onload", lambda callback: None)  # no page here to load
    monkeypatch.setattr(pn.state, "on_session_destroyed", lambda callback: None)
    m = _model()
    Dashboard(m)
    assert m.redraw_batch is pn.io.hold


def test_assign_sets_only_the_values_that_change() -> None:
    button = pn.widgets.Button(label="Roll")
    events: list[str] = []
    button.param.watch(lambda *changes: events.extend(e.name for e in changes), ["disabled", "description"])
    assign(button, disabled=False, description=None)
    assert events == []
    assign(button, disabled=True, description="not your turn")
    assert sorted(events) == ["description", "disabled"] and button.disabled


def test_a_step_sends_the_board_only_the_columns_that_changed() -> None:
    m = _model(seats=("basic", "basic", "basic"))
    d = Dashboard(m)
    doc = Document()
    doc.add_root(d.board.figure)
    events: list[ColumnDataChangedEvent] = []
    doc.on_change(lambda e: events.append(e) if isinstance(e, ColumnDataChangedEvent) else None)
    m.advance()
    assert events and all(e.cols is not None for e in events)
    cells = {c for e in events if e.model is d.board.cells for c in e.cols or []}
    assert cells and not cells & {"x", "y", "name", "band", "price"}  # the squares and their names never move
    assert d.board.cells.data == board_data(m) and d.board.tokens.data == token_data(m)


def test_a_step_sets_only_the_text_of_the_play_tabs_changing_panes(monkeypatch: pytest.MonkeyPatch) -> None:
    """Panel's HTML pane sets every property of its page model again with each new text; a step sets only the text."""
    from panel.models.markup import HTML as PageHTML

    m = _model(seats=("basic", "basic", "basic"))
    d = Dashboard(m)
    pn.panel(d).get_root(Document())
    panes = {"header": d.controls.header, "status": d.controls.status, "cards": d.cards.pane, "log": d.log.pane,
             "board_text": d.board_text}
    shown = {name: next(iter(pane._models.values()))[0] for name, pane in panes.items()}
    before = {name: model.text for name, model in shown.items()}
    updates: list[list[str]] = []
    update = PageHTML.update
    monkeypatch.setattr(PageHTML, "update", lambda self, **props: (updates.append(sorted(props)), update(self, **props))[1])
    m.advance()
    assert updates == []
    for name, model in shown.items():  # each pane's page text is the new text, as Panel would have sent it
        assert model.text != before[name] and model.text == html.escape(panes[name].object), name


def test_a_redraw_after_the_game_ended_sends_the_winner_screen_nothing_new() -> None:
    m = _model(seats=("basic", "basic", "basic"))
    d = Dashboard(m)
    doc = Document()
    doc.add_root(pn.panel(d).get_root(doc))
    m.advance(to_end=True)
    assert m.game.is_over and d.winner.panel.visible
    events: list[object] = []
    doc.on_change(events.append)
    m.redraw()
    assert not [e for e in events if getattr(e, "model", None) is d.winner.source]


def test_a_closed_dashboard_is_garbage_collected() -> None:
    d = Dashboard(GameModel(*default_game(seed=7)))  # a game whose person rolls first
    ref = weakref.ref(d.model)
    d.model.act(A.Roll(d.model.person_to_move))
    d.close()
    del d
    gc.collect()
    assert ref() is None


@pytest.mark.parametrize("preset", ["laspoly", "sculptprice", "classic", "standard"])
def test_every_preset_plays_to_the_end_in_the_dashboard(preset: str) -> None:
    m = GameModel()
    assert m.new_game(["Ana", "Ben", "Cy"], ["basic", "greedy", "trader"], preset=preset, seed=2, max_rounds=80)
    d = Dashboard(m)
    m.advance(to_end=True)
    assert m.game.is_over and d.players.table.object


def test_a_callback_that_raises_shows_an_error_and_the_session_keeps_working(monkeypatch) -> None:  # type: ignore[no-untyped-def]
    d = Dashboard(_model("1-2"))
    m = d.model

    def broken(*args: object, **kwargs: object) -> None:
        raise RuntimeError("injected fault")

    monkeypatch.setattr(m, "advance", broken)
    d.controls.next.clicks += 1
    assert "injected fault" in m.message and "Something went wrong" in d.controls.message.object
    monkeypatch.undo()
    d.controls.roll.clicks += 1
    assert m.game.phase == "buy"


def test_the_engine_says_what_a_voluntary_action_costs_for_the_L19_warning() -> None:
    m = _model("1-2")
    g = m.game
    m.act(A.Roll(0))
    assert g.cost_of(A.Buy(0)) == 80 and g.cost_of(A.Roll(0)) == 0
    give(g, 0, "Hoover Dam Road")
    assert g.cost_of(A.Build(0, 7, "house")) == 50 and g.cost_of(A.Build(0, 7, "factory")) == 100


def test_the_engines_player_limit_of_2_to_8_holds_in_the_dashboard_and_8_seats_render() -> None:
    m = _model()
    before = m.game.digest()
    for count in (1, 9):
        assert not m.new_game([f"P{i}" for i in range(count)], [PERSON] * count, seed=4)
        assert "a game needs 2 to 8 players" in m.message and m.game.digest() == before
    d = Dashboard(m)
    d.tabs.active = 4  # "New game"
    assert (d.setup.count.start, d.setup.count.end) == (2, 8)
    d.setup.count.value = 8
    d.setup.start.clicks += 1
    assert len(m.game.players) == 8 and m.seats == [PERSON] + [DEFAULT_OPPONENT] * 7
    d.tabs.active = 1  # "Players"
    badges = re.findall(r'<span style="color:(#\w+);font-size:1.2em" aria-hidden="true">(.)</span>', d.players.table.object)
    assert len(badges) == 8 and len(set(badges)) == 8  # every seat its own colour and shape
    assert len(set(token_data(m)["marker"])) == 8


def test_keys_r_e_and_n_press_roll_end_turn_and_next_only_when_enabled_and_on_the_play_tab() -> None:
    d = Dashboard(_model("1-2 3-4 2-5"))
    m, c = d.model, d.controls
    assert not c.press("e") and m.game.turns == 1  # End turn is off before the roll
    c.keys.press = f"r {1}"  # as the browser reports a key
    assert m.game.phase == "buy"
    m.act(A.DeclineBuy(0))
    assert c.press("E") and m.game.current == 1
    d.tabs.active = 1  # on another tab the keys do nothing
    c.keys.press = "n 2"
    assert m.game.current == 1
    d.tabs.active = 0
    c.keys.press = "n 3"
    assert m.game.current == 2
    assert not c.press("x")


def _record(index: int, turns: int, capped: bool) -> GameRecord:
    return GameRecord(index, index, ("basic", "dealer"), 0, 0, turns, turns // 2, capped, ())


def test_the_game_length_chart_marks_the_round_cap_with_a_line_and_a_label_in_both_languages_L20() -> None:
    m = GameModel()
    view = ProbabilityView(model=m)
    assert not view.cap_line.visible and not view.cap_label.visible  # nothing capped yet: nothing marked
    view._show_lab(("basic", "dealer"), [_record(0, 95, False), _record(1, 130, False)])
    assert view.len_source.data == {"turns": [90, 130], "games": [1, 1]} and not view.cap_line.visible
    records = [_record(0, 95, False), _record(1, 2051, True), _record(2, 2063, True), _record(3, 2048, True)]
    view._show_lab(("basic", "dealer"), records)
    assert view.cap_line.visible and view.cap_line.location == 2048 and view.cap_label.x == 2048
    assert view.cap_label.text == f"Round cap ({DEFAULT_MAX_ROUNDS} rounds): 3 games ended there, the richest winning"
    m.lang = "es"
    assert view.cap_label.text == f"Tope de rondas ({DEFAULT_MAX_ROUNDS}): 3 partidas acabaron ahí y ganó el más rico"
    view._show_lab(("basic", "dealer"), records[:2])
    assert view.cap_label.text == f"Tope de rondas ({DEFAULT_MAX_ROUNDS}): 1 partida acabó ahí y ganó el más rico"


def test_the_probability_tabs_dice_chart_is_bars_against_the_exact_probabilities_as_markers() -> None:
    from bokeh.models import Line, Scatter, VBar

    m = GameModel()
    view = ProbabilityView(model=m)
    glyphs = [r.glyph for r in view.dice_chart.renderers]
    assert any(isinstance(g, VBar) for g in glyphs) and any(isinstance(g, Scatter) for g in glyphs)
    assert not any(isinstance(g, Line) for g in glyphs)
    assert view.dice_chart.title.text.endswith("two dice (dots)")  # its title names what it draws
    m.lang = "es"
    assert view.dice_chart.title.text.endswith("dos dados (puntos)")


#: The longest chart title a 390 px phone shows whole: the English dice chart's 49 characters fit (screenshots at
#: 390x844); the Spanish one's 62 were cut at the right edge.
PHONE_TITLE = 50


@pytest.mark.parametrize("lang", ["en", "es"])
def test_every_chart_title_of_the_probability_tab_and_the_guessing_panel_fits_a_phones_width(lang: str) -> None:
    from bokeh.models import Plot

    from laspoly.engine.words import plural

    m = GameModel()
    view = ProbabilityView(model=m)
    m.lang = lang
    titles = [x.title.text for x in vars(view).values() if isinstance(x, Plot) and x.title is not None]
    titles += [plural("predict.totals_chart", n, lang, n=n) for n in (1, 99)]
    assert len(titles) >= 5
    assert all(len(t) <= PHONE_TITLE for t in titles), [t for t in titles if len(t) > PHONE_TITLE]


def test_game_lengths_bins_by_twenty_player_turns_and_finds_where_the_cap_begins() -> None:
    bars, cap_at, capped = game_lengths([_record(0, 19, False), _record(1, 20, False), _record(2, 2050, True)])
    assert bars == {"turns": [10, 30, 2050], "games": [1, 1, 1]} and (cap_at, capped) == (2050, 1)
    assert game_lengths([_record(0, 19, False)])[1:] == (None, 0)


def test_the_players_table_puts_every_value_under_its_own_header_aligned_alike() -> None:
    m = GameModel()
    set_cash(m.game, 1, 1234)
    view = PlayersView(model=m)
    head = re.findall(r"<th( class='lp-num')?>([^<]*)</th>", view.table.object)
    assert [name for _, name in head] == ["Player", "Seat", "Cash", "Net worth", "Status", "Jail cards", "Properties"]
    for row in re.findall(r"<tr><td>.*?</tr>", view.table.object):
        cells = re.findall(r"<td( class='lp-num')?[^>]*>(.*?)</td>", row)
        assert len(cells) == len(head)
        assert [num for num, _ in cells] == [num for num, _ in head]  # money and counts right, under right-aligned headers
    assert "1234 LPD" in re.findall(r"<tr><td>.*?</tr>", view.table.object)[1].split("</td>")[2]  # under "Cash"
    assert "lp-standings" in view.table.object and any(".lp-num" in css for css in view.table.stylesheets)


def test_every_cash_chart_names_its_players_in_a_legend() -> None:
    from bokeh.models import Legend

    from laspoly.ui.replay import ReplayView

    m = GameModel()
    for figure in (PlayersView(model=m).figure, ReplayView(model=m).chart):
        legends = [x for x in figure.above + figure.center + figure.right if isinstance(x, Legend)]
        assert len(legends) == 1 and legends[0].items[0].label.field == "name"
        source = legends[0].items[0].renderers[0].data_source
        assert source.data["name"] == [p.name for p in m.game.players]


def test_the_file_dropper_is_worded_in_the_pages_language_and_follows_a_switch() -> None:
    from laspoly.ui.views import POND_WORDS, FilesView, dropper_words

    es = dropper_words("es")
    assert es["labelIdle"] == 'Arrastra y suelta aquí tu archivo o <span class="filepond--label-action">Busca</span>'
    assert set(es) == {*POND_WORDS, "labelIdle"} and es["labelMaxFileSize"].endswith("{filesize}")  # FilePond fills it
    assert all(es[k] != dropper_words("en")[k] for k in ("labelIdle", "labelFileProcessing", "labelButtonRemoveItem"))
    m = GameModel(lang="es")
    view = FilesView(model=m)
    assert view.load_words.labels == es
    m.lang = "en"
    assert view.load_words.labels["labelIdle"].startswith("Drag and drop your file here or")
