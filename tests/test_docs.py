"""docs/rules.md maps every ruling id of ../shared/RULINGS.md to a test and code that exist."""

from __future__ import annotations

import os
import re
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
RULINGS = ROOT.parent / "shared" / "RULINGS.md"
ROW = re.compile(r"^\| ([LSC]\d+) \| (.+?) \| (.+?) \| (.+?) \|$")
#: Ruling prefixes of the presets implemented so far.
PREFIXES = ("L", "S", "C")


def _ruling_ids() -> list[str]:
    if not RULINGS.exists():
        if os.environ.get("CI") == "true":
            pytest.fail(f"{RULINGS} is missing: CI must have shared/ beside the clone")
        pytest.skip(f"{RULINGS} is not beside this checkout")
    return re.findall(r"^- \*\*([LSC]\d+) ", RULINGS.read_text(encoding="utf-8"), re.M)


def _rows() -> dict[str, tuple[str, str, str]]:
    rows = {}
    for line in (ROOT / "docs" / "rules.md").read_text(encoding="utf-8").splitlines():
        m = ROW.match(line)
        if m:
            assert m.group(1) not in rows, f"two rows for {m.group(1)}"
            rows[m.group(1)] = (m.group(2), m.group(3), m.group(4))
    return rows


def _test_names() -> dict[str, str]:
    names = {}
    for path in (ROOT / "tests").glob("test_*.py"):
        for name in re.findall(r"^def (test_\w+)", path.read_text(encoding="utf-8"), re.M):
            names[name] = path.name
    return names


def test_every_ruling_of_the_implemented_presets_has_a_row() -> None:
    ids = [i for i in _ruling_ids() if i.startswith(PREFIXES)]
    assert len(ids) >= 41
    missing = sorted(set(ids) - set(_rows()), key=lambda s: (s[0], int(s[1:])))
    assert not missing, f"docs/rules.md has no row for {missing}"


def test_every_row_names_tests_and_code_that_exist() -> None:
    tests = _test_names()
    for rid, (_, test_cell, code_cell) in _rows().items():
        named = re.findall(r"`(test_\w+)`", test_cell)
        assert named, f"{rid} names no test"
        for name in named:
            assert name in tests, f"{rid}: test {name} does not exist"
        assert any(name.startswith(f"test_{rid}_") or f"_{rid}_" in name for name in named), f"{rid}: no test named after it"
        for ref in re.findall(r"`([\w/.]+\.(?:py|json))(?:::([\w.]+))?`", code_cell):
            path = ROOT / ("laspoly/engine/" if ref[0] == "game.py" else "laspoly/rules/" if ref[0] in ("options.py", "board.py") else "") / ref[0]
            assert path.exists(), f"{rid}: {ref[0]} does not exist"
            if ref[1]:
                assert ref[1].split(".")[-1] in path.read_text(encoding="utf-8"), f"{rid}: {ref[1]} not in {ref[0]}"


def test_reliability_doc_names_tests_and_files_that_exist() -> None:
    text = (ROOT / "docs" / "reliability.md").read_text(encoding="utf-8")
    refs = re.findall(r"`(tests/test_\w+\.py)(?:::(test_\w+))?`", text)
    assert len(refs) >= 10
    for path, name in refs:
        assert (ROOT / path).exists(), f"{path} does not exist"
        if name:
            assert re.search(rf"^def {name}\(", (ROOT / path).read_text(encoding="utf-8"), re.M), f"{path}::{name} does not exist"
    for path in re.findall(r"`((?:laspoly|benchmarks)/[\w/]+\.py)`", text):
        assert (ROOT / path).exists(), f"{path} does not exist"
