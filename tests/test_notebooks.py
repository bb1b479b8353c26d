"""The lessons: committed without outputs, student versions up to date, each with goals, exercises and notes.

The notebooks themselves run in ``make test`` through nbmake (``notebooks/`` is a test path).
"""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
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
