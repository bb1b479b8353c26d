"""The dashboard's lab off the server's loop: a fair queue, a bounded pool of worker processes, checks on the
server, and a closed page's lab cancelled.

The queue and the pool's scheduling are tested with a hand-driven executor (no
process, no Panel, no waiting); one test plays real games in a real worker
process; one serves the dashboard in a fresh process and drives two sessions.
"""

from __future__ import annotations

import json
import subprocess
import sys
import threading
from collections.abc import Callable, Sequence
from concurrent.futures import Executor, Future
from pathlib import Path
from typing import Any

import pytest

from laspoly.analysis import lab
from laspoly.analysis.lab import (
    LAB_MAX_GAMES,
    LAB_MIN_GAMES,
    FairQueue,
    LabPool,
    LabRequestError,
    check_lab_request,
    lab_chunks,
    lab_workers,
)
from laspoly.analysis.simulate import Spec, play_many

SPEC = Spec("laspoly", {}, ("greedy", "cautious"), seed=3, rotate=True)
OTHER = Spec("laspoly", {}, ("basic", "greedy"), seed=4, rotate=True)


# ---------------------------------------------------------------- the fair queue (pure Python)


def _drain(queue: FairQueue[str]) -> list[str]:
    out = []
    while (popped := queue.pop()) is not None:
        out.append(popped[1])
    return out


def test_owners_with_equal_chunks_are_served_in_turn() -> None:
    queue: FairQueue[str] = FairQueue()
    for k in range(3):
        queue.put("a", f"a{k}", 20)
    for k in range(3):
        queue.put("b", f"b{k}", 20)
    assert _drain(queue) == ["a0", "b0", "a1", "b1", "a2", "b2"]
    assert len(queue) == 0 and queue.owners() == []


def test_a_page_that_queued_a_long_run_first_does_not_hold_back_a_short_one() -> None:
    """Fair by games played, not by chunks: a 100-game run of 5-game chunks is not put behind 5,000 games."""
    queue: FairQueue[str] = FairQueue()
    for k in range(250):
        queue.put("long", f"L{k}", 20)
    assert queue.pop() == ("long", "L0")  # the long run has a chunk in a worker when the short one arrives
    for k in range(20):
        queue.put("short", f"S{k}", 5)
    order = [queue.pop() for _ in range(25)]
    short_done = max(i for i, popped in enumerate(order) if popped is not None and popped[0] == "short")
    games_before = 20 + sum(20 for popped in order[:short_done] if popped is not None and popped[0] == "long")
    assert all(popped is not None for popped in order)
    assert games_before <= 20 + 100 + 20  # the short run's 100 games wait for about as many of the long run's, no more
    assert queue.queued("short") == 0 and queue.queued("long") > 200


def test_a_newcomer_starts_level_with_the_least_served_owner_not_owed_for_the_time_it_was_away() -> None:
    queue: FairQueue[str] = FairQueue()
    for k in range(10):
        queue.put("a", f"a{k}", 10)
    for _ in range(5):
        queue.pop()  # "a" has had 50 games served alone
    queue.put("b", "b0", 10)
    queue.put("b", "b1", 10)
    # "b" is not owed 50 games: its first chunk goes next, then the two take turns
    assert [queue.pop() for _ in range(4)] == [("b", "b0"), ("a", "a5"), ("b", "b1"), ("a", "a6")]


def test_dropping_an_owner_takes_its_queued_items_out_and_leaves_the_others() -> None:
    queue: FairQueue[str] = FairQueue()
    for k in range(3):
        queue.put("a", f"a{k}")
        queue.put("b", f"b{k}")
    assert queue.drop("a") == ["a0", "a1", "a2"] and queue.drop("a") == []
    assert queue.owners() == ["b"] and _drain(queue) == ["b0", "b1", "b2"]


# ---------------------------------------------------------------- the pool, with a hand-driven executor


class HandExecutor(Executor):
    """Holds each submitted chunk until the test finishes it: nothing runs by itself."""

    def __init__(self) -> None:
        self.submitted: list[tuple[Future[Any], Sequence[int]]] = []
        self.pages: list[tuple[Spec, Sequence[int]]] = []
        self.shut = False

    def submit(self, fn: Callable[..., Any], /, *args: Any, **kwargs: Any) -> Future[Any]:
        if self.shut:
            raise RuntimeError("cannot schedule new futures after shutdown")
        future: Future[Any] = Future()
        future.set_running_or_notify_cancel()
        self.submitted.append((future, args[1]))
        self.pages.append((args[0], args[1]))
        return future

    def shutdown(self, wait: bool = True, *, cancel_futures: bool = False) -> None:
        self.shut = True

    def finish(self, k: int, error: BaseException | None = None) -> None:
        future, indices = self.submitted[k]
        if error is not None:
            future.set_exception(error)
        else:
            future.set_result(play_many(self.pages[k][0], indices))


def _pool(workers: int = 1) -> tuple[LabPool, HandExecutor]:
    hand = HandExecutor()
    return LabPool(workers, executor=lambda _n: hand), hand


def test_the_pool_runs_at_most_one_chunk_per_worker_and_reports_each_chunk() -> None:
    pool, hand = _pool(workers=2)
    seen: list[int] = []
    run = pool.start("page", SPEC, 8, on_update=lambda r: seen.append(r.done))
    assert [list(i) for _, i in hand.submitted] == [[0], [1]]  # 8 games: chunks of 1 (about 20 steps), 2 at a time
    assert pool.status() == {"workers": 2, "queued": 6, "running": 2, "owners": 1}
    for k in range(8):
        hand.finish(k)
    assert run.finished and not run.cancelled and run.error is None and seen == list(range(1, 9))
    assert [r.index for r in run.records] == list(range(8)) and run.records == play_many(SPEC, range(8))
    assert pool.status() == {"workers": 2, "queued": 0, "running": 0, "owners": 0}


def test_two_pages_share_one_worker_by_games_played() -> None:
    pool, hand = _pool(workers=1)
    first = pool.start("first", SPEC, 100)  # 20 chunks of 5 games
    second = pool.start("second", OTHER, 40)  # 20 chunks of 2 games
    k = 0
    while not second.finished:
        hand.finish(k)
        k += 1
    order = ["first" if spec is SPEC else "second" for spec, _ in hand.pages]
    assert order[:2] == ["first", "second"]  # the second page's first chunk went out next
    # by games played the two kept level: the 40-game run was done when the first had played about as many
    assert 40 <= first.done <= 40 + 5 and second.done == 40


def test_cancelling_a_page_drops_its_queued_chunks_and_discards_the_running_one() -> None:
    pool, hand = _pool(workers=1)
    news: list[tuple[int, bool]] = []
    closed = pool.start("closed", SPEC, 100, on_update=lambda r: news.append((r.done, r.cancelled)))
    other = pool.start("other", SPEC, 10)
    assert pool.cancel("closed") and closed.finished and closed.cancelled and news == [(0, True)]
    assert not pool.cancel("closed")  # twice is harmless
    hand.finish(0)  # the closed page's chunk that was running comes back: its games are thrown away
    assert closed.done == 0 and news == [(0, True)]
    k = 1
    while not other.finished:
        hand.finish(k)
        k += 1
    assert other.done == 10 and len(hand.submitted) == 1 + 10  # not one more chunk of the closed page was started


def test_a_new_run_of_a_page_replaces_its_previous_one() -> None:
    pool, hand = _pool(workers=1)
    old = pool.start("page", SPEC, 100)
    new = pool.start("page", SPEC, 4)
    assert old.cancelled and old.finished and not new.finished
    for k in range(1 + 4):
        hand.finish(k)
    assert new.done == 4 and old.done == 0


def test_a_chunk_that_fails_ends_only_its_own_run() -> None:
    pool, hand = _pool(workers=1)
    bad = pool.start("bad", SPEC, 4)
    good = pool.start("good", SPEC, 4)
    hand.finish(0, ValueError("no such bot"))
    assert bad.finished and isinstance(bad.error, ValueError)
    for k in range(1, 5):
        hand.finish(k)
    assert good.done == 4 and good.error is None


def test_shutting_the_pool_down_cancels_every_run_and_refuses_new_ones() -> None:
    pool, hand = _pool(workers=1)
    run = pool.start("page", SPEC, 40)
    pool.shutdown()
    assert run.cancelled and hand.shut and pool.closed
    hand.finish(0)  # the chunk that was running comes back to a closed pool: nothing more starts
    assert len(hand.submitted) == 1
    with pytest.raises(RuntimeError):
        pool.start("page", SPEC, 4)


# ---------------------------------------------------------------- sizes and limits


def test_a_run_is_cut_into_about_twenty_chunks_of_at_most_twenty_games() -> None:
    assert [len(c) for c in lab_chunks(4)] == [1, 1, 1, 1]
    assert [len(c) for c in lab_chunks(100)] == [5] * 20
    assert len(lab_chunks(LAB_MAX_GAMES)) == LAB_MAX_GAMES // lab.CHUNK_MAX and max(map(len, lab_chunks(LAB_MAX_GAMES))) == 20
    assert [i for c in lab_chunks(1001) for i in c] == list(range(1001))


@pytest.mark.parametrize(("cores", "workers"), [(1, 1), (2, 1), (4, 3), (16, 15)])
def test_the_pool_leaves_one_core_to_the_server_and_has_at_least_one_worker(monkeypatch: pytest.MonkeyPatch, cores: int,
                                                                             workers: int) -> None:
    monkeypatch.setattr(lab.os, "sched_getaffinity", lambda _pid: set(range(cores)), raising=False)
    assert lab_workers() == workers


@pytest.mark.parametrize("games", [10_000_000, LAB_MAX_GAMES + 1, LAB_MIN_GAMES - 1, 0, -5, 1.5, "100", None, True])
def test_the_server_refuses_a_game_count_outside_the_game_box(games: Any) -> None:
    with pytest.raises(LabRequestError, match="the lab plays 4 to 5000 games"):
        check_lab_request(games, ["basic", "greedy"])


@pytest.mark.parametrize("bots", [["basic", "no such bot"], ["basic", "<script>"], ["basic"] * 9, [1, 2]])
def test_the_server_refuses_bots_that_are_not_on_the_list(bots: list[Any]) -> None:
    with pytest.raises(LabRequestError):
        check_lab_request(100, bots)


def test_the_server_accepts_what_the_page_offers() -> None:
    assert check_lab_request(LAB_MIN_GAMES, ["basic", "dealer"]) == (4, ("basic", "dealer"))
    assert check_lab_request(LAB_MAX_GAMES, ["basic"] * 8)[0] == 5000


# ---------------------------------------------------------------- real worker processes


def test_real_workers_play_the_same_games_as_simulate_and_never_import_panel() -> None:
    """The workers are processes started fresh: they import the engine and the bots, not the dashboard."""
    made: list[Executor] = []

    def spawned(n: int) -> Executor:
        made.append(lab.worker_processes(n))
        return made[-1]

    pool = LabPool(1, executor=spawned)
    done = threading.Event()
    try:
        run = pool.start("page", SPEC, 6, on_update=lambda r: done.set() if r.finished else None)
        assert done.wait(120), pool.status()
        assert run.error is None and run.records == play_many(SPEC, range(6))
        loaded = made[0].submit(eval, "sorted({m.split('.')[0] for m in __import__('sys').modules} & "
                                      "{'panel', 'bokeh', 'param', 'tornado', 'laspoly'})", {}).result(60)
        assert loaded == ["laspoly"]
    finally:
        pool.shutdown()


# ---------------------------------------------------------------- the page


def _view_with(pool: LabPool, monkeypatch: pytest.MonkeyPatch) -> Any:
    import panel as pn

    from laspoly.ui import probability
    from laspoly.ui.model import GameModel

    monkeypatch.setattr(probability, "shared_pool", lambda: pool)
    scheduled: list[Any] = []
    monkeypatch.setattr(pn.state, "execute", lambda callback, schedule="auto": scheduled.append(callback))
    view = probability.ProbabilityView(model=GameModel())
    view.lab_bots.value = ["greedy", "cautious"]
    return view, scheduled


def _run_in_thread(coroutine: Any) -> threading.Thread:
    import asyncio

    worker = threading.Thread(target=asyncio.run, args=(coroutine,), daemon=True)
    worker.start()
    return worker


def test_the_page_refuses_a_game_count_sent_past_its_box_with_one_message_and_one_log_line(
        monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture) -> None:
    pool, hand = _pool()
    view, scheduled = _view_with(pool, monkeypatch)
    view.games.value = 10_000_000  # what a page's JavaScript can send: the box's range is the browser's alone
    worker = _run_in_thread(view._lab(None))
    worker.join(30)
    assert hand.submitted == [] and scheduled == []
    assert "plays 4 to 5000 games at a time" in view.lab_note.object
    records = [r for r in caplog.records if "lab" in r.getMessage()]
    assert len(records) == 1 and records[0].levelname == "WARNING" and records[0].exc_info is None
    assert not view.run_lab.disabled


def test_closing_the_page_cancels_its_lab_and_draws_nothing(monkeypatch: pytest.MonkeyPatch) -> None:
    pool, hand = _pool()
    view, scheduled = _view_with(pool, monkeypatch)
    view.games.value = 1000
    worker = _run_in_thread(view._lab(None))
    for _ in range(200):  # the coroutine has queued its run (bounded: 200 x 50 ms)
        if hand.submitted:
            break
        threading.Event().wait(0.05)
    assert hand.submitted and view.run_lab.disabled and view.progress.visible
    hand.finish(0)
    view.cancel_lab()  # what the page's session-destroyed hook calls
    worker.join(30)
    assert not worker.is_alive() and scheduled == []
    assert pool.status()["queued"] == 0 and pool.status()["owners"] == 0 and len(hand.submitted) == 2
    assert not view.run_lab.disabled and not view.progress.visible


#: Two sessions on a real server, in a fresh process: one runs a 5,000-game lab, the other autoplays.  It reports
#: the autoplay steps made while the lab was running, then closes the lab's page and sees its run cancelled.
_LAB_AND_PLAY = """
import json, os, socket, sys, tempfile, threading, time
sys.setrecursionlimit(200_000)
threading.stack_size(512 * 1024 * 1024)  # Bokeh's client applies each message one await deeper
sys.excepthook = lambda *e: (sys.__excepthook__(*e), os._exit(1))  # a failure ends the process: the server's threads stay
os.environ["LASPOLY_DB"] = f"sqlite:///{tempfile.mkdtemp()}/lab.db"
sys.path.insert(0, BENCHMARKS)
import load, load_server
import panel as pn
from laspoly.analysis.lab import shared_pool

def wait(condition, seconds):
    deadline = time.monotonic() + seconds
    while not condition() and time.monotonic() < deadline:
        time.sleep(0.1)
    return condition()

port = load.free_port()
pn.serve(load_server.app, port=port, address="127.0.0.1", show=False, threaded=True,
         websocket_origin=[f"127.0.0.1:{port}"], unused_session_lifetime_milliseconds=500, check_unused_sessions_milliseconds=250)
base = f"http://127.0.0.1:{port}/"
def answers():
    try:
        socket.create_connection(("127.0.0.1", port), timeout=5).close()
        return True
    except OSError:
        return False
if not wait(answers, 60):
    print(json.dumps({"started": False, "errors": ["the server did not answer"]}))
    os._exit(0)
rooms = load.make_rooms(os.environ["LASPOLY_DB"], 2, seed=5)
labber = load.LightClient(base, rooms[0]["seat"], False, 4.0, lab_games=5000, lab_after=0.5)  # long enough for a busy machine
player = load.LightClient(base, rooms[1]["seat"], True, 4.0)
for c in (labber, player):
    c.start()
for c in (labber, player):
    c.ready.wait(120)
pool = shared_pool()
running = lambda: pool.status()["owners"] == 1
started = wait(running, 120)
ticks0 = len(load_server.TICKS)
# autoplay steps while the lab runs: a few, however busy the machine
wait(lambda: len(load_server.TICKS) >= ticks0 + 8 or not running(), 120)
during = load_server.TICKS[ticks0:]
still_running = running()
status_before_close = pool.status()
labber.stop()
labber.join(30)
cancelled = wait(lambda: pool.status()["owners"] == 0 and pool.status()["queued"] == 0, 60)
player.stop()
player.join(30)
print(json.dumps({"started": started, "steps_during_lab": len(during), "lab_running_after_steps": still_running,
                  "step_ms": sorted(round(late + update, 1) for _, late, update in during),
                  "workers": pool.status()["workers"], "before_close": status_before_close,
                  "cancelled_on_close": cancelled, "after_close": pool.status(), "lab_done": labber.lab_done,
                  "errors": labber.errors + player.errors + load_server.ERRORS}))
pool.shutdown()
os._exit(0)
"""


@pytest.mark.load  # a real server with two sessions and a 5,000-game lab: `make load` runs it, on a machine left alone
def test_a_served_page_keeps_stepping_while_another_pages_lab_runs_and_closing_that_page_cancels_it() -> None:
    """The lab's games are played in the shared pool's workers, not on the server's loop: another page's autoplay
    steps go on while a 5,000-game lab runs (how fast, `benchmarks/load.py --lab-sessions` measures); closing the
    lab's page drops its queued games long before they could all have been played."""
    script = _LAB_AND_PLAY.replace("BENCHMARKS", repr(str(Path(__file__).resolve().parents[2] / "benchmarks")))
    out = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, timeout=400, check=True)
    report = json.loads(out.stdout.strip().splitlines()[-1])
    assert report["started"] and report["errors"] == [], report
    assert report["steps_during_lab"] >= 8 and report["lab_running_after_steps"], report
    assert report["before_close"]["owners"] == 1 and report["before_close"]["queued"] > 0, report
    assert report["cancelled_on_close"] and report["lab_done"] is None, report


#: A server that starts a lab and is then killed: its worker must not wait for chunks for ever.
_KILLED_SERVER = """
import sys
from laspoly.analysis import lab
from laspoly.analysis.simulate import Spec
made = []
pool = lab.LabPool(1, executor=lambda n: made.append(lab.worker_processes(n)) or made[-1])
pool.start("warm", Spec("laspoly", {}, ("basic", "greedy")), 4)
pid = made[0].submit(eval, "__import__('os').getpid()", {}).result(120)
pool.start("page", Spec("laspoly", {}, ("dealer", "shark")), 5000)
print(pid, flush=True)
sys.stdin.read()  # until the test kills this process
"""


def _alive(pid: int) -> bool:
    """Whether ``pid`` is a process that still runs (a zombie waiting to be reaped has ended)."""
    try:
        return "\\tZ" not in next(line for line in Path(f"/proc/{pid}/status").read_text().splitlines()
                                  if line.startswith("State:"))
    except (FileNotFoundError, StopIteration):
        return False


@pytest.mark.skipif(not Path("/proc/self/status").exists(), reason="reads /proc")
def test_a_killed_servers_lab_workers_end_by_themselves() -> None:
    server = subprocess.Popen([sys.executable, "-c", _KILLED_SERVER], stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True)
    try:
        assert server.stdout is not None
        worker = int(server.stdout.readline())
        assert _alive(worker)
    finally:
        server.kill()  # no clean-up runs in the server
        server.wait(30)
    for _ in range(100):  # bounded: 100 x 0.1 s; the worker looks for its parent every 0.5 s
        if not _alive(worker):
            break
        threading.Event().wait(0.1)
    assert not _alive(worker)


def test_a_lab_worker_under_laspoly_serve_imports_nothing_of_the_dashboard() -> None:
    """A spawned worker imports the main script again: ``laspoly serve``'s is ``laspoly.cli``, which, with the
    worker's own modules, loads neither Panel nor Bokeh (nor the numerical libraries)."""
    code = ("import sys, laspoly.cli, laspoly.analysis.lab, laspoly.analysis.simulate; "
            "print(sorted({m.split('.')[0] for m in sys.modules} & {'panel', 'bokeh', 'param', 'tornado', 'pandas'}))")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=120, check=True)
    assert out.stdout.strip() == "[]"
