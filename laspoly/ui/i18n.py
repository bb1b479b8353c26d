"""The dashboard's words, in one table a translator can edit: ``laspoly/data/i18n/ui.tsv``.

Each row is a key, its English text and its Spanish text, separated by tabs and
kept sorted by key.  Texts may hold ``{name}`` placeholders, which must be the
same in both languages.  :func:`tr` looks a key up for a language and fills the
placeholders; a key that is missing is a programming error and raises at once,
and the table is checked when it is first read (every key once, both languages,
matching placeholders).
"""

from __future__ import annotations

import string
from functools import cache
from importlib.resources import files
from typing import Any

LANGS = ("en", "es")


@cache
def catalogue() -> dict[str, dict[str, str]]:
    """The table as ``{key: {"en": text, "es": text}}``, checked."""
    raw = files("laspoly.data").joinpath("i18n/ui.tsv").read_text(encoding="utf-8")
    table: dict[str, dict[str, str]] = {}
    problems: list[str] = []
    for n, line in enumerate(raw.splitlines(), 1):
        if not line.strip() or line.startswith("#"):
            continue
        cells = line.split("\t")
        if len(cells) != 1 + len(LANGS) or not all(c.strip() for c in cells):
            problems.append(f"line {n}: a key and {len(LANGS)} texts separated by tabs")
            continue
        key, *texts = cells
        if key in table:
            problems.append(f"line {n}: {key!r} appears twice")
        if len({frozenset(_fields(t)) for t in texts}) != 1:
            problems.append(f"line {n}: {key!r} has different placeholders in its languages")
        table[key] = dict(zip(LANGS, (t.replace("\\n", "\n") for t in texts), strict=True))
    if problems:
        raise ValueError("laspoly/data/i18n/ui.tsv: " + "; ".join(problems))
    return table


def _fields(text: str) -> set[str]:
    return {name for _, name, _, _ in string.Formatter().parse(text) if name}


def tr(key: str, lang: str = "en", **values: Any) -> str:
    """The text of ``key`` in ``lang`` (English for an unknown language), with ``values`` filled in."""
    text = catalogue()[key].get(lang) or catalogue()[key]["en"]
    return text.format(**values) if values else text
