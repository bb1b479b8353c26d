"""The README and the docs keep their word: every command in them runs, every link resolves, every path exists.

The pages are README.md, CONTRIBUTING.md and docs/*.md.  Their code blocks are the commands a reader copies:
each ``laspoly`` command must parse (the quick ones are run), each ``make`` target must exist, each Python
example must run.  The README stays a first page: under 10 KB, with the two commands of the quickstart.
"""

from __future__ import annotations

import re
import shlex
import subprocess
import sys
from pathlib import Path

import pytest

from laspoly.cli import build_parser, main

ROOT = Path(__file__).resolve().parents[2]
README = (ROOT / "README.md").read_text(encoding="utf-8")
PAGES = [ROOT / "README.md", ROOT / "CONTRIBUTING.md", *sorted((ROOT / "docs").glob("*.md"))]
#: The pages this layout of the docs introduced, held to the stricter checks (paths named, no repeated sentence).
NEW_PAGES = ["README.md", "CONTRIBUTING.md", "docs/dashboard.md", "docs/classroom.md", "docs/performance.md",
             "docs/cli.md", "docs/python.md"]
#: Commands quick enough to run for real, in order, in a scratch folder (a save written by one is read by the next).
RUN = {"play", "replay", "check", "positions", "rules", "markov"}
README_LIMIT = 10_000  # bytes


def _rel(page: Path) -> str:
    return page.relative_to(ROOT).as_posix()


def _text(page: Path) -> str:
    return page.read_text(encoding="utf-8")


def _blocks(text: str, lang: str = "") -> list[str]:
    return re.findall(rf"^```{lang}\n(.*?)^```$", text, re.M | re.S)


def _commands(text: str) -> list[str]:
    """Every ``laspoly`` command of a page's plain code blocks, as typed (without the prompt, .venv/bin/ or comment)."""
    lines = []
    for block in _blocks(text):
        for line in block.splitlines():
            line = line.split("  #")[0].strip().removeprefix("$ ")
            line = re.sub(r"^(PYTHONPATH=\S+ )?(\.venv/bin/)?", "", line)
            if re.match(r"laspoly [a-z]+( |$)", line):  # not a table's row that starts with the preset's name
                lines.append(line)
    return lines


def _is_placeholder(token: str) -> bool:
    return token == "..." or bool(re.fullmatch(r"[A-Z_]+|[a-z](,[a-z])+", token))


def _inline_commands(text: str) -> list[str]:
    """Every ``laspoly ...`` in backticks in the prose that names no placeholder (FILE, COMMAND, a,b,c, ...)."""
    found = []
    for span in re.findall(r"`(laspoly [^`]+)`", text):
        tokens = shlex.split(span)
        if "--version" in tokens or "/" in tokens[1] or any(_is_placeholder(t) for t in tokens[1:]):
            continue
        found.append(span)
    return found


def _page_commands() -> list[tuple[str, str]]:
    return [(_rel(p), line) for p in PAGES for line in dict.fromkeys(_commands(_text(p)) + _inline_commands(_text(p)))]


def test_the_readme_is_a_first_page_under_10_kb_with_the_two_commands() -> None:
    size = len(README.encode("utf-8"))
    assert size < README_LIMIT, f"README.md is {size} bytes: move the detail to docs/ and link it"
    (quickstart,) = [b for b in _blocks(README) if "make app" in b]
    assert [line.split()[:2] for line in quickstart.splitlines()] == [["make", "app"], ["make", "test"]]
    assert "![" in README and "## Presets" in README and "## Documentation" in README


def test_the_python_snippet_runs_and_prints_who_won(tmp_path: Path) -> None:
    (snippet,) = _blocks(README, "python")
    out = subprocess.run([sys.executable, "-c", snippet], capture_output=True, text=True, timeout=120, cwd=tmp_path)
    assert out.returncode == 0, out.stderr
    assert re.search(r"^winner: (Ana|Ben)$", out.stdout, re.M), out.stdout


@pytest.mark.parametrize("page, index", [(_rel(p), i) for p in PAGES[1:] for i, _ in enumerate(_blocks(_text(p), "python"))])
def test_every_python_example_in_the_docs_runs(page: str, index: int, tmp_path: Path) -> None:
    snippet = _blocks(_text(ROOT / page), "python")[index]
    out = subprocess.run([sys.executable, "-c", snippet], capture_output=True, text=True, timeout=300, cwd=tmp_path)
    assert out.returncode == 0, f"{page}, Python example {index + 1}:\n{out.stderr}"


@pytest.mark.parametrize("page, line", _page_commands())
def test_every_laspoly_command_in_the_readme_and_docs_parses(page: str, line: str, tmp_path: Path,
                                                              monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(tmp_path)
    for name in ("game.json", "exact.csv"):
        (tmp_path / name).write_text("{}")  # the files the commands before it would have written
    argv = shlex.split(line)[1:]
    if argv == [argv[0]] and line not in _commands(_text(ROOT / page)):
        # a command named in the prose ("`laspoly check` validates..."): the command exists
        assert main([argv[0], "--help"]) == 0
        return
    args = build_parser().parse_args(argv)
    assert callable(args.func)


@pytest.mark.parametrize("page", [_rel(p) for p in PAGES if any(shlex.split(c)[1] in RUN for c in _commands(_text(p)))])
def test_the_quick_commands_of_each_page_run_in_order(page: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                                                      capsys: pytest.CaptureFixture[str]) -> None:
    monkeypatch.chdir(tmp_path)
    for line in _commands(_text(ROOT / page)):
        argv = shlex.split(line)[1:]
        if argv[0] in RUN:
            assert main(argv) == 0, f"{page}: `{line}` failed: {capsys.readouterr().err}"


def test_every_make_target_in_the_readme_and_docs_exists() -> None:
    makefile = _text(ROOT / "Makefile")
    targets = set(re.findall(r"^([a-z-]+):", makefile, re.M))
    for page in PAGES:
        text = _text(page)
        named = set(re.findall(r"`make ([a-z-]+)", text)) | {
            m for block in _blocks(text) for m in re.findall(r"^make ([a-z-]+)", block, re.M)}
        assert named <= targets, f"{_rel(page)} names make targets that do not exist: {named - targets}"
    assert {"app", "test"} <= set(re.findall(r"`make ([a-z-]+)", README)) | {"app", "test"}


def _slug(heading: str) -> str:
    """The anchor GitHub gives a heading: lower case, punctuation dropped, spaces to hyphens."""
    text = re.sub(r"[`*_\[\]()]", "", heading.strip().lower())
    return re.sub(r"[^\w\- ]", "", text).replace(" ", "-")


def _anchors(page: Path) -> set[str]:
    text = re.sub(r"^```.*?^```$", "", _text(page), flags=re.M | re.S)
    return {_slug(h) for h in re.findall(r"^#{1,6} (.+)$", text, re.M)}


def test_every_relative_link_in_the_readme_and_docs_resolves() -> None:
    broken = []
    for page in PAGES:
        text = re.sub(r"^```.*?^```$", "", _text(page), flags=re.M | re.S)
        for target in re.findall(r"\]\(([^)\s]+)\)", text):
            if re.match(r"[a-z]+:", target):
                continue  # http(s) and mailto links point outside the repository
            path, _, anchor = target.partition("#")
            dest = (page.parent / path).resolve() if path else page
            if not dest.exists():
                broken.append(f"{_rel(page)}: {target} (no such file)")
            elif anchor and dest.suffix == ".md" and anchor not in _anchors(dest):
                broken.append(f"{_rel(page)}: {target} (no such heading)")
    assert not broken, "\n".join(broken)


def test_every_path_and_test_the_new_pages_name_exists() -> None:
    missing = []
    for name in NEW_PAGES:
        text = _text(ROOT / name)
        for path, test in re.findall(r"`((?:laspoly|tests|benchmarks|tools|apps|notebooks)/[\w/.-]+\.(?:py|tsv|json|md))"
                                     r"(?:::(test_\w+))?`", text):
            if not (ROOT / path).exists():
                missing.append(f"{name}: {path}")
            elif test and not re.search(rf"^def {test}\(", _text(ROOT / path), re.M):
                missing.append(f"{name}: {path}::{test}")
        for test in re.findall(r"`(test_\w+)`", text):
            if not any(re.search(rf"^def {test}\(", _text(p), re.M) for p in (ROOT / "tests").rglob("test_*.py")):
                missing.append(f"{name}: {test}")
        for script in re.findall(r"\b((?:tools|benchmarks)/\w+\.py|bench_\w+\.py)", text):
            if not ((ROOT / script).exists() or (ROOT / "benchmarks" / script).exists()):
                missing.append(f"{name}: {script}")
    assert not missing, "\n".join(missing)


def test_every_script_a_command_of_the_docs_runs_exists() -> None:
    missing = []
    for page in PAGES:
        for block in _blocks(_text(page)):
            for script in re.findall(r"(?<![\w/])((?:apps|tools|benchmarks|notebooks|\.ci)/[\w/.-]+\.(?:py|ipynb)|\.ci/run)\b", block):
                if not (ROOT / script).exists():
                    missing.append(f"{_rel(page)}: {script}")
    assert not missing, "\n".join(missing)


def test_every_speed_figure_names_the_benchmark_that_measured_it() -> None:
    text = _text(ROOT / "docs" / "performance.md")
    rows = [line for line in text.splitlines() if line.startswith("| ") and not line.startswith(("| Figure", "| run"))]
    assert len(rows) >= 15, "the speed tables are gone from docs/performance.md"
    engine = [r for r in rows if r.count("|") == 5]  # the first table: figure, median, goal, script
    assert engine and all(re.search(r"`bench_\w+\.py", r.split("|")[4]) for r in engine), engine
    assert "bench_runs.py" in text and "make bench" in text
    assert re.search(r"AMD EPYC|Intel Xeon", text) and "median" in text, "a figure without its machine or its statistic"


def test_no_sentence_is_said_twice_on_a_page() -> None:
    for name in NEW_PAGES:
        prose = re.sub(r"^```.*?^```$", "", _text(ROOT / name), flags=re.M | re.S)
        sentences = [s.strip() for s in re.split(r"(?<=[.;:])\s+", " ".join(prose.split())) if len(s.split()) >= 5]
        repeated = {s for s in sentences if sentences.count(s) > 1}
        assert not repeated, f"{name} repeats: {repeated}"
