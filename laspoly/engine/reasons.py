"""Why an action is refused, in English or Spanish.

A :class:`Reason` is the English sentence itself (a ``str``), so every caller
that prints or compares it sees plain English, and it also carries the key of
its message in the catalogues (:mod:`laspoly.engine.words`) and the values that
fill it.  :func:`word` says the same reason in another language, naming players,
fields and money as the game's events do.  A message may have a preset's own
words (``msgctxt "sculptprice"``) where that rulebook has them, and a plural
message takes its count from the value ``n`` ("at most 1 house", "at most 4 houses").
"""

from __future__ import annotations

from typing import Any, Protocol

from laspoly.engine import words
from laspoly.engine.native import mypyc_attr
from laspoly.engine.words import LANGS, placeholders

__all__ = ["LANGS", "Namer", "Reason", "placeholders", "refusal", "word"]

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


def refusal(namer: Namer, key: str, **values: Any) -> Reason:
    """The reason ``key`` filled with ``values``: its English sentence, keeping the key and values."""
    return Reason(_fill(namer, key, values, "en", None), key, values)


def word(reason: str, namer: Namer, lang: str = "en", preset: str | None = None) -> str:
    """A reason in ``lang``, using ``preset``'s own words where it has them; a plain string is returned as it is."""
    if not isinstance(reason, Reason):
        return reason
    return _fill(namer, reason.key, reason.values, lang, preset)


def _fill(namer: Namer, key: str, values: dict[str, Any], lang: str, preset: str | None) -> str:
    return words.text(key, lang, preset, **{k: _name(namer, k, v, lang, preset) for k, v in values.items()})


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
