"""The dashboard's string catalogue: one row per key, both languages, matching placeholders."""

from __future__ import annotations

import pytest

from laspoly.ui import i18n


def test_every_key_has_english_and_spanish_with_the_same_placeholders() -> None:
    table = i18n.catalogue()
    assert table, "the catalogue is empty"
    for key, texts in table.items():
        assert set(texts) == set(i18n.LANGS), key
        assert i18n._fields(texts["en"]) == i18n._fields(texts["es"]), key


def test_the_catalogue_file_is_sorted_by_key_so_translators_find_rows() -> None:
    from importlib.resources import files

    keys = [line.split("\t")[0] for line in files("laspoly.data").joinpath("i18n/ui.tsv").read_text(encoding="utf-8").splitlines()
            if line.strip() and not line.startswith("#")]
    assert keys == sorted(keys)


def test_tr_fills_placeholders_in_the_chosen_language() -> None:
    assert i18n.tr("winner.last", "es", name="Ana") == "Gana Ana: es el último jugador en juego."
    assert i18n.tr("winner.last", "en", name="Ana").startswith("Ana wins")
    assert i18n.tr("tab.play", "fr") == "Play"  # an unknown language falls back to English


def test_an_unknown_key_is_a_programming_error() -> None:
    with pytest.raises(KeyError):
        i18n.tr("no.such.key")
