"""The README's claims hold: its Python snippet runs and prints the winner, its commands parse, its make targets exist."""

from __future__ import annotations

import re
import shlex
import subprocess
import sys
from pathlib import Path

import pytest

from laspoly.cli import build_parser

ROOT = Path(__file__).resolve().parents[1]
README = (ROOT / "README.md").read_text(encoding="utf-8")


def _blocks(lang: str = "") -> list[str]:
    return re.findall(rf"^```{lang}\n(.*?)^```$", README, re.M | re.S)


def test_the_python_snippet_runs_and_prints_who_won(tmp_path: Path) -> None:
    (snippet,) = _blocks("python")
    out = subprocess.run([sys.executable, "-c", snippet], capture_output=True, text=True, timeout=120, cwd=tmp_path)
    assert out.returncode == 0, out.stderr
    assert re.search(r"^winner: (Ana|Ben)$", out.stdout, re.M), out.stdout


def _command_lines() -> list[str]:
    lines = []
    for block in _blocks():
        for line in block.splitlines():
            line = re.sub(r"^(\.venv/bin/)", "", line.split("  #")[0].strip())
            if line.startswith("laspoly ") and "--version" not in line:
                lines.append(line.replace("[", "").replace("]", ""))
    return lines


@pytest.mark.parametrize("line", _command_lines())
def test_every_laspoly_command_in_the_readme_parses(line: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(tmp_path)
    (tmp_path / "game.json").write_text("{}")  # the save that `laspoly play --save game.json` writes
    parser = build_parser()
    args = parser.parse_args(shlex.split(line)[1:])
    assert callable(args.func)


def test_every_make_target_in_the_readme_exists() -> None:
    makefile = (ROOT / "Makefile").read_text(encoding="utf-8")
    targets = set(re.findall(r"^([a-z]+):", makefile, re.M))
    named = set(re.findall(r"`make ([a-z]+)", README))
    assert named and named <= targets, named - targets
