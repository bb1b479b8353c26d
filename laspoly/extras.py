"""The optional parts of laspoly, and one clear error when a command needs a part that is not installed.

``pip install laspoly`` installs the engine, the bots, the analysis and the command line: what ``laspoly play``,
``simulate``, ``markov`` and the other terminal commands need (numpy, pandas, tqdm).  The rest is an extra:

- ``app``: the dashboard (``laspoly serve``, ``apps/laspoly_app.py``, the lessons' inline dashboard): Panel, Bokeh,
  param and segno (the QR codes of the invite links);
- ``dask``: ``simulate --dask`` and ``tournament --dask`` (a Dask worker needs only the base install and this);
- ``postgres``: a room database at a ``postgresql://`` URL (psycopg);
- ``lab``: JupyterLab and nbconvert for the lessons, with the dashboard;
- ``test``: everything the test suite needs (app, dask and postgres included).

A command that needs a missing extra stops before any work with a :class:`MissingExtraError`, which the command
line prints as one line naming the ``pip install`` that adds it, never as a traceback.
"""

from __future__ import annotations

import importlib

from laspoly.errors import LaspolyError

#: The modules each extra provides, as they are imported.
EXTRAS: dict[str, tuple[str, ...]] = {
    "app": ("panel", "bokeh", "param", "segno"),
    "dask": ("dask.distributed",),
    "postgres": ("psycopg",),
}


class MissingExtraError(LaspolyError):
    """A feature was asked for whose optional dependencies are not installed."""


def install_hint(extra: str) -> str:
    """The command that installs ``extra``, as a person would type it."""
    return f"pip install 'laspoly[{extra}]'"


def require(extra: str, feature: str) -> None:
    """Import the modules of ``extra``, or raise :class:`MissingExtraError` saying that ``feature`` needs it.

    >>> require("app", "laspoly serve")  # doctest: +SKIP
    MissingExtraError: laspoly serve needs the 'app' extra (panel is not installed): pip install 'laspoly[app]'
    """
    for module in EXTRAS[extra]:
        try:
            importlib.import_module(module)
        except ImportError:
            raise MissingExtraError(missing_message(extra, feature, module)) from None


def missing_message(extra: str, feature: str, module: str) -> str:
    """The one line that says what is missing and how to add it."""
    return f"{feature} needs the '{extra}' extra ({module.split('.')[0]} is not installed): {install_hint(extra)}"
