"""The Play tab's view-model, without a browser: the header, the hint, the stakes and each control's state and reason.

Each test sets up one state of a turn (the start, a purchase, prison, an auction,
a trade offer, the end, a spectator's screen, a bot's turn) and reads what
:func:`~laspoly.ui.playview.play_view` says the tab shows.
"""

from __future__ import annotations

from pathlib import Path

from helpers import edit, jail, place

from laspoly.engine import actions as A
from laspoly.engine.game import Game
from laspoly.server.rooms import join_room, open_room, seat_token
from laspoly.server.store import open_store
from laspoly.server.table import PERSON
from laspoly.ui.model import GameModel
from laspoly.ui.playview import CONTROLS, NO_FIELD, PLACES, PlayInputs, names_in, play_view, prison_tries_left, train_fare

OWNER = "owner-key-for-tests-0003"


def _model(seats: tuple[str, ...] = (PERSON, "basic"), dice: str = "", lang: str = "en", **kw: object) -> GameModel:
    m = GameModel()
    names = ["Ana", "Ben", "Cy"][: len(seats)]
    assert m.new_game(names, list(seats), seed=4, dice=dice, lang=lang, **kw), m.message  # type: ignore[arg-type]
    return m


def _reasons(view: object) -> dict[str, str]:
    """Each button held back, by label, with its reason."""
    return {label: reason for reason, labels in view.reasons for label in labels}  # type: ignore[attr-defined]


def test_at_the_start_of_a_turn_roll_is_the_primary_choice_and_end_turn_says_why_it_is_off() -> None:
    m = _model()
    v = play_view(m)
    assert (v.header.seat, v.header.title, v.header.hint) == (0, "Ana, your turn", "Roll the dice.")
    roll, end = v.controls["roll"], v.controls["end_turn"]
    assert roll.enabled and roll.color == "primary" and roll.label == "Roll"
    assert not end.enabled and end.reason and _reasons(v)["End turn"] == end.reason
    assert not v.controls["buy"].visible and not v.controls["bid"].visible
    assert v.status == m.status() and v.turn_stakes == () and v.build_stakes == ""


def test_a_purchase_on_offer_shows_its_price_on_buy_and_in_the_hint() -> None:
    m = _model(dice="1-2")
    assert m.act(A.Roll(0))
    g = m.game
    price = g.money(g.fields[g.pending_field].price)
    v = play_view(m)
    assert v.header.title == "Ana, your decision" and price in v.header.hint
    assert v.controls["buy"].visible and v.controls["buy"].enabled and v.controls["buy"].label == f"Buy ({price})"
    assert v.controls["decline"].visible and v.controls["decline"].enabled
    assert not v.controls["roll"].enabled and not v.controls["end_turn"].enabled


def test_a_prisoner_sees_the_tries_left_on_roll_and_the_fine_on_its_button() -> None:
    m = _model()
    jail(m.game, 0)
    g = m.game
    tries = prison_tries_left(g)
    v = play_view(m)
    assert tries == g.rules.jail_tries_per_turn and f"tries left this turn: {tries}" in v.header.hint
    assert v.controls["roll"].label == f"Roll (tries left: {tries})"
    fine = v.controls["fine"]
    assert fine.visible and fine.label == f"Pay fine ({g.money(g.rules.jail_fine)})" and fine.enabled
    assert v.controls["jail_card"].visible and not v.controls["jail_card"].enabled  # no card in hand: off, with the reason
    assert v.controls["jail_card"].reason in _reasons(v).values()


def test_the_auction_asks_for_a_bid_above_the_highest_and_passing_is_on() -> None:
    m = _model(seats=(PERSON, PERSON), dice="1-2", rules="auctions=true")
    assert m.act(A.Roll(0)) and m.act(A.DeclineBuy(0))
    g = m.game
    assert g.phase == "auction" and g.auction is not None
    v = play_view(m, PlayInputs(bid=0))
    assert v.bid == g.auction.high + 10 and "Auction of" in v.header.hint
    assert v.controls["bid"].visible and v.controls["bid"].enabled and v.controls["pass_auction"].enabled
    assert play_view(m, PlayInputs(bid=g.auction.high + 50)).bid == g.auction.high + 50  # a higher bid typed is kept


def test_a_trade_offer_waits_in_the_header_with_accept_and_reject_at_hand() -> None:
    m = _model(seats=(PERSON, PERSON), dice="1-2 1-1 3-4")
    assert m.act(A.Roll(0)) and m.act(A.Buy(0))
    street = m.game.owner.index(0)
    assert m.act(A.ProposeTrade(0, 1, (street,), (), -50))
    mine = play_view(m)
    assert [o.key for o in mine.offers] == ["play.offer_yours"] and not mine.controls["accept"].visible
    assert m.act(A.EndTurn(0))
    v = play_view(m)
    assert "Ana offers you a trade (#1): answer it below." in v.header.alerts
    assert v.header.hint == "Answer Ana's trade offer (below), or roll the dice."  # a phone's first screen says it too
    assert v.controls["accept"].visible and v.controls["accept"].enabled and v.controls["reject"].visible
    (offer,) = v.offers
    assert (offer.key, offer.other, offer.give) == ("play.offer_to_you", 0, m.game.field_name(street))
    assert m.act(A.DeclineTrade(1, offer.id)) and play_view(m).header.hint == "Roll the dice."


def test_proposing_needs_a_partner_then_the_engine_judges_the_offer() -> None:
    m = _model(seats=(PERSON, PERSON))
    v = play_view(m)
    assert v.propose_reason == m.t("why.choose_partner") and not v.controls["propose"].enabled
    assert v.partners == {"Ben": 1} and v.take_options == {}
    empty = play_view(m, PlayInputs(partner=1))
    assert empty.partner == 1 and empty.propose_reason == m.explain(m.game.why_illegal(A.ProposeTrade(0, 1, (), (), 0)))
    assert play_view(m, PlayInputs(partner=7)).partner is None  # a seat not in the list is no partner


def test_at_the_end_of_the_game_nothing_is_on_and_the_winner_heads_the_tab() -> None:
    m = _model(seats=(PERSON, "basic"), max_rounds=5)
    m.advance(to_end=True)
    g = m.game
    assert g.is_over
    v = play_view(m)
    assert v.header.seat == g.winner and v.header.title == f"{g.players[g.winner].name} wins!"
    assert not any(v.controls[name].enabled for name in ("roll", "end_turn", "buy", "next", "run_end", "autoplay"))
    assert v.reasons == () or all(r == m.undo_refusal() for r, _ in v.reasons)  # only undo may say why


def test_a_bots_turn_asks_for_next_and_lists_no_reasons() -> None:
    m = _model(seats=("basic", PERSON))
    v = play_view(m)
    assert v.header.title == "Ana (bot) is playing" and v.header.hint == m.t("table.hint.next")
    assert not v.controls["roll"].enabled and v.controls["roll"].reason is None
    assert v.controls["next"].enabled and v.controls["run_end"].enabled
    assert v.reasons == () and v.properties == {m.t("table.choose_property"): NO_FIELD} and v.give_options == {}


def test_next_is_off_while_a_person_must_decide_and_says_why_in_both_languages() -> None:
    """Next moves the bots: on a person's move it would do nothing, so it is never on only to do nothing."""
    m = _model()
    v = play_view(m)
    assert not v.controls["next"].enabled and _reasons(v)["Next"] == "it moves only the bots, and it is Ana's decision now"
    assert v.controls["run_end"].enabled  # Run to end plays every seat, people's too
    m.lang = "es"
    assert _reasons(play_view(m))["Siguiente"] == "solo mueve a los bots, y ahora decide Ana"


def test_a_spectator_watches_with_every_control_off(tmp_path: Path) -> None:
    store = open_store(f"sqlite:///{tmp_path / 'watch.db'}")
    table = open_room(store, Game(["Ana", "Ben"], seed=4), [PERSON, "basic"], OWNER, "en")
    room_id = table.room_id
    watcher = GameModel(table=join_room(store, room_id, seat_token(OWNER, room_id, "view")))
    v = play_view(watcher)
    assert v.header.title == "Waiting for Ana" and v.header.hint == "Ana plays on their own device."
    assert not any(v.controls[name].enabled for name in ("roll", "end_turn", "next", "run_end", "autoplay", "undo"))
    assert v.reasons == ()  # nothing was played yet: undo has nothing to explain either


def test_the_train_offers_every_other_station_and_prices_the_first_one() -> None:
    m = _model()
    g = m.game
    here = g.stations[0]
    place(g, 0, here)
    edit(g, lambda position: position["turn"].update(phase="travel", roll_due=False))
    v = play_view(m)
    assert v.header.hint == m.t("table.hint.travel")
    assert here not in v.stations.values() and v.station == next(iter(v.stations.values()))
    fare = train_fare(g, v.station)
    assert fare is not None and v.controls["travel"].label == f"{m.t('play.travel')} ({g.money(fare)})"
    assert v.controls["stay"].visible and v.controls["travel"].visible


def test_the_words_follow_the_language() -> None:
    m = _model(lang="es")
    v = play_view(m)
    assert v.controls["roll"].label == m.t("play.roll") != "Roll" and v.header.hint == m.t("table.hint.roll")


def test_every_control_has_a_place_in_the_tab_and_one_row_is_enough_to_add_one() -> None:
    placed = [name for place in {row.place for row in CONTROLS} | set(PLACES) for name in names_in(place)]
    assert {row.name for row in CONTROLS} <= set(placed) and len({row.name for row in CONTROLS}) == len(CONTROLS)
    assert set(play_view(_model()).controls) >= {row.name for row in CONTROLS}


def test_predict_then_roll_keeps_roll_off_with_its_reason_until_a_guess_is_clicked_beside_it() -> None:
    m = _model(seats=(PERSON, "basic"))
    assert play_view(m).guesses == {} and play_view(m).controls["roll"].enabled  # the switch off: no guess buttons
    m.predict = True
    v = play_view(m)
    assert list(v.guesses) == list(range(2, 13)) and all(s.enabled and s.color == "default" for s in v.guesses.values())
    roll = v.controls["roll"]
    first = "Predict, then roll: Ana, click your guess of the total (2 to 12) first."
    assert not roll.enabled and roll.reason == first and _reasons(v)["Roll"] == first
    assert v.header.hint == "Ana, what total will you roll? Click a number, then Roll."
    assert not v.controls["end_turn"].enabled and v.controls["end_turn"].color == "default"
    m.guess = 7
    v = play_view(m)
    assert v.controls["roll"].enabled and v.controls["roll"].reason is None and "Roll" not in _reasons(v)
    assert v.header.hint == "Ana guesses 7. Now Roll."
    assert v.guesses[7].color == "primary" and {s.color for t, s in v.guesses.items() if t != 7} == {"default"}
    assert m.act(A.Roll(0)) and m.guess is None
    v = play_view(m)  # the roll is done: the buttons stay in place, off, and the reason is the engine's again
    assert v.guesses and not any(s.enabled for s in v.guesses.values())
    assert not v.controls["roll"].enabled and v.controls["roll"].reason != first


def test_predict_then_roll_has_nothing_to_click_on_a_bots_turn_and_speaks_spanish() -> None:
    m = _model(seats=("basic", PERSON), lang="es")
    m.predict = True
    v = play_view(m)
    assert v.guesses and not any(s.enabled for s in v.guesses.values())
    m = _model(seats=(PERSON, "basic"), lang="es")
    m.predict = True
    assert play_view(m).controls["roll"].reason == m.t("predict.first", name="Ana") != "Predict, then roll: Ana, click your guess of the total (2 to 12) first."


def test_a_rent_to_claim_on_a_bots_turn_comes_before_next_in_the_hint_C6() -> None:
    m = _model(seats=("basic", PERSON), dice="1-1 6-6 1-4 1-4", preset="classic")  # Ben (the person) rolls highest: first
    assert m.act(A.Roll(1)) and m.act(A.Buy(1)) and m.act(A.EndTurn(1))
    assert m.act(A.Roll(0))  # the bot lands on Ben's railroad: the rent waits for his claim
    assert m.game.claims and m.game.actor == 0
    v = play_view(m)
    assert v.header.title == "Ana (bot) is playing"
    assert v.header.hint == "Ben: claim your rent first, then press Next to let the bot play."
    assert v.controls["claim"].enabled
    (claim,) = m.person_claims()
    assert m.act(claim) and play_view(m).header.hint == "Press Next to let the bot play, or turn on Autoplay."
