"""The Play tab as a game table, without a browser: the lab's redraw, one selection, whose turn, every turn's cash,
the player cards, the stakes of each decision and the end of a game."""

from __future__ import annotations

import asyncio
import re
import threading
from typing import Any

import panel as pn
import pytest
from bokeh.document import Document
from bokeh.models import Button as BokehButton
from helpers import edit, give_jail_card, jail

from laspoly.bots.basic import BasicBot
from laspoly.bots.runner import play_bot_turns
from laspoly.engine import actions as A
from laspoly.engine.game import Game
from laspoly.server.table import PERSON
from laspoly.ui import model as model_module
from laspoly.ui.app import Dashboard
from laspoly.ui.controls import GUESS_HEIGHT, RESERVED_ROW
from laspoly.ui.model import GameModel, cash_by_turn
from laspoly.ui.playview import play_view
from laspoly.ui.probability import ProbabilityView
from laspoly.ui.standings import final_standings


def _dashboard(seats: tuple[str, ...] = (PERSON, "basic"), dice: str = "", preset: str = "laspoly", seed: int = 4,
               names: tuple[str, ...] = ("Ana", "Ben", "Cy"), **kw: Any) -> Dashboard:
    m = GameModel()
    assert m.new_game(list(names[: len(seats)]), list(seats), preset=preset, seed=seed, dice=dice, **kw), m.message
    return Dashboard(m)


def _cards(d: Dashboard) -> list[str]:
    """The text of each player card, in seat order."""
    html = d.cards.pane.object.split("<div class='lp-cards-foot'>")[0]
    return [_text("<div " + card) for card in re.split(r"<div class='lp-card[^']*' role='listitem'", html)[1:]]


def _run_alone(coroutine: Any) -> None:
    """Run a coroutine to its end on a loop of its own thread: a browser test earlier in the session may leave
    Playwright's loop running on this one, where ``asyncio.run`` refuses to start."""
    errors: list[BaseException] = []

    def run() -> None:
        try:
            asyncio.run(coroutine)
        except BaseException as error:  # handed back to the test's thread
            errors.append(error)

    worker = threading.Thread(target=run)
    worker.start()
    worker.join()
    if errors:
        raise errors[0]


def _text(html: str) -> str:
    """What a reader sees of an HTML pane: the text without tags."""
    return re.sub(r"\s+", " ", re.sub(r"<[^>]+>", " ", html)).strip()


# ---------------------------------------------------------------- 1. the lab draws under the document's lock


def test_the_lab_draws_its_charts_in_a_callback_scheduled_under_the_documents_lock(monkeypatch: pytest.MonkeyPatch) -> None:
    """Panel runs the lab's coroutine without the document lock, so its Bokeh sources change only in a scheduled callback."""
    view = ProbabilityView(model=GameModel())
    scheduled: list[Any] = []
    monkeypatch.setattr(pn.state, "execute", lambda callback, schedule="auto": scheduled.append((callback, schedule)))
    view.games.value = 4
    view.lab_bots.value = ["greedy", "cautious"]
    _run_alone(view._lab(None))
    assert view.win_source.data["bot"] == [] and len(scheduled) == 1 and scheduled[0][1] is True
    scheduled[0][0]()  # what the server runs on its next tick, with the lock held
    assert view.win_source.data["bot"] == ["greedy", "cautious"] and "4 games" in view.lab_note.object
    assert not view.run_lab.disabled and not view.progress.visible


# ---------------------------------------------------------------- 2. one selection for the list and the board


def test_a_property_chosen_in_the_list_is_the_selection_of_the_buttons_the_card_and_the_board() -> None:
    d = _dashboard(dice="1-2 1-1")
    m, c = d.model, d.controls
    m.act(A.Roll(0))
    m.act(A.Buy(0))
    street = m.game.owner.index(0)
    assert c.field.value == -1 and c.mortgage.disabled  # nothing chosen yet: the buttons say so
    c.field.value = street  # the person picks it in the "Property" list
    assert m.selected_field == street and d.board.cells.selected.indices == [street]
    assert not c.mortgage.disabled and c.repay.disabled and "it is not mortgaged" in c.why.object
    c.mortgage.clicks += 1
    assert m.game.mortgaged[street] and not c.repay.disabled
    d.board.cells.selected.indices = [1]  # a click on the board on a field that is not hers
    assert m.selected_field == 1 and c.field.value == -1 and c.mortgage.disabled
    assert "choose one of your properties first" in c.why.object  # listed beside the buttons, not in a tooltip over them


# ---------------------------------------------------------------- 3. whose turn, in large type


def test_the_header_says_whose_turn_it_is_and_what_to_do() -> None:
    d = _dashboard(seats=(PERSON, PERSON, "basic"), dice="1-2 1-2")
    m, header = d.model, d.controls.header
    assert "Ana, your turn" in _text(header.object) and "Roll the dice." in _text(header.object)
    m.act(A.Roll(0))
    assert "Ana, your decision" in _text(header.object) and "Buy Glitter Gulch for 80 LPD, or leave it." in _text(header.object)
    m.act(A.DeclineBuy(0))
    m.act(A.EndTurn(0))
    assert "Ben, your turn" in _text(header.object)  # two people at one screen, in turn
    m.act(A.Roll(1))
    m.act(A.DeclineBuy(1))
    m.act(A.EndTurn(1))
    assert "Cy (bot) is playing" in _text(header.object) and "Press Next" in _text(header.object)
    m.lang = "es"
    assert "Juega Cy (bot)" in _text(header.object)


# ---------------------------------------------------------------- 4. the cash chart has every turn


def test_run_to_end_gives_the_cash_chart_a_point_for_every_turn() -> None:
    d = _dashboard(seats=(PERSON, "basic", "greedy"), seed=3, max_rounds=30)
    m = d.model
    m.advance(to_end=True)
    assert m.game.is_over and m.game.turns > 50
    assert len(m.cash_history) == m.game.turns + 1 and m.cash_history[-1] == [p.cash for p in m.game.players]
    assert len({tuple(row) for row in m.cash_history}) > 10  # the cash moved from turn to turn, and the chart shows it
    assert m.cash_history == cash_by_turn(m.game)  # noted while playing, or rebuilt from the actions: the same
    d.tabs.active = 1
    xs = d.players.source.data["xs"][0]
    assert xs[0] == 0 and xs[-1] == m.game.turns and len(xs) == m.game.turns + 1


def test_a_loaded_game_has_its_whole_cash_history() -> None:
    played = Game(["Ana", "Ben"], seed=5, max_rounds=20)
    play_bot_turns(played, [BasicBot(), BasicBot()], validate=True, max_actions=120)
    m = GameModel()
    assert m.load_json(model_module._save_file(played).getvalue(), "game.json")
    assert len(m.cash_history) == played.turns + 1 and m.cash_history[-1] == [p.cash for p in played.players]


# ---------------------------------------------------------------- 5. player cards


def test_player_cards_show_every_balance_prison_cards_seat_and_whose_turn_and_follow_each_step() -> None:
    d = _dashboard(seats=(PERSON, "greedy", "basic"), dice="1-2")
    m, g = d.model, d.model.game
    jail(g, 1)
    m.redraw()
    assert d.cards.pane.object.count("role='listitem'") == 3
    assert re.search(r"<div class='lp-card lp-now' role='listitem' style='border-color:#E69F00' aria-current='true'>", d.cards.pane.object)
    ana, ben, cy = _cards(d)
    assert "Ana · person" in ana and "to play" in ana and "1300 LPD" in ana and "net worth 1300 LPD" in ana
    assert "Ben · bot · greedy" in ben and "In prison: prison turn 1 of 3" in ben
    assert "Cy · bot · basic" in cy and "to play" not in cy
    m.act(A.Roll(0))
    m.act(A.Buy(0))
    ana = _cards(d)[0]
    assert "1220 LPD" in ana and "net worth 1300 LPD · properties: 1" in ana  # every step updates the cards
    assert "seed 4" in _text(d.cards.pane.object)


def test_a_player_card_counts_the_get_out_of_prison_cards_held() -> None:
    d = _dashboard(seats=(PERSON, "basic"), preset="classic", seed=1)
    give_jail_card(d.model.game, 1, "chance", "jail_free")
    d.model.redraw()
    assert "Get-Out-of-Prison cards: 1" in _cards(d)[1] and "Get-Out-of-Prison cards" not in _cards(d)[0]


def test_a_prisoner_sees_the_tries_left_this_turn_on_the_card_the_header_and_roll() -> None:
    d = _dashboard(dice="1-2 1-3")
    m, g, c = d.model, d.model.game, d.controls
    jail(g, 0)
    m.redraw()
    assert c.roll.label == "Roll (tries left: 3)" and c.fine.label == "Pay fine (50 LPD)" and c.fine.visible
    m.act(A.Roll(0))
    assert c.roll.label == "Roll (tries left: 2)" and "tries left this turn: 2" in _text(c.header.object)
    assert "In prison: 2 of 3 tries left this turn" in _text(d.cards.pane.object)


# ---------------------------------------------------------------- 8. the stakes of each decision


def test_buy_shows_the_price_and_the_train_its_fare() -> None:
    d = _dashboard(dice="2-3")
    m, c = d.model, d.controls
    assert c.buy.label == "Buy"
    m.act(A.Roll(0))
    assert c.buy.label == "Buy (200 LPD)" and c.buy.visible
    m.act(A.DeclineBuy(0))
    assert c.travel.visible and c.station.value in m.game.stations
    assert c.travel.label == f"Take the train ({m.game.money(m.game.train_fare(5, c.station.value))})"
    c.station.value = 35
    assert c.travel.label == "Take the train (225 LPD)"


def test_claim_rent_shows_the_amount_and_is_the_primary_button_while_it_can_be_claimed() -> None:
    d = _dashboard(seats=(PERSON, "basic"), preset="classic", seed=1, dice="6-6 1-1 1-2 1-2")
    m, c = d.model, d.controls
    edit(m.game, lambda position: position["properties"].append({"field": 3, "owner": 0}))
    m.act(A.Roll(0))
    m.act(A.EndTurn(0))
    assert c.claim.disabled and c.claim.color == "default" and c.roll.color == "primary"
    m.advance()  # Ben lands on Ana's Baltic Avenue
    assert c.claim.label == "Claim rent ($4 from Ben)"
    assert not c.claim.disabled and c.claim.color == "primary" and c.roll.color == "default"
    # the alert shows with the decisions that come and go, under the turn's buttons, never above them
    assert "claim" in _text(c.alerts.object) and "lapses at the next roll" in _text(c.alerts.object)
    assert "claim" not in _text(c.header.object) and c.alerts in c.turn_controls().select(pn.pane.HTML)
    c.claim.clicks += 1
    assert c.claim.disabled and c.claim.label == "Claim rent" and c.roll.color == "primary"


def test_end_turn_is_the_primary_button_once_the_roll_is_done() -> None:
    d = _dashboard(dice="1-2")
    m, c = d.model, d.controls
    assert c.roll.color == "primary" and c.end_turn.color == "default"
    m.act(A.Roll(0))
    m.act(A.DeclineBuy(0))
    assert c.roll.disabled and not c.end_turn.disabled and c.end_turn.color == "primary"
    m.act(A.EndTurn(0))
    assert c.end_turn.color == "default"


def test_a_trade_offer_shows_on_the_receivers_card_and_above_its_answer_under_the_turns_buttons() -> None:
    d = _dashboard(seats=(PERSON, PERSON), dice="1-2 1-1 3-4")
    m, g, c = d.model, d.model.game, d.controls
    m.act(A.Roll(0))
    m.act(A.Buy(0))
    street = g.owner.index(0)
    assert m.act(A.ProposeTrade(0, 1, (street,), (), -50))
    assert "Trade offer #1 from Ana waits for an answer" in _text(d.cards.pane.object)
    m.act(A.EndTurn(0))
    assert "Ana offers you a trade (#1): answer it below." in _text(c.alerts.object) and "offers" not in _text(c.header.object)
    turn = c.turn_controls()
    assert c.accept in turn.select(pn.widgets.Button) and c.accept.visible and not c.accept.disabled


# ---------------------------------------------------------------- 9. the end of a game


def test_the_winner_screen_has_the_standings_how_it_ended_and_the_cash_of_every_turn() -> None:
    d = _dashboard(seats=(PERSON, "basic", "greedy"), seed=3, max_rounds=25)
    m, w = d.model, d.winner
    assert not w.panel.visible
    m.advance(to_end=True)
    g = m.game
    assert w.panel.visible and g.end_reason == "net_worth"
    assert f"{g.players[g.winner].name} wins!" in _text(w.title.object)
    assert "reached its cap of 25 rounds" in _text(w.title.object) and "Seed 3" in _text(w.title.object)
    rows = re.findall(r"<tr><td>(\d)</td>.*?</tr>", w.table.object)
    assert rows == ["1", "2", "3"] and final_standings(m)[0] == g.winner
    for p in g.players:
        assert p.name in w.table.object and g.money(g.net_worth(p.index)) in w.table.object
    assert len(w.source.data["xs"][0]) == g.turns + 1
    assert "wins!" in _text(d.controls.header.object)


def test_a_bankruptcy_ends_the_game_in_words() -> None:
    d = _dashboard(seats=("basic", "greedy"), seed=2)
    d.model.advance(to_end=True)
    g = d.model.game
    assert g.end_reason == "last_player"
    loser = next(p.name for p in g.players if not p.active)
    assert f"Out of the game: {loser}." in _text(d.winner.title.object)
    assert final_standings(d.model) == [g.winner, 1 - g.winner]


def test_new_game_gets_a_random_seed_and_rematch_keeps_the_seed_and_the_setup(monkeypatch: pytest.MonkeyPatch) -> None:
    d = _dashboard(seats=(PERSON, "greedy"), seed=3, max_rounds=5, rules="start_money=1000")
    m = d.model
    m.advance(to_end=True)
    d.winner.rematch.clicks += 1
    assert not m.game.is_over and m.game.setup["seed"] == 3 and m.game.rules.start_money == 1000
    assert m.seats == [PERSON, "greedy"] and m.game.setup["max_rounds"] == 5 and not d.winner.panel.visible
    m.advance(to_end=True)
    monkeypatch.setattr(model_module.secrets, "randbelow", lambda n: 424242)
    d.winner.new_game.clicks += 1
    assert m.game.setup["seed"] == 424242 and m.game.setup["players"] == ["Ana", "Ben"]
    d.tabs.active = 4  # "New game": its seed is random too, not always the same
    assert d.setup.seed.value == 424242


def test_hostile_names_are_escaped_on_the_cards_the_header_and_the_winner_screen() -> None:
    hostile = "<img src=x onerror=alert(1)>"
    d = _dashboard(seats=(PERSON, "basic"), names=(hostile, "Ben"), seed=4, max_rounds=3)
    m = d.model
    assert m.game.actor == 0 and m.act(A.ProposeTrade(0, 1, (), (), 10))  # an offer names its proposer on Ben's card
    assert "Trade offer #1 from &lt;img" in d.cards.pane.object
    m.advance(to_end=True)
    for html in (d.cards.pane.object, d.controls.header.object, d.winner.title.object, d.winner.table.object):
        assert "<img" not in html
    assert "&lt;img" in d.winner.table.object


def test_the_empty_win_chart_names_only_the_bots_chosen_so_labels_fit_a_tablet() -> None:
    m = GameModel()
    view = ProbabilityView(model=m)
    assert view.win_fig.x_range.factors == ["dealer", "shark", "hotelier", "industrialist"]
    view.lab_bots.value = ["basic", "dealer"]
    m.lang = "es"
    assert view.win_fig.x_range.factors == ["básico", "comerciante"]


def test_the_rows_of_buttons_wrap_as_plain_rows_not_templated_flexboxes() -> None:
    """Each row of decisions wraps on a narrow screen through CSS; a templated FlexBox costs a new page several times more."""
    d = Dashboard(GameModel())
    controls = pn.Column(d.controls.turn_controls(), d.controls.manage_controls())
    assert not controls.select(pn.FlexBox)
    rows = [r for r in controls.select(pn.Row) if d.controls.roll in r.objects or d.controls.house in r.objects]
    assert len(rows) == 2 and all(r.styles.get("flex-wrap") == "wrap" for r in rows)


@pytest.mark.parametrize(("lang", "said"), [("en", "Ben declined your trade offer #1."),
                                            ("es", "Ben rechazó tu oferta de intercambio #1.")])
def test_a_bot_that_declines_a_persons_offer_says_so_in_the_message_line_not_only_in_the_log(lang: str, said: str) -> None:
    m = GameModel(lang=lang)
    assert m.new_game(["Ana", "Ben"], [PERSON, "basic"], seed=4, dice="3-4", lang=lang)
    assert m.act(A.ProposeTrade(0, 1, (), (), -500)), m.message  # Ana asks Ben for 500 for nothing: no bot takes that
    assert m.act(A.Roll(0)) and m.act(A.DeclineBuy(0)) and m.act(A.EndTurn(0)), m.message
    assert m.message == ""
    m.advance()  # Ben answers the offer first thing in his turn
    assert any(type(e).__name__ == "TradeDeclined" for e in m.game.log)
    assert m.message == said
    assert play_view(m).message == said


def test_the_decisions_that_come_and_go_are_made_when_the_first_one_comes_not_with_the_page() -> None:
    """A served page puts the decisions' block on the page empty (it keeps its height): its dozen buttons are
    made and sent the first time a decision, a message, rent to claim or an offer is shown, then kept."""
    d = _dashboard(dice="2-3")
    m, c = d.model, d.controls
    turn = c.turn_controls(occasional=False)  # as Dashboard._fill_play builds it
    assert not c._occasional.objects and c._occasional.min_height == RESERVED_ROW
    assert c.roll in turn.select(pn.widgets.Button) and c.buy not in turn.select(pn.widgets.Button)
    m.act(A.Roll(0))  # Ana lands on a property she may buy
    assert c.buy.visible and c.buy in turn.select(pn.widgets.Button) and c.station in turn.select(pn.widgets.Select)
    block = c._occasional.objects
    m.act(A.Buy(0))
    assert c._occasional.objects == block and not c.buy.visible  # kept, hidden until the next decision


def test_the_guess_buttons_are_made_the_first_time_a_guess_is_asked_for() -> None:
    d = _dashboard()
    m, c = d.model, d.controls
    assert not c.guess_buttons and not c.guess_row.objects and c.guess_row.min_height == GUESS_HEIGHT  # the strip keeps its place
    m.predict = True  # predict, then roll: Roll waits for a guess
    assert sorted(c.guess_buttons) == list(range(2, 13)) and c.guess_row.objects == list(c.guess_buttons.values())
    assert all(b.visible and not b.disabled for b in c.guess_buttons.values()) and c.roll.disabled
    c.guess_buttons[7].clicks += 1
    assert m.guess == 7 and not c.roll.disabled


def test_a_fresh_page_has_at_most_240_bokeh_models_and_only_the_turns_buttons() -> None:
    """Each Bokeh model of a new page costs the server's one event loop to make, walk and send; a class opens thirty
    pages at once.  The decisions that come and go, the guesses and the trade card are made when first needed."""
    doc = Document()
    d = _dashboard(seats=("basic", "basic"))
    doc.add_root(pn.panel(d).get_root(doc))
    buttons = {m.label for m in doc.models if isinstance(m, BokehButton)}
    assert len(doc.models) <= 240
    assert {"Roll", "End turn", "Next", "Undo", d.controls.house.label} <= buttons and not {"Buy", "Accept", "Propose", "7"} & buttons
