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


def test_the_catalogue_files_are_sorted_by_key_so_translators_find_messages() -> None:
    from laspoly.engine.words import catalogue

    for lang in i18n.LANGS:
        keys = list(catalogue(lang).order)
        assert keys == sorted(keys), lang


def test_tr_fills_placeholders_in_the_chosen_language() -> None:
    assert i18n.tr("winner.last", "es", name="Ana") == "Gana Ana: es el último jugador en juego."
    assert i18n.tr("winner.last", "en", name="Ana").startswith("Ana wins")
    assert i18n.tr("tab.play", "fr") == "Play"  # an unknown language falls back to English


def test_an_unknown_key_is_a_programming_error() -> None:
    with pytest.raises(KeyError):
        i18n.tr("no.such.key")


# ------------------------------------------------------------ a Spanish page shows no English


def _visible_words(*roots: object) -> list[str]:
    """Every text a person reads in these components: panes, labels, options, titles, chart titles and axes."""
    import html
    import re

    import panel as pn
    from bokeh.models import FactorRange

    from laspoly.ui.common import KeyShortcuts

    out: list[str] = []
    for root in roots:
        for obj in root.select():  # type: ignore[attr-defined]
            if isinstance(obj, pn.pane.HTML | pn.pane.Markdown):
                text = re.sub(r"<code[^>]*>.*?</code>|`[^`\n]*`", "", str(obj.object or ""), flags=re.S)  # code: names and values typed as-is
                out += [html.unescape(t) for t in re.split(r"<[^>]+>", text) if t.strip()]
            elif isinstance(obj, pn.widgets.RadioButtonGroup):
                continue  # the language switch names each language in its own words
            elif isinstance(obj, pn.widgets.Widget):
                out.append(obj.label if "label" in obj.param else obj.name)
                options = getattr(obj, "options", None)
                out += list(options) if isinstance(options, dict) else [str(o) for o in options or []]
                out.append(getattr(obj, "placeholder", "") or "")
            elif isinstance(obj, pn.Card):
                out.append(obj.title)
            elif isinstance(obj, pn.Tabs):
                out += list(obj._names)
            elif isinstance(obj, KeyShortcuts):
                out.append(obj.hint)
            elif isinstance(obj, pn.pane.Bokeh):
                fig = obj.object
                out += [fig.title.text if fig.title else "", *[a.axis_label or "" for a in (*fig.xaxis, *fig.yaxis)]]
                if isinstance(fig.x_range, FactorRange):
                    out += [str(f) for f in fig.x_range.factors]
    return [t for t in out if t and t.strip()]


def _spanish_pages() -> list[tuple[str, list[str]]]:
    """The dashboard in Spanish at the moments a student meets: a turn, a purchase, a property card, a trade, a refusal, the end."""
    from helpers import build, edit, give, mortgage

    from laspoly.engine import actions as A
    from laspoly.server.table import PERSON
    from laspoly.ui.app import Dashboard
    from laspoly.ui.board import centre_data, token_data
    from laspoly.ui.invite import InviteView, MyGamesView
    from laspoly.ui.model import GameModel

    pages: list[tuple[str, list[str]]] = []

    def look(name: str, d: Dashboard) -> None:
        m = d.model
        views = [d.players, d.probability, d.replay, d.rules, d.setup, d.teacher, d.files, InviteView(model=m), MyGamesView(model=m)]
        for view in views:
            if hasattr(view, "refresh"):
                view.refresh()
        words = _visible_words(d.layout, *(v.__panel__() for v in views))
        centre = centre_data(m)
        words += centre["head"]["text"] + centre["lines"]["text"] + token_data(m)["name"]
        words += [t for col in ("buildings", "mortgaged", "tip") for t in d.board.cells.data[col]]
        names = sorted({n for f in m.game.fields for n in f.name.values()}, key=len, reverse=True)
        for field_name in names:  # a field's name is a proper name, like a player's ("St. Charles Place")
            words = [w.replace(field_name, "") for w in words]
        pages.append((name, words))

    for preset in ("laspoly", "sculptprice", "classic"):
        m = GameModel()
        assert m.new_game(["Ana", "Ben", "Cy"], [PERSON, PERSON, "basic"], preset=preset, seed=4, dice="1-2 3-4 2-2", lang="es",
                          max_rounds=20)
        d = Dashboard(m)
        look(f"{preset}: start", d)
        g = m.game
        m.act(A.Roll(g.actor))
        look(f"{preset}: after a roll", d)
        m.act(A.Buy(0))  # refused or not, it leaves a message or a property
        busy = {g.fields[p.pos].group for p in g.players}  # no group a token stands on (a purchase may be pending there)
        groups = [grp for grp in dict.fromkeys(f.group for f in g.fields if f.kind == "street") if grp not in busy][:2]
        streets = [f.index for f in g.fields if f.group == groups[0]]
        other = next(f.index for f in g.fields if f.group == groups[1])
        street = streets[0]
        mine = {*streets, other}
        edit(g, lambda position, mine=mine: position.update(properties=[d for d in position["properties"] if d["field"] not in mine]))
        give(g, 0, *(g.fields[i].name["en"] for i in (*streets, other)))
        build(g, dict.fromkeys(streets, 2))
        mortgage(g, other)
        m.selected_field = street
        m.act(A.ProposeTrade(0, 1, (other,), (), -20))
        m.act(A.Build(0, street, "hotel"))  # refused: the page says why, in Spanish
        m.redraw()
        d.controls.trade_card.collapsed = False
        look(f"{preset}: a property, offers and a refusal", d)
        m.advance(to_end=True)
        look(f"{preset}: the end", d)
    return pages


def test_a_spanish_page_shows_no_english_text_of_the_catalogues() -> None:
    from helpers import english_in

    found = [(name, key, line) for name, words in _spanish_pages() for key, line in english_in(words)]
    assert found == []


def test_switching_the_language_rewords_the_page_tabs_included() -> None:
    from helpers import english_in

    from laspoly.ui.app import Dashboard
    from laspoly.ui.model import GameModel

    d = Dashboard(GameModel())
    english = _visible_words(d.layout)
    assert "Roll" in english and "Play" in english
    d.model.lang = "es"
    spanish = _visible_words(d.layout)
    assert "Tirar" in spanish and "Jugar" in spanish and english_in(spanish) == []
    d.model.lang = "en"
    assert "Roll" in _visible_words(d.layout)


def test_a_refusal_of_the_table_is_shown_in_the_pages_language() -> None:
    from laspoly.engine import actions as A
    from laspoly.ui.model import GameModel

    m = GameModel(lang="es")
    assert not m.undo()  # nothing to take back on a new game
    assert m.message == "No hay ninguna decisión de una persona que deshacer."
    m.act(A.Buy(0))
    assert m.message.startswith("Ana no puede comprar: ")


def test_a_name_left_empty_is_jugador_n_in_a_spanish_game_and_the_box_says_so() -> None:
    from laspoly.ui.model import GameModel
    from laspoly.ui.views import SetupView

    m = GameModel()
    setup = SetupView(model=m)
    setup.lang.value = "es"
    assert setup.names[1].placeholder == "Jugador 2"
    setup.count.value = 2
    setup.names[0].value = " "
    setup._start(None)
    assert [p.name for p in m.game.players] == ["Jugador 1", "Ben"] and m.lang == "es"


def test_every_seat_a_person_can_choose_has_its_words() -> None:
    from laspoly.server.table import SEAT_CHOICES

    assert {f"seat.{kind}" for kind in SEAT_CHOICES} <= set(i18n.catalogue())


def test_a_bad_save_file_a_bad_name_and_a_bad_position_are_refused_in_the_pages_language() -> None:
    import json

    from laspoly.record import game_to_dict
    from laspoly.ui.model import GameModel

    m = GameModel(lang="es")
    before = m.game.digest()
    assert not m.load_json(b"{ not json", "malo.json")
    assert m.message.startswith("No se pudo cargar malo.json: malo.json no es JSON válido (¿cortado o dañado?): ")
    damaged = game_to_dict(m.game) | {"digest": "0" * 64}
    assert not m.load_json(json.dumps(damaged).encode(), "cambiado.json")
    assert m.message == ("No se pudo cargar cambiado.json: el resumen del archivo de partida no coincide con su reproducción: "
                         "el archivo se modificó o está dañado")
    wrong = game_to_dict(m.game) | {"setup": {**m.game.setup, "players": ["Ana", " "]}}
    assert not m.load_json(json.dumps(wrong).encode(), "nombres.json")  # an error inside an error is said in Spanish too
    assert m.message == ("No se pudo cargar nombres.json: la configuración del archivo de partida no es válida: "
                         "el nombre de un jugador no puede estar vacío")
    assert not m.new_game(["Ana"], ["person"])
    assert "una partida necesita de 2 a 8 jugadores, no 1" in m.message
    assert not m.open_position({"format": "nada"})
    assert m.message.startswith("No se pudo preparar la posición: ")
    assert m.game.digest() == before


@pytest.mark.parametrize("name", [3, "", "x" * 41, "A\u202eB"])
def test_a_setup_errors_english_message_is_its_catalogue_entry_in_english(name: object) -> None:
    from laspoly.engine.state import check_player_count, clean_name
    from laspoly.errors import SetupError

    for check, value in ((clean_name, name), (check_player_count, 9)):
        with pytest.raises(SetupError) as caught:
            check(value)
        assert caught.value.key and str(caught.value) == i18n.tr(caught.value.key, "en", **caught.value.values)
        assert i18n.said(caught.value, "es") != str(caught.value)
