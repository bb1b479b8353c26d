"""Real servers for the tests: a free loopback port, and ``laspoly serve`` (or ``panel serve`` with several
processes) started on it with a database of its own, waited for until it answers.

Tests import these from here (``from servers import start_server``); the fixtures in ``conftest.py`` use them too.
"""

from __future__ import annotations

import os
import signal
import socket
import subprocess
import sys
import time
import urllib.request
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import TYPE_CHECKING

import pytest

if TYPE_CHECKING:
    from laspoly.server.store import Store


def free_port() -> int:
    """A port on loopback that nothing listens on now."""
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


APP = Path(__file__).resolve().parents[1] / "apps" / "laspoly_app.py"


class ServerProcess(subprocess.Popen):  # type: ignore[type-arg]
    """A server started in a process group of its own: stopping it stops every worker ``--num-procs`` forked."""

    def send_signal(self, sig: int) -> None:
        try:
            os.killpg(self.pid, sig)
        except ProcessLookupError:
            pass

    def terminate(self) -> None:
        self.send_signal(signal.SIGTERM)

    def kill(self) -> None:
        self.send_signal(signal.SIGKILL)


def start_server(db_url: str, port: int | None = None, num_procs: int = 1, log: Path | None = None,
                 args: tuple[str, ...] = (), env: dict[str, str] | None = None) -> tuple[subprocess.Popen[bytes], str]:
    """Start the dashboard on loopback with its own game database; returns the process and its URL.

    One process: ``laspoly serve`` with ``args`` added (``--classroom NAME``, ``--lan-address``); several:
    ``panel serve apps/laspoly_app.py --num-procs N``. ``log`` keeps the server's output in that file; ``env``
    replaces the environment it runs in (``LASPOLY_DB`` is set from ``db_url`` either way). Returns once the
    page answers 200.
    """
    port = port or free_port()
    env = {**(os.environ if env is None else env), "LASPOLY_DB": db_url}
    if num_procs == 1:
        cmd = [sys.executable, "-m", "laspoly", "serve", "--port", str(port), "--address", "127.0.0.1", *args]
        url = f"http://127.0.0.1:{port}/"
    else:
        cmd = [sys.executable, "-m", "panel", "serve", str(APP), "--port", str(port), "--address", "127.0.0.1",
               "--num-procs", str(num_procs), "--allow-websocket-origin", f"127.0.0.1:{port}"]
        url = f"http://127.0.0.1:{port}/laspoly_app"
    with open(log or os.devnull, "wb") as out:  # the server keeps its own copy of the file
        proc = ServerProcess(cmd, stdout=out, stderr=subprocess.STDOUT, env=env, start_new_session=True)
    deadline = time.time() + 180  # a loaded 2-core machine can take over a minute to import and start Panel
    while time.time() < deadline:
        # Each request builds a whole dashboard: wait for its answer rather than give up and ask again, which would
        # queue more dashboards behind it on a busy machine.  A refused connection (not listening yet) fails at once.
        try:
            with urllib.request.urlopen(url, timeout=max(1.0, deadline - time.time())) as r:
                if r.status == 200:
                    break
        except OSError:
            if proc.poll() is not None:
                pytest.fail(f"laspoly serve exited with status {proc.returncode} before it answered")
            time.sleep(0.2)
    else:
        proc.kill()
        pytest.fail("laspoly serve did not start within 180 s")
    return proc, url


def stop_server(proc: subprocess.Popen[bytes], timeout: float = 10) -> None:
    """Stop a server asked to end; one that does not end within ``timeout`` seconds is killed."""
    proc.terminate()
    try:
        proc.wait(timeout=timeout)
    except subprocess.TimeoutExpired:
        proc.kill()


@contextmanager
def serving_rooms(folder: Path) -> Iterator[tuple[str, Store]]:
    """``laspoly serve`` with a database of its own in ``folder``: its address (no trailing slash) and its store.

    A test module's rooms are opened in the store and visited at the address, each with its owner's link.
    """
    from laspoly.server.store import open_store

    db = f"sqlite:///{folder / 'rooms.db'}"
    proc, url = start_server(db)
    try:
        yield url.rstrip("/"), open_store(db)
    finally:
        stop_server(proc)
