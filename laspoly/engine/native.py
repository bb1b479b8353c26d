"""What the optional compiled build (mypyc) needs to be told (:mod:`~laspoly.engine.compiled` says which build runs).

The engine, rules and bots are plain Python, and ``make compiled`` can also build them into C extension
modules with mypyc from the same source (see ``setup.py``).  A compiled class is closed to Python subclasses
and to new attributes unless it says otherwise; :func:`mypyc_attr` says so where laspoly needs it.  When the
source runs as plain Python the decorator does nothing, and nothing beyond the standard library is imported:
the type checker and mypyc read ``mypy_extensions.mypyc_attr``, the interpreter an identity function.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from mypy_extensions import mypyc_attr as mypyc_attr
else:

    def mypyc_attr(*args: Any, **kwargs: Any) -> Any:
        """Leave the class as it is: the options are for the compiler only."""
        return lambda cls: cls

