"""A dashboard in a notebook: the kernel's standard output survives comm messages whose handlers overlap.

In a notebook every message from a Panel view (a click, a key) is handled inside ``pyviz_comms``'
``StandardOutput``, which swaps ``sys.stdout`` for a ``StringIO`` on entry and puts back on exit what it found on
entry.  That is right for one handler at a time, not for two that overlap: A saves the kernel's stream and swaps in
its buffer, B saves A's buffer and swaps in its own, A exits and restores the kernel's stream, B exits and
"restores" A's buffer.  From then on ``print`` writes into a buffer nobody reads, and a lesson's self-checks go
silent until the kernel restarts.  Handlers overlap when messages are dispatched while a cell runs or on a kernel
subshell; two dashboards whose shortcuts both answer one key press send two at once.

:func:`guard_comm_stdout` replaces that context manager with one that counts the handlers inside it and puts the
kernel's own stream back when the last one leaves, in whatever order they leave.
"""

from __future__ import annotations

import sys
import threading
from io import StringIO
from typing import Any, ClassVar, TextIO


class OverlapSafeStandardOutput(list[str]):
    """Capture a comm handler's output as ``pyviz_comms.StandardOutput`` does, safe when handlers overlap."""

    _lock: ClassVar[threading.Lock] = threading.Lock()
    _depth: ClassVar[int] = 0
    _kernel_stream: ClassVar[TextIO | None] = None

    def __enter__(self) -> OverlapSafeStandardOutput:
        cls = type(self)
        with cls._lock:
            if cls._depth == 0:
                cls._kernel_stream = sys.stdout
            cls._depth += 1
            self._stringio = StringIO()
            sys.stdout = self._stringio
        return self

    def __exit__(self, *exc: Any) -> None:
        cls = type(self)
        with cls._lock:
            self.extend(self._stringio.getvalue().splitlines())
            cls._depth -= 1
            if cls._depth == 0:
                sys.stdout = cls._kernel_stream  # type: ignore[assignment]
                cls._kernel_stream = None
            elif sys.stdout is self._stringio:
                # another handler is still inside: its later prints reach the kernel's stream, not a dead buffer
                sys.stdout = cls._kernel_stream  # type: ignore[assignment]


def guard_comm_stdout() -> None:
    """Make ``pyviz_comms`` capture comm handlers' output with :class:`OverlapSafeStandardOutput` (idempotent)."""
    try:
        import pyviz_comms
    except ImportError:  # pragma: no cover - Panel depends on it
        return
    if getattr(pyviz_comms, "StandardOutput", None) is not OverlapSafeStandardOutput:
        pyviz_comms.StandardOutput = OverlapSafeStandardOutput
