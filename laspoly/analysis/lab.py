"""The dashboard's lab off the server's loop: one pool of worker processes for the whole server, shared fairly.

A lab run ("play N games of these bots") is split into chunks of at most
:data:`CHUNK_MAX` games.  Every page (an *owner*: any hashable key) queues its
chunks in one :class:`FairQueue`, and :class:`LabPool` hands them to at most
``workers`` processes, one chunk per process at a time, taking next the chunk
of the page that has had the fewest games played since it queued.  So a page
that asks for 5,000 games cannot hold back a page that asks for 100, however
many chunks it queued first, and no page waits behind more than one chunk per
worker before its own first chunk starts.

The workers play :func:`laspoly.analysis.simulate.play_many`, the same
function ``laspoly simulate`` hands its processes, in processes started fresh
(``spawn``): a worker imports the engine, the bots and this package, never the
dashboard, and holds nothing of the server (no copy of its threads, locks or
pages).  Each chunk done reports back (``on_update``), which is what moves a
page's progress bar.

Cancelling a page's run (its page closed, or it started another run) drops its
queued chunks at once; a chunk already in a worker plays to its end, at most
:data:`CHUNK_MAX` games, and its games are thrown away.  The pool shuts down
with the process: :func:`shared_pool` registers :meth:`LabPool.shutdown` to run
at exit, which drops every queued chunk and waits only for the chunks running.

Nothing here imports Panel; the pool is plain threads and processes, and
``on_update`` is called from the pool's own thread.
"""

from __future__ import annotations

import atexit
import logging
import math
import multiprocessing
import os
import signal
import threading
import time
from collections import deque
from collections.abc import Callable, Hashable, Sequence
from concurrent.futures import Executor, Future, ProcessPoolExecutor
from concurrent.futures.process import BrokenProcessPool
from dataclasses import dataclass, field
from typing import Any, Generic, TypeVar

from laspoly.analysis.simulate import GameRecord, Spec, play_many
from laspoly.bots.registry import TEMPERAMENTS, canonical_bot
from laspoly.engine.state import MAX_PLAYERS
from laspoly.errors import LaspolyError

#: The fewest and the most games one lab run may play, checked on the server whatever the page sends.
LAB_MIN_GAMES, LAB_MAX_GAMES = 4, 5_000
#: The most games in one chunk: twenty games of the default bots take a worker about a quarter of a second on a
#: pure-Python build, which bounds how long a new run waits for a worker and how long a cancelled chunk runs on.
CHUNK_MAX = 20
#: A run is cut into about this many chunks when it is small, so its progress bar moves in steps of about 5%.
PROGRESS_STEPS = 20

log = logging.getLogger("laspoly.lab")

T = TypeVar("T")


class LabRequestError(LaspolyError):
    """A lab run the server will not play: too many or too few games, unknown bots, too many seats."""


def check_lab_request(games: Any, bots: Sequence[Any]) -> tuple[int, tuple[str, ...]]:
    """The number of games and the bots of a lab run, checked as the page's widgets would; raises :class:`LabRequestError`.

    The page's game box stops at :data:`LAB_MAX_GAMES`, but a page's
    JavaScript can send any value, so the server checks again.
    """
    if isinstance(games, bool) or not isinstance(games, int) or not LAB_MIN_GAMES <= games <= LAB_MAX_GAMES:
        raise LabRequestError(f"the lab plays {LAB_MIN_GAMES} to {LAB_MAX_GAMES} games at a time, not {games!r:.40}")
    names = tuple(canonical_bot(b) if isinstance(b, str) else b for b in bots)
    unknown = [b for b in names if not isinstance(b, str) or b not in TEMPERAMENTS]
    if unknown:
        raise LabRequestError(f"unknown bots for the lab: {', '.join(repr(b)[:40] for b in unknown[:3])}")
    if not 2 <= len(names) <= MAX_PLAYERS:
        raise LabRequestError(f"the lab seats 2 to {MAX_PLAYERS} bots, not {len(names)}")
    return games, names


def lab_chunks(games: int) -> list[range]:
    """The chunks a run of ``games`` games is played in: about :data:`PROGRESS_STEPS` of them, of at most :data:`CHUNK_MAX`."""
    size = max(1, min(CHUNK_MAX, math.ceil(games / PROGRESS_STEPS)))
    return [range(start, min(games, start + size)) for start in range(0, games, size)]


def lab_workers() -> int:
    """Worker processes for the lab: one core is left to the server's own loop (at most ``cores - 1``, at least 1)."""
    try:
        cores = len(os.sched_getaffinity(0))  # the cores this process may run on (a container may allow fewer)
    except AttributeError:  # not on every platform
        cores = os.cpu_count() or 1
    return max(1, cores - 1)


class FairQueue(Generic[T]):
    """Items queued per owner and served fairly: next comes the owner that has had the least cost served.

    Each item has a cost (a chunk's games).  An owner's count of cost served
    starts, when it queues its first item, level with the least-served owner
    already waiting (or at zero), so it is neither owed for the time it queued
    nothing nor put behind everyone else's backlog.  Between owners that are
    level, the one that has waited longest since it was last served goes
    first, and a newcomer before them all: a new page's first chunk is the next
    one out.  An owner whose queue empties is forgotten.  Pure Python and not
    thread-safe: :class:`LabPool` holds its lock around it.
    """

    def __init__(self) -> None:
        self._items: dict[Hashable, deque[tuple[T, int]]] = {}
        self._served: dict[Hashable, int] = {}
        self._last: dict[Hashable, int] = {}  # the turn each owner was last served in; -1 for a newcomer
        self._turn = 0

    def put(self, owner: Hashable, item: T, cost: int = 1) -> None:
        """Queue ``item`` for ``owner`` behind its earlier items."""
        if owner not in self._items:
            self._served[owner] = min(self._served.values(), default=0)
            self._last[owner] = -1
            self._items[owner] = deque()
        self._items[owner].append((item, max(0, cost)))

    def pop(self) -> tuple[Hashable, T] | None:
        """The owner to serve next and its oldest item, or None when nothing is queued."""
        if not self._items:
            return None
        owner = min(self._items, key=lambda o: (self._served[o], self._last[o]))
        queue = self._items[owner]
        item, cost = queue.popleft()
        self._served[owner] += cost
        self._last[owner] = self._turn
        self._turn += 1
        if not queue:
            del self._items[owner], self._served[owner], self._last[owner]
        return owner, item

    def drop(self, owner: Hashable) -> list[T]:
        """Take every item ``owner`` still has queued out of the queue, and forget the owner."""
        self._served.pop(owner, None)
        self._last.pop(owner, None)
        return [item for item, _ in self._items.pop(owner, ())]

    def queued(self, owner: Hashable) -> int:
        """How many items ``owner`` has queued."""
        return len(self._items.get(owner, ()))

    def owners(self) -> list[Hashable]:
        """The owners with items queued, in the order they came."""
        return list(self._items)

    def __len__(self) -> int:
        return sum(len(q) for q in self._items.values())


@dataclass(eq=False)
class LabRun:
    """One page's lab run: how far it has got, and its games once it is finished.

    ``records`` fills chunk by chunk, in the order chunks finish, and is sorted
    by game index when the run is finished.  A run finishes in one of three
    ways: all its games played, ``cancelled``, or an ``error`` in a worker.
    """

    owner: Hashable
    spec: Spec
    games: int
    on_update: Callable[[LabRun], None] | None = None
    records: list[GameRecord] = field(default_factory=list)
    error: BaseException | None = None
    cancelled: bool = False
    finished: bool = False

    @property
    def done(self) -> int:
        """Games played so far."""
        return len(self.records)

    def _tell(self) -> None:
        if self.on_update is not None:
            try:
                self.on_update(self)
            except Exception:  # a page's listener must not stop the pool serving the others
                log.exception("a lab run's listener failed")


@dataclass(eq=False)
class _Chunk:
    run: LabRun
    indices: range


#: How often a worker looks whether the server that started it is still there (seconds).
PARENT_CHECK_S = 0.5


def _worker_start(parent: int) -> None:
    """Run in each worker as it starts.

    Ctrl+C at the server's terminal is the server's to handle, not the
    worker's.  A server that is killed (SIGTERM, SIGKILL) runs no clean-up, and
    its workers would wait for chunks for ever: each worker watches its parent,
    and ends within :data:`PARENT_CHECK_S` of it, even in the middle of a chunk.
    """
    signal.signal(signal.SIGINT, signal.SIG_IGN)

    def watch() -> None:
        while os.getppid() == parent:
            time.sleep(PARENT_CHECK_S)
        os._exit(0)

    threading.Thread(target=watch, name="laspoly-lab-parent", daemon=True).start()


def worker_processes(workers: int) -> Executor:
    """The lab's worker processes started fresh (``spawn``), not forked from a server with threads, pages and locks in it."""
    return ProcessPoolExecutor(max_workers=workers, mp_context=multiprocessing.get_context("spawn"),
                               initializer=_worker_start, initargs=(os.getpid(),))


class LabPool:
    """Lab runs of many pages played on ``workers`` processes, one chunk per process at a time, queued fairly.

    The executor is made on the first run (so a server nobody runs a lab on
    starts no process) and made again after a worker died (the runs that had a
    chunk in it fail; later runs are played).  ``work`` is the function a
    chunk runs, ``work(spec, indices) -> list[GameRecord]``; ``executor``
    makes the executor from the number of workers.  Both are there for tests.
    Thread-safe: pages call :meth:`start` and :meth:`cancel` from the server's
    loop, and chunks finish on the executor's thread.
    """

    def __init__(self, workers: int | None = None, *, work: Callable[[Spec, Sequence[int]], list[Any]] = play_many,
                 executor: Callable[[int], Executor] = worker_processes) -> None:
        self.workers = workers if workers is not None else lab_workers()
        if self.workers < 1:
            raise ValueError("the lab needs at least one worker")
        self._work = work
        self._make_executor = executor
        self._executor: Executor | None = None
        self._queue: FairQueue[_Chunk] = FairQueue()
        self._running: dict[Future[Any], _Chunk] = {}
        self._runs: dict[Hashable, LabRun] = {}
        self._lock = threading.RLock()  # re-entered when a chunk finishes while it is being handed out
        self.closed = False

    # ------------------------------------------------------------ what pages call

    def start(self, owner: Hashable, spec: Spec, games: int,
              on_update: Callable[[LabRun], None] | None = None) -> LabRun:
        """Queue a run of ``games`` games of ``spec`` for ``owner``, replacing any run it has not finished.

        ``on_update(run)`` is called, from the pool's thread and with its lock
        held, after each chunk and once more when the run finishes: it should
        only pass the news on (``loop.call_soon_threadsafe``), never call the
        pool.  The games are checked by the caller (:func:`check_lab_request`).
        """
        if games < 1:
            raise LabRequestError("a lab run plays at least one game")
        with self._lock:
            if self.closed:
                raise RuntimeError("the lab's pool has shut down")
            self.cancel(owner)
            run = LabRun(owner, spec, games, on_update)
            self._runs[owner] = run
            for indices in lab_chunks(games):
                self._queue.put(owner, _Chunk(run, indices), cost=len(indices))
            self._dispatch()
        return run

    def cancel(self, owner: Hashable) -> bool:
        """Stop ``owner``'s run: its queued chunks are dropped, a running chunk's games discarded.  False if it had none."""
        with self._lock:
            run = self._runs.pop(owner, None)
            self._queue.drop(owner)
            if run is None or run.finished:
                return False
            run.cancelled = True
            self._finish(run)
            return True

    def status(self) -> dict[str, Any]:
        """What the pool holds now: workers, chunks queued and running, and the owners with a run unfinished."""
        with self._lock:
            return {"workers": self.workers, "queued": len(self._queue), "running": len(self._running),
                    "owners": len(self._runs)}

    def shutdown(self, wait: bool = True) -> None:
        """Cancel every run and stop the workers (``wait``: for the chunks they are playing, at most one each)."""
        with self._lock:
            self.closed = True
            for owner in list(self._runs):
                self.cancel(owner)
            executor, self._executor = self._executor, None
        if executor is not None:
            executor.shutdown(wait=wait, cancel_futures=True)

    # ------------------------------------------------------------ inside

    def _finish(self, run: LabRun) -> None:
        """Mark ``run`` finished and tell its page (called with the lock held)."""
        if self._runs.get(run.owner) is run:
            del self._runs[run.owner]
            self._queue.drop(run.owner)
        run.finished = True
        if not run.cancelled and run.error is None:
            run.records.sort(key=lambda r: r.index)
        run._tell()

    def _dispatch(self) -> None:
        """Hand queued chunks to free workers, fairest first (called with the lock held)."""
        while not self.closed and len(self._running) < self.workers:
            popped = self._queue.pop()
            if popped is None:
                return
            chunk = popped[1]
            if chunk.run.finished:
                continue
            try:
                future = self._submit(chunk)
            except RuntimeError as exc:  # the interpreter is exiting: nothing more can start
                log.info("the lab's pool stopped: %s", exc)
                self.closed = True
                for owner in list(self._runs):
                    self.cancel(owner)
                return
            self._running[future] = chunk
            future.add_done_callback(self._chunk_done)

    def _submit(self, chunk: _Chunk) -> Future[Any]:
        """Give ``chunk`` to the executor, made afresh if there is none or a worker of the last one died."""
        for attempt in (1, 2):
            if self._executor is None:
                self._executor = self._make_executor(self.workers)
            try:
                return self._executor.submit(self._work, chunk.run.spec, list(chunk.indices))
            except BrokenProcessPool:  # a worker died since the last chunk (BrokenProcessPool is a RuntimeError)
                self._executor = None
                if attempt == 2:
                    raise RuntimeError("the lab's worker processes could not be started") from None
        raise AssertionError("unreachable")

    def _chunk_done(self, future: Future[Any]) -> None:
        """A chunk came back from its worker: add its games to its run, and start the next chunk."""
        with self._lock:
            chunk = self._running.pop(future, None)
            if chunk is None:
                return
            run = chunk.run
            error = None if future.cancelled() else future.exception()
            if isinstance(error, BrokenProcessPool):
                self._executor = None  # the next chunk starts new workers
            if not run.finished:
                if future.cancelled():
                    run.cancelled = True
                    self._finish(run)
                elif error is not None:
                    run.error = error
                    self._finish(run)
                else:
                    run.records += future.result()
                    if run.done >= run.games:
                        self._finish(run)
                    else:
                        run._tell()
            self._dispatch()


_shared: list[LabPool] = []
_shared_lock = threading.Lock()


def shared_pool() -> LabPool:
    """The process's one lab pool (made on first use, shut down when the process exits)."""
    with _shared_lock:
        if not _shared or _shared[0].closed:
            pool = LabPool()
            if not _shared:
                atexit.register(_shutdown_shared)
            _shared[:] = [pool]
        return _shared[0]


def _shutdown_shared() -> None:
    with _shared_lock:
        pools = list(_shared)
    for pool in pools:
        pool.shutdown(wait=True)
