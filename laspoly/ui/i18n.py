"""The dashboard's words, in one table a translator can edit: ``laspoly/data/i18n/ui.tsv``.

Each row is a key, its English text and its Spanish text, separated by tabs and
kept sorted by key.  Texts may hold ``{name}`` placeholders, which must be the
same in both languages.  :func:`tr` looks a key up for a language and fills the
placeholders; a key that is missing is a programming error and raises at once,
and the table is checked when it is first read (every key once, both languages,
matching placeholders, sorted).  A row ``key@preset`` holds a rulebook's own
words for one preset (Sculptprice's Actualizaciones and BOTE), used by
:func:`tr` when it is given that ``preset``.

The engine's refusal reasons live in the same format in ``reasons.tsv`` and are
worded by the engine itself (:meth:`Game.explain`), as are the actions' words in
``actions.tsv`` (:meth:`Game.describe_action`, which :meth:`GameModel.describe` asks).
"""

from __future__ import annotations

from functools import cache
from typing import Any

from laspoly.engine.reasons import LANGS, placeholders, read_catalogue

__all__ = ["LANGS", "catalogue", "tr"]


@cache
def catalogue() -> dict[str, dict[str, str]]:
    """The table as ``{key: {"en": text, "es": text}}``, checked."""
    return read_catalogue("ui.tsv")


_fields = placeholders  # the placeholder names of a text (the catalogue's tests check them)


def tr(key: str, lang: str = "en", preset: str | None = None, **values: Any) -> str:
    """The text of ``key`` in ``lang`` (English for an unknown language), in ``preset``'s words if it has its own, filled with ``values``."""
    table = catalogue()
    row = table.get(f"{key}@{preset}") if preset else None
    row = row or table[key]
    text = row.get(lang) or row["en"]
    return text.format(**values) if values else text
