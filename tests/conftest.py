"""Shared fixtures: a real ``laspoly serve`` subprocess and the system Chromium for browser tests.

Browser tests use Playwright with the system Chromium at /usr/bin/chromium.
Outside CI a machine without it skips them with a reason; under CI=true a
missing browser fails them (make test installs it where it can).
"""

from __future__ import annotations

import os
import socket
import subprocess
import sys
import time
import urllib.request
from collections.abc import Iterator
from pathlib import Path

import pytest

CHROMIUM = Path("/usr/bin/chromium")
CHROMIUM_ARGS = ["--no-sandbox", "--disable-gpu", "--disable-background-networking", "--disable-component-update",
                 "--disable-sync", "--disable-quic", "--no-first-run"]
OUTPUT = Path(__file__).resolve().parents[1] / "test-output"


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


@pytest.fixture(scope="session")
def browser_type_launch_args(browser_type_launch_args: dict) -> dict:  # type: ignore[type-arg]
    """pytest-playwright launches the system Chromium with the flags this machine needs."""
    if not CHROMIUM.exists():
        reason = f"{CHROMIUM} is not installed (make test installs it: apt-get install -y chromium)"
        if os.environ.get("CI") == "true":
            pytest.fail(reason)
        pytest.skip(reason)
    return {**browser_type_launch_args, "executable_path": str(CHROMIUM), "args": CHROMIUM_ARGS}


def start_server(db_url: str, port: int | None = None) -> tuple[subprocess.Popen[bytes], str]:
    """Start ``laspoly serve`` on loopback with its own game database; returns the process and its URL."""
    port = port or _free_port()
    env = {**os.environ, "LASPOLY_DB": db_url}
    proc = subprocess.Popen([sys.executable, "-m", "laspoly", "serve", "--port", str(port), "--address", "127.0.0.1"],
                            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, env=env)
    url = f"http://127.0.0.1:{port}/"
    deadline = time.time() + 60
    while time.time() < deadline:
        try:
            with urllib.request.urlopen(url, timeout=2) as r:
                if r.status == 200:
                    break
        except OSError:
            time.sleep(0.3)
    else:
        proc.kill()
        pytest.fail("laspoly serve did not start within 60 s")
    return proc, url


@pytest.fixture(scope="session")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    """A real ``laspoly serve`` on a free loopback port, with a fresh game database; yields its URL."""
    proc, url = start_server(f"sqlite:///{tmp_path_factory.mktemp('db') / 'rooms.db'}")
    yield url
    proc.terminate()
    try:
        proc.wait(timeout=10)
    except subprocess.TimeoutExpired:
        proc.kill()


@pytest.fixture()
def screenshot_dir() -> Path:
    """Where browser tests save their screenshots (kept with the test output)."""
    OUTPUT.mkdir(exist_ok=True)
    return OUTPUT
