"""CSV files for spreadsheets, safe from the names people type.

A spreadsheet reads a cell that starts with ``=``, ``+``, ``-``, ``@``, a tab or
a carriage return as a formula, so a player named ``=HYPERLINK(...)`` could run
one on the teacher's computer.  Such text cells get a leading apostrophe, which
spreadsheets show as plain text (OWASP's advice for CSV injection).  Numbers are
written as numbers.
"""

from __future__ import annotations

import csv
import io
from collections.abc import Iterable
from typing import Any

FORMULA_STARTS = ("=", "+", "-", "@", "\t", "\r")


def safe_cell(value: Any) -> Any:
    """A cell as written: text that a spreadsheet would read as a formula is quoted with an apostrophe."""
    if isinstance(value, str) and value.startswith(FORMULA_STARTS):
        return "'" + value
    return value


def write_csv(header: list[str], rows: Iterable[Iterable[Any]]) -> io.StringIO:
    """A CSV file in memory, rewound, with every text cell made safe."""
    out = io.StringIO()
    w = csv.writer(out)
    w.writerow(header)
    w.writerows([safe_cell(v) for v in row] for row in rows)
    out.seek(0)
    return out
