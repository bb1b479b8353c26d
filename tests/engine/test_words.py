"""The gettext catalogues: one ``.po`` per language, read with the standard library, with plural forms."""

from __future__ import annotations

import re
import shutil
import subprocess
from gettext import GNUTranslations
from pathlib import Path

import pytest

from laspoly.engine import words
from laspoly.engine.words import LANGS, catalogue, check, placeholders, plural, read_po, text
from laspoly.ui.i18n import tr, trn

ROOT = Path(__file__).resolve().parents[2]


def test_the_catalogues_pass_the_translators_check() -> None:
    assert check() == []


def test_every_key_is_in_both_catalogues_with_the_same_placeholders() -> None:
    english, spanish = catalogue("en").messages, catalogue("es").messages
    assert len(english) > 500 and set(english) == set(spanish)
    for key, message in english.items():
        other = spanish[key]
        assert message.plural == other.plural, key
        want = set().union(*map(placeholders, message.forms))
        for form in (*message.forms, *other.forms):
            assert placeholders(form) <= want and want - placeholders(form) <= ({"n"} if message.plural else set()), key


def test_the_po_files_are_valid_for_gnu_msgfmt() -> None:
    msgfmt = shutil.which("msgfmt")
    if msgfmt is None:
        pytest.skip("GNU gettext's msgfmt is not installed")
    for lang in LANGS:
        run = subprocess.run([msgfmt, "--check", "-o", "-", str(ROOT / f"laspoly/locale/{lang}/LC_MESSAGES/laspoly.po")],
                             capture_output=True, check=False)
        assert run.returncode == 0 and run.stderr == b"", run.stderr


def test_the_catalogue_read_in_memory_is_the_one_gnu_msgfmt_compiles(tmp_path: Path) -> None:
    msgfmt = shutil.which("msgfmt")
    if msgfmt is None:
        pytest.skip("GNU gettext's msgfmt is not installed")
    for lang in LANGS:
        mo = tmp_path / f"{lang}.mo"
        subprocess.run([msgfmt, "-o", str(mo), str(ROOT / f"laspoly/locale/{lang}/LC_MESSAGES/laspoly.po")], check=True)
        with mo.open("rb") as f:
            gnu = GNUTranslations(f)
        ours = words.translations(lang)
        assert gnu._catalog == ours._catalog  # type: ignore[attr-defined]
        assert [gnu.plural(n) for n in range(5)] == [ours.plural(n) for n in range(5)] == [1, 0, 1, 1, 1]


def test_the_reader_names_each_problem_with_its_line() -> None:
    good = 'msgid ""\nmsgstr "Content-Type: text/plain; charset=UTF-8\\n"\n\nmsgid "a"\nmsgstr "A \\"quoted\\"\\n"\n"continued"\n'
    cat = read_po(good, "en")
    assert cat.messages[("a", "")].forms == ('A "quoted"\ncontinued',)
    bad = 'msgid "a"\nmsgstr "A"\n\nmsgid "a"\nmsgstr "again"\n\nmsgid "b"\nmsgstr[0] "x"\n\nmsgid "c"\nmsgstr "unclosed\n'
    with pytest.raises(ValueError) as error:
        read_po(bad, "en", "x.po")
    message = str(error.value)
    assert "x.po:4: 'a' appears twice" in message and "x.po:7: 'b' needs one msgstr" in message and "x.po:11:" in message


def test_a_fuzzy_or_empty_translation_reads_in_english_and_the_check_names_it() -> None:
    po = ('msgid ""\nmsgstr "Content-Type: text/plain; charset=UTF-8\\nPlural-Forms: nplurals=2; plural=(n != 1);\\n"\n\n'
          '#, fuzzy\nmsgid "tab.play"\nmsgstr "Jugar"\n\nmsgid "tab.rules"\nmsgstr ""\n')
    cat = read_po(po, "es")
    assert cat.messages[("tab.play", "")].fuzzy and not cat.messages[("tab.rules", "")].fuzzy
    assert b"Jugar" not in words.mo_bytes(cat)


# ------------------------------------------------------------ plurals


PLURALS = sorted(key for (key, _), m in catalogue("en").messages.items() if m.plural)


@pytest.mark.parametrize("key", PLURALS)
@pytest.mark.parametrize("lang", LANGS)
def test_each_plural_message_has_a_form_for_one_and_another_for_two(key: str, lang: str) -> None:
    values = {name: "X" for form in catalogue("en").messages[(key, "")].forms for name in placeholders(form) if name != "n"}
    one, two = plural(key, 1, lang, **values), plural(key, 2, lang, **values)
    assert one != two and "{" not in one + two
    assert "2" in two


def test_counts_read_as_people_say_them_in_english_and_spanish() -> None:
    assert [trn("count.games", n, "en") for n in (0, 1, 2)] == ["0 games", "1 game", "2 games"]
    assert [trn("count.games", n, "es") for n in (0, 1, 2)] == ["0 partidas", "1 partida", "2 partidas"]
    assert trn("odds.tries", 1, "en") == "your last try" and trn("odds.tries", 3, "es") == "tus 3 intentos"
    assert trn("odds.more_turns", 1.5, "en", n="1.5") == "1.5 more turns"  # a fraction takes the plural
    assert trn("games.actions", 1, "es") == "1 acción"
    assert trn("winner.how_rounds", 1, "en", name="Ana").startswith("The game reached its cap of 1 round:")
    assert tr("join.count", "en", people=trn("count.people", 1, "en"), bots=trn("count.bots", 0, "en"), total=1) == (
        "A game has 2 to 4 players: 1 person and 0 bots is 1.")


def test_the_class_totals_say_from_1_game_not_from_1_games() -> None:
    def pooled(lang: str, games: int) -> str:
        return tr("class.pooled", lang, rolls=trn("count.rolls", 1, lang), landings=trn("count.landings", 2, lang),
                  rooms=trn("count.games", games, lang))

    assert pooled("en", 1) == "1 roll and 2 landings from 1 game, pooled"
    assert pooled("en", 3) == "1 roll and 2 landings from 3 games, pooled"
    assert pooled("es", 1) == "1 tirada y 2 caídas de 1 partida, juntas"


def test_a_preset_has_its_own_plural_words() -> None:
    assert plural("build.max_houses", 1, "en") == "a street holds at most 1 house"
    assert plural("build.max_houses", 2, "es", "sculptprice") == "una Escultura admite como mucho 2 Actualizaciones"
    assert text("build.max_houses", "es", "sculptprice", n=1) == "una Escultura admite como mucho 1 Actualización"


def test_a_plural_message_needs_its_count_and_a_plain_one_takes_none() -> None:
    with pytest.raises(TypeError):
        text("count.games", "en")
    with pytest.raises(TypeError):
        plural("tab.play", 2)
    with pytest.raises(KeyError):
        text("no.such.key")


def test_an_unknown_language_reads_in_english() -> None:
    assert text("tab.play", "fr") == "Play" and plural("count.games", 1, "fr") == "1 game"


# ------------------------------------------------------------ every key the code names exists


#: Calls that name a catalogue key as a literal: tr("key", ...), m.t("key", ...), trn("key", ...), refuse(s, "key", ...), word("key", ...) (``board.<key>``).
_CALLS = re.compile(r"""\b(tr|trn|t|text|plural|refuse|word)\(\s*(?:s,\s*)?(?:f?)["']([a-z][\w.]*)["']""")


def test_every_key_the_code_names_is_in_the_catalogues() -> None:
    known = {key for key, _ in catalogue("en").messages}
    missing = []
    named = 0
    for path in (ROOT / "laspoly").rglob("*.py"):
        for call, key in _CALLS.findall(path.read_text(encoding="utf-8")):
            if call == "word" and path.name == "board.py":
                key = f"board.{key}"
            elif call == "word":
                continue
            if "." not in key:
                continue
            named += 1
            if key not in known:
                missing.append(f"{path.relative_to(ROOT)}: {key}")
    assert named > 300 and missing == []


def test_every_event_type_has_its_sentence_and_every_sentence_an_event() -> None:
    from laspoly.engine.events import EVENT_TYPES

    sentences = {key.split(".")[1] for key, _ in catalogue("en").messages if key.startswith("event.")}
    assert sentences == set(EVENT_TYPES)


def test_the_catalogues_are_package_data() -> None:
    import tomllib

    data = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))["tool"]["setuptools"]["package-data"]
    assert "locale/*/LC_MESSAGES/*.po" in data["laspoly"]
    assert all(words.po_file(lang).is_file() for lang in LANGS)


def test_the_moved_event_sentences_read_as_before_in_both_languages() -> None:
    from laspoly.engine import events as E
    from laspoly.engine.game import Game

    g = Game(2, seed=1)
    said = {lang: [g.describe(e, lang) for e in (E.Built(0, 1, "house", 50), E.SoldBuilding(1, 3, "hotel", 25),
                                                  E.Paid(0, 1, 6, "rent", 1), E.Paid(0, -1, 50, "fine"),
                                                  E.SentToPrison(1, "third_doubles"), E.Paid(1, -2, 10, "tax"))]
            for lang in LANGS}
    street, other = g.field_name(1), g.field_name(3)
    assert said["en"] == [f"Player 1 built a house on {street} for 50 LPD.", f"Player 2 sold a hotel on {other} to the bank for 25 LPD.",
                          f"Player 1 paid 6 LPD rent to Player 2 for {street}.", "Player 1 paid 50 LPD to the bank for the prison fine.",
                          "Player 2 went to prison for a third doubles.", "Player 2 paid 10 LPD to the casino pot for tax."]
    assert said["es"][0] == f"Player 1 construyó una casa en {g.field_name(1, 'es')} por 50 LPD."
    assert said["es"][3] == "Player 1 pagó 50 LPD a la banca por la multa de prisión."
    assert said["es"][5] == "Player 2 pagó 10 LPD al bote del casino por impuesto."


def test_the_translators_command_checks_and_compiles(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    from laspoly.i18n import main

    assert main(["check"]) == 0 and "The catalogues are complete" in capsys.readouterr().out
    assert main(["compile", str(tmp_path)]) == 0
    with (tmp_path / "es" / "LC_MESSAGES" / "laspoly.mo").open("rb") as f:
        assert GNUTranslations(f).ngettext("count.games", "count.games", 1) == "{n} partida"
