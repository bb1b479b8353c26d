"""A dashboard in a notebook: the kernel's standard output survives comm messages whose handlers overlap.

In a notebook every message from a Panel view (a click, a key) is handled inside ``pyviz_comms``'
``StandardOutput``, which swaps ``sys.stdout`` for a ``StringIO`` on entry and puts back on exit what it found on
entry.  That is right for one handler at a time, not for two that overlap: A saves the kernel's stream and swaps in
its buffer, B saves A's buffer and swaps in its own, A exits and restores the kernel's stream, B exits and
"restores" A's buffer.  From then on ``print`` writes into a buffer nobody reads, and a lesson's self-checks go
silent until the kernel restarts.  Handlers overlap each other, and a running cell, because ipykernel dispatches
comm messages while a cell runs and on kernel subshells; two dashboards that both answer one key press send two.

:func:`guard_comm_stdout` replaces that context manager with one that routes output by context: while any handler
is inside, ``sys.stdout`` is a router that writes a handler's own prints (its thread or asyncio task) into that
handler's buffer and everything else, a cell's prints too, to the kernel's stream; the last handler to leave puts
the kernel's stream back, in whatever order they leave.
"""

from __future__ import annotations

import io
import sys
import threading
from contextvars import ContextVar
from typing import Any, ClassVar, TextIO

#: the buffer of the comm handler running in this thread or task, if any
_HANDLER_BUFFER: ContextVar[io.StringIO | None] = ContextVar("laspoly_comm_stdout", default=None)


class _Router(io.TextIOBase):
    """``sys.stdout`` while comm handlers run: a handler's writes to its buffer, all others to the kernel's stream."""

    def __init__(self, kernel: TextIO) -> None:
        super().__init__()
        self.kernel = kernel

    def _target(self) -> Any:
        buffer = _HANDLER_BUFFER.get()
        return self.kernel if buffer is None else buffer

    def write(self, text: str) -> int:
        return int(self._target().write(text) or len(text))

    def flush(self) -> None:
        self._target().flush()

    def writable(self) -> bool:
        return True

    @property
    def encoding(self) -> str:  # type: ignore[override]
        return str(getattr(self.kernel, "encoding", "utf-8"))

    def __getattr__(self, name: str) -> Any:
        return getattr(self.kernel, name)


class OverlapSafeStandardOutput(list[str]):
    """Capture a comm handler's output as ``pyviz_comms.StandardOutput`` does, safe when handlers overlap."""

    _lock: ClassVar[threading.Lock] = threading.Lock()
    _depth: ClassVar[int] = 0
    _kernel_stream: ClassVar[TextIO | None] = None
    _router: ClassVar[_Router | None] = None
    #: the buffers of the handlers inside now (by id)
    _open: ClassVar[set[int]] = set()

    def __enter__(self) -> OverlapSafeStandardOutput:
        cls = type(self)
        self._stringio = io.StringIO()
        with cls._lock:
            if cls._depth == 0:
                cls._kernel_stream = sys.stdout
                cls._router = _Router(sys.stdout)
                sys.stdout = cls._router
            cls._depth += 1
            cls._open.add(id(self._stringio))
        self._outer = _HANDLER_BUFFER.get()
        _HANDLER_BUFFER.set(self._stringio)
        return self

    def __exit__(self, *exc: Any) -> None:
        cls = type(self)
        with cls._lock:
            cls._open.discard(id(self._stringio))
            # back to the handler this one ran inside, if that is still running; never to a buffer already closed
            current = _HANDLER_BUFFER.get()
            if current is self._stringio or (current is not None and id(current) not in cls._open):
                outer = self._outer
                _HANDLER_BUFFER.set(outer if outer is not None and id(outer) in cls._open else None)
            cls._depth -= 1
            if cls._depth == 0:
                if sys.stdout is cls._router:  # a stream someone installed since is theirs to put back
                    sys.stdout = cls._kernel_stream  # type: ignore[assignment]
                cls._kernel_stream = cls._router = None
        self.extend(self._stringio.getvalue().splitlines())


def guard_comm_stdout() -> None:
    """Make ``pyviz_comms`` capture comm handlers' output with :class:`OverlapSafeStandardOutput` (idempotent)."""
    try:
        import pyviz_comms
    except ImportError:  # pragma: no cover - Panel depends on it
        return
    if getattr(pyviz_comms, "StandardOutput", None) is not OverlapSafeStandardOutput:
        pyviz_comms.StandardOutput = OverlapSafeStandardOutput
