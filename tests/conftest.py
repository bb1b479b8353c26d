"""Shared fixtures: a real ``laspoly serve`` subprocess and the system Chromium for browser tests.

The tests sit in folders (engine, rules, bots, analysis, server, ui, browser, docs, notebooks), and each test
is marked with its folder's name, so ``pytest -m rules`` runs the rulings and ``-m "not browser"`` skips the
browsers; the lessons' notebooks (run by nbmake) are marked ``notebooks``.

Browser tests use Playwright with the system Chromium at /usr/bin/chromium.
Outside CI a machine without it skips them with a reason; under CI=true a
missing browser fails them (make test installs it where it can).
"""

from __future__ import annotations

import os
import subprocess
import time
from collections.abc import Iterator
from pathlib import Path

import pytest
from servers import free_port, start_server

TESTS = Path(__file__).resolve().parent
#: The folders of tests/, each a marker its tests carry.
FOLDERS = ("engine", "rules", "bots", "analysis", "server", "ui", "browser", "docs", "notebooks")


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    """Mark every test with its folder's name; a lesson notebook run by nbmake is ``notebooks``."""
    for item in items:
        path = Path(str(item.path)).resolve()
        folder = path.parent.name if path.parent.parent == TESTS else "notebooks" if path.suffix == ".ipynb" else None
        if folder in FOLDERS:
            item.add_marker(folder)

CHROMIUM = Path("/usr/bin/chromium")
CHROMIUM_ARGS = ["--no-sandbox", "--disable-gpu", "--disable-background-networking", "--disable-component-update",
                 "--disable-sync", "--disable-quic", "--no-first-run"]
OUTPUT = Path(__file__).resolve().parents[1] / "test-output"

# The `laspoly` command runs the compiled build beside a checkout when it is current (laspoly/launch.py); the
# suite tests the source it imports, so the commands it starts run that source too, unless a run asks for the
# compiled build on purpose (`make test-compiled` sets PYTHONPATH=build/compiled and LASPOLY_EXPECT_COMPILED).
if not os.environ.get("LASPOLY_EXPECT_COMPILED"):
    os.environ.setdefault("LASPOLY_BUILD", "pure")


@pytest.fixture(scope="session")
def browser_type_launch_args(browser_type_launch_args: dict) -> dict:  # type: ignore[type-arg]
    """pytest-playwright launches the system Chromium with the flags this machine needs."""
    if not CHROMIUM.exists():
        reason = f"{CHROMIUM} is not installed (make test installs it: apt-get install -y chromium)"
        if os.environ.get("CI") == "true":
            pytest.fail(reason)
        pytest.skip(reason)
    return {**browser_type_launch_args, "executable_path": str(CHROMIUM), "args": CHROMIUM_ARGS}


@pytest.fixture(autouse=True)
def _close_the_windows_a_test_left_open(request: pytest.FixtureRequest) -> Iterator[None]:
    """Close every browser window a test opened itself once it ends.

    Pages from ``browser.new_context()`` would otherwise stay open until the whole run ends, each still
    talking to its server and using the machine's two cores while the later tests run.
    """
    browser = request.getfixturevalue("browser") if "browser" in request.fixturenames else None
    yield
    if browser is not None:
        for context in list(browser.contexts):
            context.close()


@pytest.fixture(scope="session")
def server_log(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The output of the session's ``server``: a test reads it for errors the page cannot show."""
    return tmp_path_factory.mktemp("server") / "server.log"


@pytest.fixture(scope="session")
def server(tmp_path_factory: pytest.TempPathFactory, server_log: Path) -> Iterator[str]:
    """A real ``laspoly serve`` on a free loopback port, with a fresh game database; yields its URL."""
    proc, url = start_server(f"sqlite:///{tmp_path_factory.mktemp('db') / 'rooms.db'}", log=server_log)
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


def _pg_bin() -> Path | None:
    for base in sorted(Path("/usr/lib/postgresql").glob("*/bin"), reverse=True):
        if (base / "initdb").exists() and (base / "postgres").exists():
            return base
    return None


@pytest.fixture(scope="session")
def postgres_url(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    """A throw-away PostgreSQL server on loopback (make test installs it where it can)."""
    binaries = _pg_bin()
    if binaries is None:
        reason = "PostgreSQL is not installed (make test installs it: apt-get install -y postgresql)"
        if os.environ.get("CI") == "true":
            pytest.fail(reason)
        pytest.skip(reason)
    import shutil
    import tempfile

    top = Path(tempfile.mkdtemp(prefix="laspoly-pg-"))  # under /tmp, so the postgres user can reach it
    data = top / "data"
    port = free_port()
    as_user: list[str] = []
    if os.geteuid() == 0:  # PostgreSQL refuses to run as root
        shutil.chown(top, "postgres")
        as_user = ["runuser", "-u", "postgres", "--"]
    subprocess.run([*as_user, str(binaries / "initdb"), "-D", str(data), "-A", "trust", "-U", "postgres"],
                   check=True, capture_output=True)
    (top / "run").mkdir()
    if as_user:
        shutil.chown(top / "run", "postgres")
    server = subprocess.Popen([*as_user, str(binaries / "postgres"), "-D", str(data), "-p", str(port),
                               "-h", "127.0.0.1", "-k", str(top / "run")], stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    url = f"postgresql://postgres@127.0.0.1:{port}/postgres"
    deadline = time.time() + 30
    while time.time() < deadline:
        if subprocess.run([str(binaries / "pg_isready"), "-h", "127.0.0.1", "-p", str(port)], capture_output=True).returncode == 0:
            break
        time.sleep(0.3)
    else:
        server.kill()
        pytest.fail("PostgreSQL did not start within 30 s")
    yield url
    server.terminate()
    server.wait(timeout=30)
    shutil.rmtree(top, ignore_errors=True)
