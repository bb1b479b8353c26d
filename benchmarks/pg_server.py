"""A throw-away PostgreSQL server on loopback, for the load test's ``--db postgresql``.

    python benchmarks/pg_server.py    # prints its URL, stops and deletes it on Ctrl-C

It is started from the PostgreSQL binaries of ``/usr/lib/postgresql/*/bin``
(``make postgres`` or ``apt-get install postgresql`` puts them there) in a
fresh data directory under ``/tmp``, listening on 127.0.0.1 only, with no
password (``trust``) for its one user; as root, it runs as the ``postgres``
user, since PostgreSQL refuses to run as root.  Everything is deleted when the
``with`` block ends.
"""

from __future__ import annotations

import os
import shutil
import socket
import subprocess
import tempfile
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path


def pg_bin() -> Path | None:
    """The newest installed PostgreSQL's binaries, or None."""
    for base in sorted(Path("/usr/lib/postgresql").glob("*/bin"), reverse=True):
        if (base / "initdb").exists() and (base / "postgres").exists():
            return base
    return None


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


@contextmanager
def postgres_server() -> Iterator[str]:
    """Start PostgreSQL on a free loopback port; yields its database URL, and stops and deletes it afterwards."""
    binaries = pg_bin()
    if binaries is None:
        raise RuntimeError("PostgreSQL is not installed (make postgres, or apt-get install -y postgresql)")
    top = Path(tempfile.mkdtemp(prefix="laspoly-load-pg-"))  # under /tmp, so the postgres user can reach it
    as_user: list[str] = []
    if os.geteuid() == 0:  # PostgreSQL refuses to run as root
        shutil.chown(top, "postgres")
        as_user = ["runuser", "-u", "postgres", "--"]
    server: subprocess.Popen[bytes] | None = None
    try:
        subprocess.run([*as_user, str(binaries / "initdb"), "-D", str(top / "data"), "-A", "trust", "-U", "postgres"],
                       check=True, capture_output=True)
        (top / "run").mkdir()
        if as_user:
            shutil.chown(top / "run", "postgres")
        port = _free_port()
        # loopback only, and its socket file in its own directory; enough connections for every server process's pool
        server = subprocess.Popen([*as_user, str(binaries / "postgres"), "-D", str(top / "data"), "-p", str(port),
                                   "-h", "127.0.0.1", "-k", str(top / "run"), "-c", "max_connections=200"],
                                  stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        deadline = time.time() + 30
        while subprocess.run([str(binaries / "pg_isready"), "-h", "127.0.0.1", "-p", str(port)],
                             capture_output=True).returncode != 0:
            if time.time() > deadline or server.poll() is not None:
                raise RuntimeError("PostgreSQL did not start within 30 s")
            time.sleep(0.3)
        yield f"postgresql://postgres@127.0.0.1:{port}/postgres"
    finally:
        if server is not None:
            server.terminate()
            try:
                server.wait(timeout=30)
            except subprocess.TimeoutExpired:
                server.kill()
        shutil.rmtree(top, ignore_errors=True)


def main() -> None:
    """Start one, print its URL, and keep it until interrupted (a database to try ``LASPOLY_DB`` against)."""
    with postgres_server() as url:
        print(url, flush=True)
        try:
            while True:
                time.sleep(3600)
        except KeyboardInterrupt:
            pass


if __name__ == "__main__":
    main()
