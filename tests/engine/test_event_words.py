"""Sentences of the log that once read wrong, pinned in both languages: the forced fine (L14)."""

from __future__ import annotations

import pytest
from helpers import edit, jail, new_game, script, texts

from laspoly.engine import actions as A

FORCED = {"en": "Ana left prison with the fine due on the last prison turn.",
          "es": "Ana salió de prisión con la multa del último turno en prisión."}


@pytest.mark.parametrize("lang", ["en", "es"])
def test_a_prisoner_freed_by_the_forced_fine_reads_as_a_sentence_never_three_turns_without_leaving_prison_L14(lang: str) -> None:
    g = new_game()
    jail(g, 0)
    edit(g, lambda p: p["players"][0].update(prison_turns=g.rules.jail_max_turns - 1))  # the last prison turn
    script(g, "1-2 1-2 1-2")
    for _ in range(g.rules.jail_tries_per_turn):
        g.apply(A.Roll(0))
    said = texts(g, lang)
    assert FORCED[lang] in said, said
    assert not [t for t in said if "turns without leaving" in t or "turnos sin salir" in t]
