"""The lessons: committed without outputs, student versions up to date, each with goals, exercises and notes.

The notebooks themselves run in ``make test`` through nbmake (``notebooks/`` is a test path).
"""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest
from helpers import load_tool

from laspoly.lessons import EXERCISES

ROOT = Path(__file__).resolve().parents[2]
LESSONS = sorted((ROOT / "notebooks").glob("[0-9][0-9]_*.ipynb"))


def test_there_are_five_lessons_with_student_versions() -> None:
    assert [p.name[:2] for p in LESSONS] == ["01", "02", "03", "04", "05"]
    out = subprocess.run([sys.executable, str(ROOT / "tools" / "make_student_notebooks.py"), "--check"], capture_output=True, text=True)
    assert out.returncode == 0, out.stdout


@pytest.mark.parametrize("path", LESSONS + sorted((ROOT / "notebooks" / "student").glob("*.ipynb")), ids=lambda p: f"{p.parent.name}/{p.name}")
def test_notebooks_are_committed_without_outputs(path: Path) -> None:
    nb = json.loads(path.read_text(encoding="utf-8"))
    for cell in nb["cells"]:
        if cell["cell_type"] == "code":
            assert cell["outputs"] == [] and cell["execution_count"] is None


@pytest.mark.parametrize("path", LESSONS, ids=lambda p: p.name)
def test_each_lesson_has_goals_exercises_a_seed_and_teacher_notes(path: Path) -> None:
    nb = json.loads(path.read_text(encoding="utf-8"))
    text = "".join("".join(c["source"]) if isinstance(c["source"], list) else c["source"] for c in nb["cells"])
    tags = [t for c in nb["cells"] for t in c.get("metadata", {}).get("tags", [])]
    assert "Learning goals" in text and "Teacher notes" in text
    assert tags.count("solution") >= 3 and "seed" in text.lower()
    student = json.loads((ROOT / "notebooks" / "student" / path.name).read_text(encoding="utf-8"))
    assert "Teacher notes" not in "".join("".join(c["source"]) for c in student["cells"])


def _nb(path: Path) -> dict:
    return json.loads(path.read_text(encoding="utf-8"))


def _text(cell: dict) -> str:
    return "".join(cell["source"]) if isinstance(cell["source"], list) else cell["source"]


def test_every_check_names_an_exercise_with_an_answer_and_every_answer_is_checked() -> None:
    tool = load_tool("make_student_notebooks")
    used = []
    for path in LESSONS:
        for cell in _nb(path)["cells"]:
            for exercise in tool.CHECK_ID.findall(_text(cell)):
                assert exercise.startswith(path.name[:2] + "."), f"{path.name} checks another lesson's {exercise}"
                used.append(exercise)
            if cell["cell_type"] == "code" and "check(" in _text(cell):
                assert tool.CHECK_ID.search(_text(cell)), f"{path.name}: a check without an exercise id: {_text(cell)!r}"
    assert sorted(set(used)) == sorted(EXERCISES), "exercises without a check, or checks without an answer"


@pytest.mark.parametrize("path", LESSONS, ids=lambda p: p.name)
def test_a_check_cell_holds_no_expected_value_and_the_teacher_copy_asserts_each_answer(path: Path) -> None:
    tool = load_tool("make_student_notebooks")
    cells = _nb(path)["cells"]
    checks = [_text(c) for c in cells if c["cell_type"] == "code" and "check(" in _text(c)]
    for source in checks:
        assert tool.CHECK_ID.sub("", source).count(",") <= 2 and not tool.number_tokens(source), source
    hidden = [_text(c) for c in cells if "teacher" in c.get("metadata", {}).get("tags", []) and "check(" in _text(c)]
    assert len(hidden) == len(checks) // 2 and all(s.startswith("assert check(") for s in hidden)


def _student(name: str) -> dict:
    return load_tool("make_student_notebooks").student_version(_nb(ROOT / "notebooks" / name))


def _replace(nb: dict, old: str, new: str) -> dict:
    hits = [c for c in nb["cells"] if old in _text(c)]
    assert hits, old
    for cell in hits:
        cell["source"] = _text(cell).replace(old, new)
    return nb


def test_the_student_versions_give_no_answer_away() -> None:
    tool = load_tool("make_student_notebooks")
    for path in LESSONS:
        assert tool.leaks(_student(path.name)) == [], path.name


def test_a_student_version_that_states_an_answer_is_caught() -> None:
    """The leaks the lessons once had: each one is found, in a source or in an output."""
    tool = load_tool("make_student_notebooks")
    five = _replace(_student("05_play_las_poly.ipynb"), "(a fraction is fine)", "(a fraction like 91 / 216 is fine)")
    assert any("05.4" in leak for leak in tool.leaks(five))
    one = _replace(_student("01_two_dice.ipynb"), "exercise 2 asks for their probability.",
                   r"$P(\text{doubles}) = \tfrac6{36} = \tfrac16$.")
    assert any("'1/6' is the answer to exercise 01.2" in leak for leak in tool.leaks(one))
    one = _replace(_student("01_two_dice.ipynb"), r"P(\text{doubles}) \times P(\text{doubles}) \times P(\text{doubles}).$$",
                   r"\tfrac16 \times \tfrac16 \times \tfrac16 = \tfrac1{216} \approx 0.46\%.$$")
    found = tool.leaks(one)
    assert any("'1/216' is the answer to exercise 01.4" in leak for leak in found)
    assert any("'0.46%' is the answer to exercise 01.4" in leak for leak in found)
    one = _student("01_two_dice.ipynb")
    check_cell = next(c for c in one["cells"] if _text(c).startswith('check("01.3"'))
    check_cell["outputs"] = [{"output_type": "stream", "name": "stdout",
                              "text": ["Not answered yet. Hint: take the square root (about 0.0037).\n"]}]
    assert any("'0.0037' is the answer to exercise 01.3" in leak for leak in tool.leaks(one))
    two = _replace(_student("02_board_markov_chain.ipynb"), "answer_top_field)", "answer_top_field)  # 'Casino'")
    assert any("states the answer to exercise 02.2" in leak for leak in tool.leaks(two))
    five = _replace(_student("05_play_las_poly.ipynb"), 'check("05.3", answer_fare)', 'check("05.3", answer_fare)  # 150')
    assert any("'150' is the answer to exercise 05.3" in leak for leak in tool.leaks(five))


def test_the_tool_writes_nothing_when_a_student_version_would_give_an_answer_away(tmp_path: Path, monkeypatch,
                                                                                  capsys) -> None:
    tool = load_tool("make_student_notebooks")
    nb = _replace(_nb(ROOT / "notebooks" / "05_play_las_poly.ipynb"), "(a fraction is fine)",
                  "(a fraction like 91 / 216 is fine)")
    (tmp_path / "05_play_las_poly.ipynb").write_text(json.dumps(nb), encoding="utf-8")
    monkeypatch.setattr(tool, "TEACHER", tmp_path)
    monkeypatch.setattr(tool, "STUDENT", tmp_path / "student")
    monkeypatch.setattr(tool, "ROOT", tmp_path)
    for argv in (["make_student_notebooks.py"], ["make_student_notebooks.py", "--check"]):
        monkeypatch.setattr(sys, "argv", argv)
        assert tool.main() == 1
        assert "would give answers away" in capsys.readouterr().out
    assert list((tmp_path / "student").iterdir()) == []
