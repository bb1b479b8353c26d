"""The engine's refusal reasons: English as before for every caller, and each one worded in Spanish too."""

from __future__ import annotations

import random
import re
from pathlib import Path

import pytest
from helpers import ANA, BEN, give, new_game

from laspoly.engine import actions as A
from laspoly.engine.game import Game
from laspoly.engine.legality import mover_candidates
from laspoly.engine.reasons import Reason, placeholders
from laspoly.engine.state import TradeOffer
from laspoly.engine.words import catalogue


def test_a_reason_is_the_english_sentence_and_carries_its_key() -> None:
    g = new_game()
    give(g, ANA, "Fremont Street")
    reason = g.why_illegal(A.Build(ANA, g.board.find("Fremont Street"), "house"))
    assert reason == "you need the whole colour group"
    assert isinstance(reason, Reason) and reason.key == "build.whole_group"


def test_explain_words_a_reason_in_spanish_with_names_and_money() -> None:
    g = new_game("1-2")
    g.apply(A.Roll(ANA))
    g.players[ANA].cash = 10
    reason = g.why_illegal(A.Buy(ANA))
    assert str(reason).startswith("it costs ")
    assert g.explain(reason, "es") == f"cuesta {g.money(g.fields[g.pending_field].price)} y tienes {g.money(10)}"
    assert g.explain(reason, "en") == reason
    assert g.explain(g.why_illegal(A.Roll(BEN)), "es") == "ahora decide Ana"


def test_a_lapsed_offer_words_its_inner_reason_in_the_same_language() -> None:
    g = new_game()
    fremont = give(g, ANA, "Fremont Street")[0]
    g.offers[1] = TradeOffer(1, BEN, ANA, (), (fremont,), 0, 0, 0)
    g.owner[fremont] = BEN  # Ana no longer owns what the offer asks of her
    reason = g.why_illegal(A.AcceptTrade(ANA, 1))
    assert reason == "the offer has lapsed: Ana does not own Fremont Street"
    assert g.explain(reason, "es") == f"la oferta ha caducado: {g.field_name(fremont, 'es')} no es de Ana"


def test_sculptprice_reasons_use_its_rulebooks_words() -> None:
    g = Game(["Ana", "Ben"], preset="sculptprice", seed=4)
    street = next(f.index for f in g.fields if f.kind == "street")
    g.owner[street] = g.current
    station = next(f.index for f in g.fields if f.kind != "street" and f.is_property)
    g.owner[station] = g.current
    reason = g.why_illegal(A.Build(g.current, station, "house"))
    assert reason == "only streets take buildings"
    assert g.explain(reason, "es") == "solo las Esculturas admiten Actualizaciones"


def test_a_plain_string_passes_through_explain_unchanged() -> None:
    assert new_game().explain("not a reason of the engine", "es") == "not a reason of the engine"


@pytest.mark.parametrize("preset", ["laspoly", "sculptprice", "classic", "standard"])
def test_every_refusal_met_in_random_games_has_a_spanish_wording(preset: str) -> None:
    """Ask every candidate action at every step of a few random games; each refusal is a Reason with a Spanish text."""
    seen: set[str] = set()
    for seed in range(3):
        g = Game(["Ana", "Ben", "Cy"], preset=preset, seed=seed, max_rounds=40)
        rng = random.Random(seed)
        while not g.is_over:
            p = g.actor
            candidates = [*mover_candidates(g.state, p), A.Roll(p), A.EndTurn(p), A.Buy(p), A.PayFine(p), A.StayPut(p),
                          A.PlaceBid(p, 0), A.ClaimRent(p, 1), A.ProposeTrade(p, p, (), (), 0)]
            for action in candidates:
                reason = g.why_illegal(action)
                if reason is None:
                    continue
                assert isinstance(reason, Reason), (action, reason)
                spanish = g.explain(reason, "es")
                assert "{" not in spanish and spanish != "", reason
                seen.add(reason.key)
            g.apply(rng.choice(g.legal_actions()))
    assert len(seen) >= 8


def _refusal_keys() -> set[str]:
    """The reasons the engine's source refuses with by name (``refuse(s, "build.evenly", ...)``)."""
    source = Path(__file__).resolve().parents[2] / "laspoly"
    return {key for path in source.rglob("*.py") for key in re.findall(r'\brefuse\(s,\s*"([a-z_.]+)"', path.read_text(encoding="utf-8"))}


def test_every_reason_the_engine_names_has_both_languages_with_the_same_placeholders_and_spanish_differs() -> None:
    keys = _refusal_keys()
    assert len(keys) >= 60
    english, spanish = catalogue("en").messages, catalogue("es").messages
    for key in keys:
        assert (key, "") in english and (key, "") in spanish, key
        for en, es in zip(english[(key, "")].forms, spanish[(key, "")].forms, strict=True):
            assert placeholders(en) == placeholders(es) and en != es, key
