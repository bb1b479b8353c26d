"""docs/rules.md holds every ruling's text, and maps each to a test and code that exist.

The project keeps its rulings itself: nothing here reads outside the repository.
"""

from __future__ import annotations

import importlib
import re
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
ROW = re.compile(r"^\| ([LSC]\d+) \| (.+?) \| (.+?) \| (.+?) \| (.+?) \|$")
#: Every ruling id of the three rulebooks: Las Poly L1-L20, Sculptprice S1-S9, classic C1-C12.
RULING_IDS = [f"L{i}" for i in range(1, 21)] + [f"S{i}" for i in range(1, 10)] + [f"C{i}" for i in range(1, 13)]
ENGINE_MODULES = ("state.py", "gamestate.py", "base.py", "wording.py", "legality.py", "payments.py", "turns.py",
                  "decisions.py", "game.py")


def _rows() -> dict[str, tuple[str, str, str, str]]:
    rows = {}
    for line in (ROOT / "docs" / "rules.md").read_text(encoding="utf-8").splitlines():
        m = ROW.match(line)
        if m:
            assert m.group(1) not in rows, f"two rows for {m.group(1)}"
            rows[m.group(1)] = (m.group(2), m.group(3), m.group(4), m.group(5))
    return rows


def _test_names() -> dict[str, str]:
    names = {}
    for path in (ROOT / "tests").rglob("test_*.py"):
        for name in re.findall(r"^def (test_\w+)", path.read_text(encoding="utf-8"), re.M):
            names[name] = path.name
    return names


def test_every_ruling_has_a_row_with_its_text() -> None:
    rows = _rows()
    missing = [i for i in RULING_IDS if i not in rows]
    assert not missing, f"docs/rules.md has no row for {missing}"
    assert sorted(rows) == sorted(RULING_IDS), "docs/rules.md has a row for an unknown ruling id"
    for rid, (text, played, _, _) in rows.items():
        assert re.match(r"^\*\*[^*]+\*\* \S", text), f"{rid}: the row does not start with the ruling's title and text"
        assert len(text) > 60 and len(played) > 20, f"{rid}: the ruling's text or the rule as played is missing"


def test_no_test_or_tool_reads_outside_the_repository() -> None:
    for folder in ("tests", "tools", "benchmarks", "laspoly"):
        for path in (ROOT / folder).rglob("*.py"):
            if path == Path(__file__).resolve():
                continue
            text = path.read_text(encoding="utf-8")
            assert "shared/" not in text, f"{path.relative_to(ROOT)} reaches outside the repository"
            # Path(__file__).parents[k] is the repository's root at k = its depth in the repository, outside it above
            depth = len(path.relative_to(ROOT).parts) - 1
            assert all(int(k) <= depth for k in re.findall(r"parents\[(\d+)\]", text)), \
                f"{path.relative_to(ROOT)} reaches outside the repository"


def test_every_row_names_tests_and_code_that_exist() -> None:
    tests = _test_names()
    for rid, (_, _, test_cell, code_cell) in _rows().items():
        named = re.findall(r"`(test_\w+)`", test_cell)
        assert named, f"{rid} names no test"
        for name in named:
            assert name in tests, f"{rid}: test {name} does not exist"
        assert any(name.startswith(f"test_{rid}_") or f"_{rid}_" in name for name in named), f"{rid}: no test named after it"
        for ref in re.findall(r"`([\w/.]+\.(?:py|json))(?:::([\w.]+))?`", code_cell):
            folder = "laspoly/engine/" if ref[0] in ENGINE_MODULES else "laspoly/rules/" if ref[0] in ("options.py", "board.py") else ""
            path = ROOT / folder / ref[0]
            assert path.exists(), f"{rid}: {ref[0]} does not exist"
            if ref[1]:
                assert ref[1].split(".")[-1] in path.read_text(encoding="utf-8"), f"{rid}: {ref[1]} not in {ref[0]}"


@pytest.mark.parametrize("doc", ["reliability.md", "security.md"])
def test_the_reliability_and_security_docs_name_tests_and_files_that_exist(doc: str) -> None:
    text = (ROOT / "docs" / doc).read_text(encoding="utf-8")
    refs = re.findall(r"`(tests/(?:\w+/)?test_\w+\.py)(?:::(test_\w+))?`", text)
    assert len(refs) >= 10
    for path, name in refs:
        assert (ROOT / path).exists(), f"{path} does not exist"
        if name:
            assert re.search(rf"^def {name}\(", (ROOT / path).read_text(encoding="utf-8"), re.M), f"{path}::{name} does not exist"
    for path in re.findall(r"`((?:laspoly|benchmarks)/[\w/]+\.py)`", text):
        assert (ROOT / path).exists(), f"{path} does not exist"


@pytest.mark.parametrize("doc", sorted(p.name for p in (ROOT / "docs").glob("*.md")))
def test_every_dotted_name_a_doc_gives_in_code_can_be_imported(doc: str) -> None:
    """A doc that says what stops a threat or does a job by a dotted name (`laspoly.server.rooms.new_owner_key`)
    names a module, and an attribute of it, that exist: a rename cannot leave the doc pointing at nothing."""
    text = (ROOT / "docs" / doc).read_text(encoding="utf-8")
    for dotted in sorted(set(re.findall(r"`(laspoly(?:\.[A-Za-z_]\w*)+)`", text))):
        parts = dotted.split(".")
        for cut in range(len(parts), 0, -1):
            try:
                found: object = importlib.import_module(".".join(parts[:cut]))
                break
            except ModuleNotFoundError:
                continue
        for name in parts[cut:]:
            assert hasattr(found, name), f"docs/{doc} names {dotted}: {'.'.join(parts[:cut])} has no {name}"
            found = getattr(found, name)


def test_architecture_doc_names_modules_that_exist() -> None:
    """Every module path docs/architecture.md names exists, so a renamed module cannot leave the page behind."""
    text = (ROOT / "docs" / "architecture.md").read_text(encoding="utf-8")
    paths = set(re.findall(r"`((?:laspoly|benchmarks|tests|tools)/[\w/]+\.(?:py|json))`", text))
    assert len(paths) >= 20
    missing = sorted(p for p in paths if not (ROOT / p).exists())
    assert not missing, f"docs/architecture.md names missing files: {missing}"
    lines = [line.split() for line in re.findall(r"^ {3}((?:\w+ {2,})*\w+) {2,}", text.split("```")[1], re.M)]
    for module in (m for line in lines for m in line):
        assert (ROOT / "laspoly" / "engine" / f"{module}.py").exists(), f"the diagram names engine/{module}.py"


def test_the_diagrams_engine_layers_are_the_import_contracts() -> None:
    """The engine's lines in the diagram are the layers import-linter holds, top to bottom."""
    import tomllib

    text = (ROOT / "docs" / "architecture.md").read_text(encoding="utf-8")
    drawn = [sorted(line.split()) for line in re.findall(r"^ {3}((?:\w+ {2,})*\w+) {2,}", text.split("```")[1], re.M)]
    config = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))["tool"]["importlinter"]["contracts"]
    engine = next(c for c in config if c.get("containers") == ["laspoly.engine"])
    assert drawn == [sorted(m.strip() for m in layer.split("|")) for layer in engine["layers"]]
    modules = {p.stem for p in (ROOT / "laspoly" / "engine").glob("*.py")} - {"__init__"}
    assert {m for line in drawn for m in line} == modules
