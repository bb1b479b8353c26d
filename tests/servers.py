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
from pathlib import Path

import pytest


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


