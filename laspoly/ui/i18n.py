"""The dashboard's words: the catalogues' messages (:mod:`laspoly.engine.words`), one ``.po`` file per language.

:func:`tr` looks a key up for a language and fills its ``{placeholders}``; a key
that is missing is a programming error and raises :class:`KeyError` at once.
Given a ``preset``, it takes that rulebook's own words where the catalogue has
them (a message with ``msgctxt "sculptprice"``: Actualizaciones and BOTE).
:func:`trn` says a count: "1 game", "2 games", with the language's plural rule.

The engine's event sentences, refusal reasons and actions' words are messages of
the same catalogues and are worded by the engine itself (:meth:`Game.describe`,
:meth:`Game.explain`, :meth:`Game.describe_action`, which :meth:`GameModel.describe` asks).
"""

from __future__ import annotations

from functools import cache
from typing import Any

from laspoly.engine import words
from laspoly.engine.words import LANGS, placeholders
from laspoly.errors import LaspolyError

__all__ = ["LANGS", "catalogue", "tr", "trn"]


@cache
def catalogue() -> dict[str, dict[str, str]]:
    """Every message that is not plural as ``{key: {"en": text, "es": text}}`` (``key@preset`` for a preset's own words)."""
    return {key: {lang: forms[0] for lang, forms in texts.items()}
            for key, texts in words.table().items() if not words.message(*key.split("@", 1)).plural}


_fields = placeholders  # the placeholder names of a text (the catalogue's tests check them)


def tr(key: str, lang: str = "en", preset: str | None = None, **values: Any) -> str:
    """The text of ``key`` in ``lang`` (English for an unknown language), in ``preset``'s words if it has its own, filled with ``values``."""
    return words.text(key, lang, preset, **values)


def trn(key: str, count: int | float, lang: str = "en", preset: str | None = None, **values: Any) -> str:
    """The plural message ``key`` for ``count`` in ``lang``: "1 game", "2 games"; ``{n}`` is the count unless ``values`` give ``n``."""
    return words.plural(key, count, lang, preset, **values)


def said(error: BaseException, lang: str = "en") -> str:
    """An error as a person reads it in ``lang``: in the catalogue's words where it names them (its ``key``), else its
    English message; an error among its values is said the same way."""
    if not isinstance(error, LaspolyError) or not error.key:
        return str(error)
    values = {k: said(v, lang) if isinstance(v, BaseException) else v for k, v in error.values.items()}
    return tr(error.key, lang, **values)
