"""The action registry: one entry per action type, each with its check, effect, candidates and words."""

from __future__ import annotations

from dataclasses import fields

import pytest
from helpers import ANA, BEN, new_game

from laspoly.engine import actions as A
from laspoly.engine import registry as R
from laspoly.engine import words
from laspoly.engine.game import ACTIONS, Game
from laspoly.engine.words import placeholders

#: One action of every type, with fields that exist on every board.
SAMPLES: tuple[A.Action, ...] = (
    A.Roll(ANA), A.EndTurn(ANA), A.Buy(ANA), A.DeclineBuy(ANA), A.Travel(ANA, 5), A.StayPut(ANA),
    A.Build(ANA, 1, "house"), A.Build(ANA, 1, "hotel"), A.Build(ANA, 1, "factory"), A.SellBuilding(ANA, 1),
    A.SellProperty(ANA, 1), A.Mortgage(ANA, 1), A.Repay(ANA, 1), A.PayFine(ANA), A.UseJailCard(ANA),
    A.ProposeTrade(ANA, BEN, give=(1,), cash=10), A.AcceptTrade(ANA, 0), A.DeclineTrade(ANA, 0), A.PlaceBid(ANA, 40),
    A.PassAuction(ANA), A.ClaimRent(ANA, 1),
)


def _action_classes() -> set[type[A.Action]]:
    return {v for v in vars(A).values() if isinstance(v, type) and issubclass(v, A.Action) and v is not A.Action}


def test_every_action_type_has_exactly_one_entry_with_all_four_parts() -> None:
    kinds = [e.kind for e in ACTIONS]
    assert len(kinds) == len(set(kinds)) and set(kinds) == _action_classes() == set(R.ENTRIES)
    assert R.ACTION_TYPES == {k.__name__: k for k in kinds}
    for e in ACTIONS:
        assert callable(e.check) and callable(e.effect), e.kind
        assert R.CHECKS[e.kind] is e.check and R.EFFECTS[e.kind] is e.effect, e.kind
        c = e.candidates
        assert c.when in (R.ANY_SEAT, R.IN_PHASE, R.ON_FIELD, R.NEVER), e.kind
        assert (c.make is not None or c.seats is not None) == (c.when in (R.ANY_SEAT, R.IN_PHASE)), e.kind
        assert c.seats is None or c.seats == tuple(e.kind(p) for p in range(len(c.seats))), e.kind
        assert (c.on_field is not None) == (c.when == R.ON_FIELD), e.kind
        assert e.words.startswith("action."), e.kind


def test_only_a_trade_offer_is_never_listed_and_a_rent_claim_is_listed_for_any_seat() -> None:
    assert [e.kind for e in ACTIONS if e.candidates.when == R.NEVER] == [A.ProposeTrade]
    assert [e.kind for e in ACTIONS if e.candidates.when == R.ANY_SEAT] == [A.ClaimRent]


def test_every_action_has_its_words_in_both_languages_and_every_row_belongs_to_an_action() -> None:
    # an action's words are ``action.<Type>``; ``action.no_field`` and the like are refusals of any action
    table = {key: texts for key, texts in words.table().items() if key.startswith("action.") and key[7].isupper()}
    used = {R.words_key(a) for a in SAMPLES} | {"action.Build"}  # a building no message names: the general words
    assert {e.kind for e in ACTIONS} == {type(a) for a in SAMPLES}
    assert {k.split("@")[0] for k in table} == used
    for key, texts in table.items():
        assert texts["en"] and texts["es"] and texts["en"] != texts["es"], key


def test_registering_an_action_type_twice_is_refused() -> None:
    with pytest.raises(ValueError, match="twice"):
        R.register(ACTIONS[:1])


def test_the_legal_actions_keep_the_order_of_the_registry_phase_by_phase() -> None:
    g = new_game("3-4", players=2)  # Ana to move at the start of her turn
    assert g.legal_actions() == [A.ROLL[ANA]]
    g.apply(A.ROLL[ANA])  # 7: Glitter Gulch, unowned
    assert g.legal_actions() == [A.BUY[ANA], A.DECLINE_BUY[ANA]]
    g.apply(A.BUY[ANA])
    field = g.players[ANA].pos
    on_field = [a for a in R.field_actions(ANA, field) if g.is_legal(a)]
    assert g.legal_actions() == [A.END_TURN[ANA], *on_field] and on_field


def test_a_turns_shared_values_are_listed_in_one_step_in_the_registrys_order() -> None:
    parts = R.PHASE_PARTS["turn"]
    assert parts[0].seats is not None and parts[0].seats[BEN] == (A.ROLL[BEN], A.END_TURN[BEN], A.PAY_FINE[BEN], A.USE_JAIL_CARD[BEN])
    assert [p.seats for p in parts[1:]] == [None, None]  # the trade answers, made from the offers


def test_the_actions_on_a_field_are_the_on_field_entries_in_registry_order() -> None:
    made = [type(a) for a in R.field_actions(BEN, 3)]
    assert list(dict.fromkeys(made)) == [e.kind for e in ACTIONS if e.candidates.when == R.ON_FIELD]


@pytest.mark.parametrize("preset", ["laspoly", "standard", "sculptprice"])
@pytest.mark.parametrize("lang", ["en", "es"])
def test_the_dashboard_describes_an_action_in_the_engines_words(preset: str, lang: str) -> None:
    from laspoly.ui.model import GameModel

    m = GameModel()
    assert m.new_game(["Ana", "Ben"], ["person", "person"], preset=preset, lang=lang)
    m.lang = lang
    g = m.game
    for a in SAMPLES:
        assert m.describe(a) == g.describe_action(a, lang) == g.observe().describe_action(a, lang), a
    assert g.describe_action(A.Mortgage(ANA, 1), lang).endswith(g.field_name(1, lang))
    assert g.describe_action(A.ProposeTrade(ANA, BEN), lang).endswith("Ben")


def test_an_action_is_described_in_the_preset_rulebooks_words_and_a_missing_field_by_its_number() -> None:
    sculpt = Game(2, preset="sculptprice")
    assert sculpt.describe_action(A.Build(ANA, 1, "house")).startswith("add an Actualización on ")
    assert Game(2).describe_action(A.Build(ANA, 1, "house")).startswith("build a house on ")
    assert Game(2).describe_action(A.Mortgage(ANA, 99)) == "mortgage field 99"
    assert Game(2).describe_action(A.ProposeTrade(ANA, 7)) == "offer a trade to player 8"


def test_every_action_field_is_a_known_placeholder_or_left_unused() -> None:
    """The words fill placeholders from the action's own fields: a row naming anything else would raise."""
    for a in SAMPLES:
        names = {f.name for f in fields(a)}
        for lang in ("en", "es"):
            row = words.text(R.words_key(a), lang)
            assert placeholders(words.message(R.words_key(a)).forms[0]) <= names, (a, lang, row)
