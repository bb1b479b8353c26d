"""Every word laspoly shows, from one gettext catalogue per language: ``laspoly/locale/<lang>/LC_MESSAGES/laspoly.po``.

A message's id is a key (``event.Rolled``, ``build.evenly``, ``tab.play``) and
its text may hold ``{name}`` placeholders that the program fills.  A message
with a ``msgctxt`` is a preset's own words for that key (Sculptprice's
Actualizaciones); a message with ``msgid_plural`` has one form per plural form
of its language, chosen by its count, which is also its ``{n}`` placeholder
(English and Spanish: one form for 1, one for every other count).

The ``.po`` files are the only source: they are read here with a small reader,
turned into the binary ``.mo`` form in memory and handed to the standard
library's :class:`gettext.GNUTranslations`, which looks messages up and applies
each language's ``Plural-Forms`` rule.  So a checkout, an editable install and
a wheel read the same files, with no compile step and no copy to keep in sync,
and the engine needs nothing outside the standard library.  :func:`check` is
what a translator runs (``python -m laspoly.i18n check``): every key in every
language, the same placeholders, the plural forms the header promises.

The English catalogue defines the keys.  A message another language lacks, or
leaves empty, reads in English (gettext's fallback), so a catalogue being
translated still runs; :func:`check` lists what is missing.
"""

from __future__ import annotations

import io
import math
import re
import string
import struct
from dataclasses import dataclass
from functools import cache
from gettext import GNUTranslations
from importlib.resources import files
from importlib.resources.abc import Traversable
from typing import Any, TypeVar

from laspoly.errors import LaspolyError

#: The languages laspoly speaks, English first: its catalogue names every key.
LANGS = ("en", "es")
DOMAIN = "laspoly"

_TOKEN = re.compile(r'^(msgctxt|msgid_plural|msgid|msgstr(?:\[(\d+)\])?)\s+(".*")\s*$')
_ESCAPES = {"n": "\n", "t": "\t", '"': '"', "\\": "\\", "r": "\r"}


@dataclass(frozen=True)
class Message:
    """One entry of a catalogue: its key, the preset it belongs to ("" for all), and its forms (one unless plural)."""

    key: str
    context: str
    plural: bool
    forms: tuple[str, ...]
    line: int
    fuzzy: bool = False


@dataclass(frozen=True)
class Catalogue:
    """A parsed ``.po`` file: its header fields and its messages by (key, context)."""

    lang: str
    header: dict[str, str]
    messages: dict[tuple[str, str], Message]
    order: tuple[tuple[str, str], ...]


def po_file(lang: str) -> Traversable:
    """The catalogue file of ``lang`` inside the package (a path-like resource, also inside a wheel)."""
    return files("laspoly").joinpath("locale", lang, "LC_MESSAGES", f"{DOMAIN}.po")


def _unquote(token: str, where: str) -> str:
    if len(token) < 2 or token[0] != '"' or token[-1] != '"':
        raise ValueError(f"{where}: a string must be in double quotes")
    out: list[str] = []
    body = token[1:-1]
    i = 0
    while i < len(body):
        c = body[i]
        if c == "\\":
            if i + 1 >= len(body) or body[i + 1] not in _ESCAPES:
                raise ValueError(f"{where}: unknown escape in {token}")
            out.append(_ESCAPES[body[i + 1]])
            i += 2
            continue
        if c == '"':
            raise ValueError(f"{where}: a quote inside a string must be escaped")
        out.append(c)
        i += 1
    return "".join(out)


def read_po(text: str, lang: str, name: str = "") -> Catalogue:
    """Parse a ``.po`` file's text; every problem is named, with its line, in one :class:`ValueError`.

    The reader takes what laspoly's catalogues use: comments (``#, fuzzy`` marks a message
    that is not used), ``msgctxt``, ``msgid``, ``msgid_plural``, ``msgstr`` or ``msgstr[i]``,
    and strings continued on the lines after.
    """
    where = name or f"laspoly/locale/{lang}/LC_MESSAGES/{DOMAIN}.po"
    problems: list[str] = []
    entries: list[tuple[int, bool, dict[str, str]]] = []
    fields: dict[str, str] = {}
    last = ""
    start = 0
    fuzzy = False
    pending_fuzzy = False

    for n, raw in enumerate(text.splitlines(), 1):
        line = raw.strip()
        if not line:
            if fields:
                entries.append((start, fuzzy, fields))
            fields, fuzzy = {}, False
            continue
        if line.startswith("#"):
            if line.startswith("#,") and "fuzzy" in line[2:].replace(",", " ").split():
                pending_fuzzy = True
            continue
        try:
            if line.startswith('"'):
                if not last:
                    raise ValueError(f"{where}:{n}: a string continues nothing")
                fields[last] += _unquote(line, f"{where}:{n}")
                continue
            match = _TOKEN.match(line)
            if match is None:
                raise ValueError(f"{where}:{n}: expected msgctxt, msgid, msgid_plural or msgstr")
            keyword = match.group(1)
            if keyword in ("msgctxt", "msgid") and any(k.startswith("msgstr") for k in fields):
                entries.append((start, fuzzy, fields))
                fields, fuzzy = {}, False
            if not fields:
                start, fuzzy, pending_fuzzy = n, pending_fuzzy, False
            if keyword in fields:
                raise ValueError(f"{where}:{n}: {keyword} appears twice in one message")
            fields[keyword] = _unquote(match.group(3), f"{where}:{n}")
            last = keyword
        except ValueError as exc:
            problems.append(str(exc))
    if fields:
        entries.append((start, fuzzy, fields))

    header: dict[str, str] = {}
    messages: dict[tuple[str, str], Message] = {}
    order: list[tuple[str, str]] = []
    for line_no, is_fuzzy, entry in entries:
        key, context = entry.get("msgid"), entry.get("msgctxt", "")
        if key is None:
            problems.append(f"{where}:{line_no}: a message without msgid")
            continue
        plural = "msgid_plural" in entry
        forms: list[str] = []
        if plural:
            i = 0
            while f"msgstr[{i}]" in entry:
                forms.append(entry[f"msgstr[{i}]"])
                i += 1
            if not forms or "msgstr" in entry or len(forms) != sum(k.startswith("msgstr[") for k in entry):
                problems.append(f"{where}:{line_no}: {key!r} is plural: it needs msgstr[0], msgstr[1], ... and no plain msgstr")
                continue
        elif "msgstr" in entry and not any(k.startswith("msgstr[") for k in entry):
            forms.append(entry["msgstr"])
        else:
            problems.append(f"{where}:{line_no}: {key!r} needs one msgstr (msgstr[i] only with msgid_plural)")
            continue
        if key == "" and not context:
            header = dict(
                (name.strip(), value.strip()) for name, _, value in (h.partition(":") for h in forms[0].splitlines()) if name.strip()
            )
            continue
        if (key, context) in messages:
            problems.append(f"{where}:{line_no}: {key!r}" + (f" in context {context!r}" if context else "") + " appears twice")
        messages[(key, context)] = Message(key, context, plural, tuple(forms), line_no, is_fuzzy)
        order.append((key, context))
    if problems:
        raise ValueError("; ".join(problems))
    return Catalogue(lang, header, messages, tuple(order))


@cache
def catalogue(lang: str) -> Catalogue:
    """The parsed catalogue of ``lang``."""
    return read_po(po_file(lang).read_text(encoding="utf-8"), lang)


def mo_bytes(cat: Catalogue) -> bytes:
    """The catalogue in GNU gettext's binary ``.mo`` form (what ``msgfmt`` writes), without fuzzy or empty messages."""
    header = "".join(f"{k}: {v}\n" for k, v in cat.header.items())
    pairs: dict[bytes, bytes] = {b"": header.encode("utf-8")}
    for m in cat.messages.values():
        if m.fuzzy or not all(m.forms):
            continue
        msgid = (f"{m.context}\x04" if m.context else "") + m.key + (f"\x00{m.key}" if m.plural else "")
        pairs[msgid.encode("utf-8")] = "\x00".join(m.forms).encode("utf-8")
    keys = sorted(pairs)
    count = len(keys)
    table_start = 7 * 4
    data_start = table_start + 16 * count
    ids = b""
    strs = b""
    id_table: list[int] = []
    for k in keys:
        id_table += [len(k), data_start + len(ids)]
        ids += k + b"\x00"
    strs_start = data_start + len(ids)
    str_table: list[int] = []
    for k in keys:
        v = pairs[k]
        str_table += [len(v), strs_start + len(strs)]
        strs += v + b"\x00"
    head = struct.pack("<7I", 0x950412DE, 0, count, table_start, table_start + 8 * count, 0, 0)
    return head + struct.pack(f"<{4 * count}I", *id_table, *str_table) + ids + strs


@cache
def translations(lang: str) -> GNUTranslations:
    """The standard library's translations for ``lang`` (English for a language laspoly does not speak)."""
    lang = lang if lang in LANGS else "en"
    found = GNUTranslations(io.BytesIO(mo_bytes(catalogue(lang))))
    if lang != "en":
        found.add_fallback(translations("en"))
    return found


def message(key: str, preset: str | None = None) -> Message:
    """The English message of ``key``, ``preset``'s own if it has one; an unknown key raises :class:`KeyError`."""
    messages = catalogue("en").messages
    if preset:
        own = messages.get((key, preset))
        if own is not None:
            return own
    return messages[(key, "")]


def has(key: str) -> bool:
    """Whether the catalogues hold ``key``."""
    return (key, "") in catalogue("en").messages


def text(key: str, lang: str = "en", preset: str | None = None, **values: Any) -> str:
    """The message ``key`` in ``lang``, in ``preset``'s own words if it has them, filled with ``values``.

    A plural message takes its count from ``values["n"]``; :func:`plural` says so outright.
    """
    m = message(key, preset)
    if m.plural:
        if "n" not in values:
            raise TypeError(f"{key} is a plural message: give its count as n")
        return plural(key, values["n"], lang, preset, **values)
    t = translations(lang)
    found = t.pgettext(m.context, key) if m.context else t.gettext(key)
    return found.format(**values) if values else found


def plural(key: str, count: int | float, lang: str = "en", preset: str | None = None, **values: Any) -> str:
    """The form of the plural message ``key`` for ``count`` in ``lang``, filled with ``values`` (``{n}`` is the count).

    Pass ``n`` among the values to show the count another way ("1.5"); the form is still chosen
    by ``count``.  A fraction or infinity takes the form of a count other than one, as English
    and Spanish say "1.5 turns" and "0.5 turnos".  (``count`` is ``int | float``, not ``float``:
    compiled, a ``float`` parameter would turn 1 into 1.0 and the text would say "1.0 game".)
    """
    m = message(key, preset)
    if not m.plural:
        raise TypeError(f"{key} is not a plural message")
    n = plural_count(count)
    t = translations(lang)
    found = t.npgettext(m.context, key, key, n) if m.context else t.ngettext(key, key, n)
    return found.format(**{"n": count, **values})


def plural_count(count: int | float) -> int:
    """The whole number that chooses a plural form: a count as it is, a fraction or infinity as "many" (2)."""
    if isinstance(count, int):
        return count
    if math.isfinite(count) and count == int(count):
        return int(count)
    return 2


def placeholders(text: str) -> set[str]:
    """The names of the ``{placeholders}`` in a text."""
    return {name for _, name, _, _ in string.Formatter().parse(text) if name}


def nplurals(cat: Catalogue) -> int:
    """How many plural forms the catalogue's ``Plural-Forms`` header gives its language (0 when it has none)."""
    found = re.search(r"nplurals\s*=\s*(\d+)", cat.header.get("Plural-Forms", ""))
    return int(found.group(1)) if found else 0


def check(langs: tuple[str, ...] = LANGS) -> list[str]:
    """Every problem of the catalogues, as sentences a translator can act on; empty when all is well.

    Each catalogue parses, says it is UTF-8 and how many plural forms its language has; lists its
    messages sorted by key; holds every English key with the same context and plural-ness, no key
    English lacks, no fuzzy or empty text; and every text has the placeholders of the English one
    (a plural message's forms may leave out the count ``{n}``, as "your last try" does).
    """
    problems: list[str] = []
    cats: dict[str, Catalogue] = {}
    for lang in langs:
        where = f"laspoly/locale/{lang}/LC_MESSAGES/{DOMAIN}.po"
        try:
            cats[lang] = cat = read_po(po_file(lang).read_text(encoding="utf-8"), lang)
        except (OSError, ValueError) as exc:
            problems.append(f"{where}: {exc}")
            continue
        if "charset=UTF-8" not in cat.header.get("Content-Type", ""):
            problems.append(f"{where}: the header must say Content-Type: text/plain; charset=UTF-8")
        if nplurals(cat) < 1:
            problems.append(f"{where}: the header must give Plural-Forms: nplurals=...; plural=...;")
        if list(cat.order) != sorted(cat.order):
            problems.append(f"{where}: messages must be sorted by key (then context), so translators find them")
    english = cats.get("en")
    if english is None:
        return problems
    for lang, cat in cats.items():
        where = f"laspoly/locale/{lang}/LC_MESSAGES/{DOMAIN}.po"
        for (key, context), m in cat.messages.items():
            label = key + (f" (msgctxt {context})" if context else "")
            ref = english.messages.get((key, context))
            if ref is None:
                problems.append(f"{where}:{m.line}: {label} is not an English key")
                continue
            if m.plural != ref.plural:
                problems.append(f"{where}:{m.line}: {label} must {'' if ref.plural else 'not '}be plural, as in English")
                continue
            if m.plural and len(m.forms) != nplurals(cat):
                problems.append(f"{where}:{m.line}: {label} has {len(m.forms)} forms; Plural-Forms says {nplurals(cat)}")
            if m.fuzzy or not all(f.strip() for f in m.forms):
                problems.append(f"{where}:{m.line}: {label} is fuzzy or empty")
            want = set[str]().union(*[placeholders(f) for f in ref.forms])
            for form in m.forms:
                have = placeholders(form)
                if have - want or (want - have) - ({"n"} if m.plural else set()):
                    problems.append(f"{where}:{m.line}: {label} has placeholders {sorted(have)}; English has {sorted(want)}")
                    break
        for key, context in english.messages:
            if (key, context) not in cat.messages:
                problems.append(f"{where}: {key}" + (f" (msgctxt {context})" if context else "") + " is missing")
    return problems


def table() -> dict[str, dict[str, tuple[str, ...]]]:
    """Every message's forms in every language, by key (``key@preset`` for a preset's own words)."""
    out: dict[str, dict[str, tuple[str, ...]]] = {}
    for lang in LANGS:
        for (key, context), m in catalogue(lang).messages.items():
            out.setdefault(f"{key}@{context}" if context else key, {})[lang] = m.forms
    return out


_Error = TypeVar("_Error", bound=LaspolyError)


def worded_error(kind: type[_Error], key: str, /, **values: Any) -> _Error:
    """An error of ``kind`` in the catalogue's English words for ``key``, keeping the key and ``values`` so that a
    page in another language says it in its own (:func:`laspoly.ui.i18n.said`)."""
    return kind(text(key, "en", None, **values), key, **values)
