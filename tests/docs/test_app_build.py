"""Which build ``make app`` serves and ``laspoly`` runs: compiled where gcc can build it and it is current, else pure.

The Makefile's choice runs in a scratch copy whose ``setup.py`` only stands in for the compile (a real mypyc
compile takes minutes; ``make test-compiled`` does that once), with a ``PATH`` that has gcc or lacks it.
"""

from __future__ import annotations

import os
import runpy
import shutil
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

import pytest

from laspoly.launch import STAMP, choose_build, compiled_dir

ROOT = Path(__file__).resolve().parents[2]
TOOLS = ("sh", "find", "cp", "rm", "mkdir", "touch", "tail")
MAKE = shutil.which("make")
needs_make = pytest.mark.skipif(MAKE is None or any(shutil.which(t) is None for t in TOOLS), reason="make or a tool is missing")


def _checkout(tmp: Path, *, gcc: bool, compile_ok: bool = True) -> tuple[Path, dict[str, str]]:
    """A scratch checkout with the real Makefile, a stand-in setup.py, an installed-looking .venv and a PATH."""
    repo = tmp / "repo"
    (repo / "laspoly").mkdir(parents=True)
    shutil.copy(ROOT / "Makefile", repo / "Makefile")
    (repo / "laspoly" / "__init__.py").write_text('"""stand-in"""\n', encoding="utf-8")
    (repo / "setup.py").write_text(f"raise SystemExit({0 if compile_ok else 1})\n", encoding="utf-8")
    for name in ("pyproject.toml", "README.md"):
        (repo / name).write_text("", encoding="utf-8")
    bin_dir = repo / ".venv" / "bin"
    bin_dir.mkdir(parents=True)
    (bin_dir / "python").write_text(f'#!/bin/sh\nexec "{sys.executable}" "$@"\n', encoding="utf-8")
    (bin_dir / "python").chmod(0o755)
    old = time.time() - 60
    os.utime(repo / "pyproject.toml", (old, old))
    for stamp in (".app-installed", ".mypyc-installed"):
        (repo / ".venv" / stamp).touch()
    path = tmp / "path"
    path.mkdir()
    for tool in TOOLS:
        (path / tool).symlink_to(shutil.which(tool) or tool)
    if gcc:
        (path / "gcc").write_text("#!/bin/sh\nexit 0\n", encoding="utf-8")
        (path / "gcc").chmod(0o755)
    env = {"PATH": str(path), "HOME": str(tmp), "LANG": "C.UTF-8"}
    return repo, env


def _app_build(repo: Path, env: dict[str, str]) -> list[str]:
    assert MAKE is not None
    done = subprocess.run([MAKE, "-s", "--no-print-directory", "app-build"], cwd=repo, env=env, capture_output=True,
                          text=True, timeout=120, check=True)
    return done.stdout.splitlines()


@needs_make
def test_make_app_without_gcc_serves_the_pure_build_and_says_so_in_one_line(tmp_path: Path) -> None:
    repo, env = _checkout(tmp_path, gcc=False)
    assert _app_build(repo, env) == ["Build: pure Python (no C compiler (gcc) or Python headers here for the compiled one)"]
    assert not (repo / "build").exists()
    assert choose_build(repo / "laspoly", {}) == (None, "")


@needs_make
def test_make_app_with_gcc_compiles_once_saying_how_long_then_laspoly_runs_the_compiled_build(tmp_path: Path) -> None:
    repo, env = _checkout(tmp_path, gcc=True)
    first = _app_build(repo, env)
    assert len(first) == 2 and first[0].startswith("Compiling the engine with mypyc") and "minutes" in first[0]
    assert first[1] == "Build: compiled (mypyc), from build/compiled"
    assert (repo / "build" / "compiled" / STAMP).is_file()
    assert choose_build(repo / "laspoly", {}) == (compiled_dir(repo / "laspoly"), "")
    assert _app_build(repo, env) == ["Build: compiled (mypyc), from build/compiled"]  # current: no compile


@needs_make
def test_a_failed_compile_still_serves_the_pure_build_and_says_why(tmp_path: Path) -> None:
    repo, env = _checkout(tmp_path, gcc=True, compile_ok=False)
    assert _app_build(repo, env)[-1] == "Build: pure Python (the compile failed, see build/compiled/build.log)"
    build, line = choose_build(repo / "laspoly", {})
    assert build is None and "incomplete" in line and "pure-Python" in line


def _fake_build(tmp: Path, *, synced: bool = True) -> Path:
    package = tmp / "laspoly"
    (package / "engine").mkdir(parents=True)
    (package / "engine" / "game.py").write_text("", encoding="utf-8")
    (tmp / "build" / "compiled" / "laspoly").mkdir(parents=True)
    if synced:
        (tmp / "build" / "compiled" / STAMP).touch()
        later = time.time() + 5
        os.utime(tmp / "build" / "compiled" / STAMP, (later, later))
    return package


def test_the_launcher_never_runs_a_compiled_build_older_than_the_source(tmp_path: Path) -> None:
    package = _fake_build(tmp_path)
    assert choose_build(package, {}) == (tmp_path / "build" / "compiled", "")
    edited = time.time() + 10
    os.utime(package / "engine" / "game.py", (edited, edited))
    build, line = choose_build(package, {})
    assert build is None
    assert line == ("laspoly: the compiled build in build/compiled is older than the source; "
                    "running the pure-Python build (make compiled rebuilds it)")


def test_the_launcher_ignores_bytecode_caches_and_honours_laspoly_build_pure(tmp_path: Path) -> None:
    package = _fake_build(tmp_path)
    (package / "__pycache__").mkdir()
    (package / "__pycache__" / "x.pyc").touch()
    later = time.time() + 10
    os.utime(package / "__pycache__" / "x.pyc", (later, later))
    assert choose_build(package, {})[0] is not None
    assert choose_build(package, {"LASPOLY_BUILD": "pure"}) == (None, "")


def test_an_installed_package_without_a_build_beside_it_runs_silently(tmp_path: Path) -> None:
    (tmp_path / "laspoly").mkdir()
    assert choose_build(tmp_path / "laspoly", {}) == (None, "")


def test_the_laspoly_command_names_the_build_it_runs() -> None:
    """Through the launcher: the compiled build when this checkout's is current, else the pure one."""
    env = {k: v for k, v in os.environ.items() if k != "LASPOLY_BUILD"}
    expected = "(compiled (mypyc))" if choose_build(ROOT / "laspoly", env)[0] is not None else "(pure Python)"
    env["PYTHONPATH"] = str(ROOT)
    done = subprocess.run([sys.executable, "-P", "-m", "laspoly.launch", "--version"], env=env, capture_output=True,
                          text=True, timeout=60, check=True)
    assert done.stdout.startswith("laspoly ") and done.stdout.rstrip().endswith(expected)


def _setup_kwargs(monkeypatch: pytest.MonkeyPatch, compile_flag: str | None) -> dict[str, Any]:
    import setuptools

    seen: dict[str, Any] = {}
    monkeypatch.setattr(setuptools, "setup", lambda **kw: seen.update(kw))
    if compile_flag is None:
        monkeypatch.delenv("LASPOLY_COMPILE", raising=False)
    else:
        monkeypatch.setenv("LASPOLY_COMPILE", compile_flag)
    runpy.run_path(str(ROOT / "setup.py"))
    return seen


@pytest.mark.parametrize("flag", [None, "0", "yes", ""])
def test_pip_install_builds_pure_python_unless_laspoly_compile_is_1(monkeypatch: pytest.MonkeyPatch, flag: str | None) -> None:
    assert _setup_kwargs(monkeypatch, flag) == {"ext_modules": []}


def test_laspoly_compile_1_compiles_the_engine_rules_and_bots(monkeypatch: pytest.MonkeyPatch) -> None:
    mypyc_build = pytest.importorskip("mypyc.build")
    asked: list[list[str]] = []
    monkeypatch.setattr(mypyc_build, "mypycify", lambda paths, **_: asked.append(paths) or ["extension"])
    assert _setup_kwargs(monkeypatch, "1") == {"ext_modules": ["extension"]}
    assert "laspoly/engine/game.py" in asked[0] and "laspoly/launch.py" not in asked[0]
    assert not any(p.startswith("laspoly/ui/") for p in asked[0])


def test_the_probability_tabs_lab_names_the_build_in_the_pages_language() -> None:
    pytest.importorskip("panel")
    import laspoly
    from laspoly.ui.model import GameModel
    from laspoly.ui.probability import ProbabilityView

    model = GameModel()
    view = ProbabilityView(model=model)
    english = "compiled (mypyc)" if laspoly.COMPILED else "pure Python"
    assert f"Engine on this server: {english}" in view.lab_title.object
    model.lang = "es"
    assert "Motor de este servidor: " + ("compilado" if laspoly.COMPILED else "Python puro") in view.lab_title.object
