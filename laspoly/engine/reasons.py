"""Why an action is refused, in English or Spanish.

A :class:`Reason` is the English sentence itself (a ``str``), so every caller
that prints or compares it sees plain English, and it also carries the key of
its row in ``laspoly/data/i18n/reasons.tsv`` and the values that fill it.
:func:`word` says the same reason in another language, naming players, fields
and money as the game's events do.  A row may have a variant for one preset
(``key@sculptprice``) where that rulebook has words of its own.

The catalogue's format (a key and one text per language, tab-separated, sorted by
key, the same ``{placeholders}`` in every language) is shared with the
dashboard's catalogue, which reads it with :func:`read_catalogue`.
"""

from __future__ import annotations

import string
from functools import cache
from importlib.resources import files
from typing import Any, Protocol

from laspoly.engine.native import mypyc_attr

LANGS = ("en", "es")

#: Placeholders named like this hold a player's index, a field's index, or an amount of money.
PLAYER_VALUES = ("who",)
FIELD_VALUES = ("field",)
MONEY_VALUES = ("amount", "cash", "cost", "fare", "fine")


class Namer(Protocol):
    """What a game offers to put names into a reason (a subset of the events' namer)."""

    def party_name(self, who: int, lang: str) -> str: ...
    def field_name(self, index: int, lang: str) -> str: ...
    def money(self, amount: int) -> str: ...


@mypyc_attr(native_class=False)  # a compiled class cannot subclass str
class Reason(str):
    """A refusal: the English sentence, with the key and values to word it in another language."""

    key: str
    values: dict[str, Any]

    def __new__(cls, text: str, key: str, values: dict[str, Any]) -> Reason:
        """Make the reason; ``text`` is its English sentence."""
        self = str.__new__(cls, text)
        self.key, self.values = key, values
        return self


def read_catalogue(name: str) -> dict[str, dict[str, str]]:
    """The checked catalogue ``laspoly/data/i18n/<name>`` as ``{key: {lang: text}}``; every problem is named in one error."""
    raw = files("laspoly.data").joinpath("i18n", name).read_text(encoding="utf-8")
    catalogue: dict[str, dict[str, str]] = {}
    problems: list[str] = []
    last = ""
    for n, line in enumerate(raw.splitlines(), 1):
        if not line.strip() or line.startswith("#"):
            continue
        cells = line.split("\t")
        if len(cells) != 1 + len(LANGS) or not all(c.strip() for c in cells):
            problems.append(f"line {n}: a key and {len(LANGS)} texts separated by tabs")
            continue
        key, *texts = cells
        if key in catalogue:
            problems.append(f"line {n}: {key!r} appears twice")
        if key < last:
            problems.append(f"line {n}: {key!r} is out of order (rows are sorted by key)")
        last = key
        if len({frozenset(placeholders(t)) for t in texts}) != 1:
            problems.append(f"line {n}: {key!r} has different placeholders in its languages")
        catalogue[key] = dict(zip(LANGS, (t.replace("\\n", "\n") for t in texts), strict=True))
    if problems:
        raise ValueError(f"laspoly/data/i18n/{name}: " + "; ".join(problems))
    return catalogue


def placeholders(text: str) -> set[str]:
    """The names of the ``{placeholders}`` in a text."""
    return {name for _, name, _, _ in string.Formatter().parse(text) if name}


@cache
def reasons() -> dict[str, dict[str, str]]:
    """The engine's refusal reasons in every language."""
    return read_catalogue("reasons.tsv")


def refusal(namer: Namer, key: str, **values: Any) -> Reason:
    """The reason ``key`` filled with ``values``: its English sentence, keeping the key and values."""
    return Reason(_fill(namer, key, values, "en", None), key, values)


def word(reason: str, namer: Namer, lang: str = "en", preset: str | None = None) -> str:
    """A reason in ``lang``, using ``preset``'s own words where it has them; a plain string is returned as it is."""
    if not isinstance(reason, Reason):
        return reason
    return _fill(namer, reason.key, reason.values, lang, preset)


def _fill(namer: Namer, key: str, values: dict[str, Any], lang: str, preset: str | None) -> str:
    table = reasons()
    row = table.get(f"{key}@{preset}") or table[key]
    return (row.get(lang) or row["en"]).format(**{k: _name(namer, k, v, lang, preset) for k, v in values.items()})


def _name(namer: Namer, kind: str, value: Any, lang: str, preset: str | None) -> Any:
    """A value as it reads in a sentence: names for players and fields, money with its currency, reasons worded."""
    if isinstance(value, Reason):
        return word(value, namer, lang, preset)
    if not isinstance(value, int):
        return value
    if kind in PLAYER_VALUES:
        return namer.party_name(value, lang)
    if kind in FIELD_VALUES:
        return namer.field_name(value, lang)
    if kind in MONEY_VALUES:
        return namer.money(value)
    return value
