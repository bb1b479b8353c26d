"""The ``laspoly`` command: runs the compiled build of a checkout when it is current, else the pure-Python source.

``make compiled`` (and ``make app`` where a C compiler and the Python headers are present) builds the engine,
rules and bots with mypyc into ``build/compiled/`` beside the checkout, as a full copy of the package with the
extension modules in it.  A checkout installed with ``pip install -e .`` runs its source, so this launcher starts
the command line again with ``build/compiled`` first on ``PYTHONPATH`` (as ``make test-compiled`` runs its tests)
when that build exists and no file of the source is newer than it.  A stale build is never run: the command then
runs the pure build and says so in one line on stderr.  ``LASPOLY_BUILD=pure`` asks for the pure build.

An installed package (``pip install .``, or ``LASPOLY_COMPILE=1 pip install .`` for a compiled one) has no
``build/compiled`` beside it and simply runs what is installed, silently.
"""

from __future__ import annotations

import os
import sys
from collections.abc import Sequence
from pathlib import Path

#: The file ``make compiled`` touches last, once the copy of the package and its extension modules are complete.
STAMP = ".synced"


def compiled_dir(package: Path) -> Path:
    """Where ``make compiled`` builds the compiled copy of the checkout whose package directory is ``package``."""
    return package.parent / "build" / "compiled"


def newest_source(package: Path) -> float:
    """The latest modification time of a file of the package's source (caches aside) and of ``setup.py``."""
    times = [p.stat().st_mtime for p in package.rglob("*") if p.is_file() and "__pycache__" not in p.parts]
    setup = package.parent / "setup.py"
    if setup.is_file():
        times.append(setup.stat().st_mtime)
    return max(times, default=0.0)


def choose_build(package: Path, environ: dict[str, str] | os._Environ[str] | None = None) -> tuple[Path | None, str]:
    """The compiled build's directory to run, or None for the source; and the one line to print (empty: none).

    Runs the compiled build only when it is complete and current: when a file of the source is newer than its
    stamp, the build would not play what the source says, so the source runs and the line says how to rebuild.
    """
    env = os.environ if environ is None else environ
    build = compiled_dir(package)
    stamp = build / STAMP
    if env.get("LASPOLY_BUILD") == "pure" or not (build / "laspoly").is_dir():
        return None, ""
    if not stamp.is_file():
        return None, "laspoly: the compiled build in build/compiled is incomplete; running the pure-Python build (make compiled rebuilds it)"
    if newest_source(package) > stamp.stat().st_mtime:
        return None, "laspoly: the compiled build in build/compiled is older than the source; running the pure-Python build (make compiled rebuilds it)"
    return build, ""


def main(argv: Sequence[str] | None = None) -> int:
    """Run the command line on the compiled build when it is current (a new process), else in this one."""
    import laspoly

    if not laspoly.COMPILED:
        build, line = choose_build(Path(laspoly.__file__).resolve().parent)
        if line:
            print(line, file=sys.stderr)
        if build is not None:
            env = dict(os.environ)
            env["PYTHONPATH"] = os.pathsep.join(p for p in (str(build), env.get("PYTHONPATH", "")) if p)
            args = list(sys.argv[1:] if argv is None else argv)
            code = "import sys; from laspoly.cli import main; sys.exit(main())"
            # -P: the current directory, which may be the checkout, must not come before the compiled build
            os.execve(sys.executable, [sys.executable, "-P", "-c", code, *args], env)
    from laspoly.cli import main as cli_main

    return cli_main(argv)


if __name__ == "__main__":
    sys.exit(main())
