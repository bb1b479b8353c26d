"""Make the student versions of the lessons: solutions taken out of tagged cells.

    python tools/make_student_notebooks.py [--check]

Teacher notebooks are ``notebooks/NN_name.ipynb``.  A code cell tagged
``solution`` keeps its first comment lines (the exercise's instructions) and
loses the rest, which becomes ``...``; a cell tagged ``teacher`` (teacher
notes, answers in prose) is dropped.  The student versions are written to
``notebooks/student/NN_name.ipynb``, without outputs.  With ``--check`` the
script only reports whether the student versions are up to date.

Check cells name their exercise (``check("01.2", answer_doubles)``); the
expected values live in ``laspoly.lessons.EXERCISES``.  The script refuses to
write, and ``--check`` fails, when a student version gives an answer away: a
number the exercise's check would accept (``1/6``, ``\\tfrac16``, ``0.17``,
``16.7%``) in any cell source or output up to that exercise's check, or, for a
whole-number or text answer, the answer itself in the exercise's own cells
(its instructions, its exercise cell, its check).  The lesson may use the
answer after the exercise: by then the student has worked it out.
"""

from __future__ import annotations

import argparse
import copy
import json
import re
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

from laspoly.lessons import EXERCISES  # noqa: E402

TEACHER = ROOT / "notebooks"
STUDENT = TEACHER / "student"
PLACEHOLDER = "...  # your answer here"


def _source(cell: dict) -> list[str]:
    src = cell.get("source", [])
    return src.splitlines(keepends=True) if isinstance(src, str) else list(src)


def student_version(nb: dict) -> dict:
    """The notebook with solution code replaced and teacher cells removed."""
    out = copy.deepcopy(nb)
    cells = []
    for cell in out["cells"]:
        tags = cell.get("metadata", {}).get("tags", [])
        if "teacher" in tags:
            continue
        if cell["cell_type"] == "code":
            cell["outputs"] = []
            cell["execution_count"] = None
            if "solution" in tags:
                lines = _source(cell)
                keep = []
                for line in lines:
                    if line.lstrip().startswith("#"):
                        keep.append(line)
                    else:
                        break
                body = [ln for ln in lines[len(keep):] if ln.strip()]
                # keep the name the checker reads: "answer = ..." becomes "answer = ...  # your answer here"
                names = sorted({ln.split("=")[0].strip() for ln in body if "=" in ln and not ln.startswith((" ", "\t"))
                                and ln.split("=")[0].strip().isidentifier()})
                filler = [f"{n} = {PLACEHOLDER}\n" for n in names] or [f"{PLACEHOLDER}\n"]
                cell["source"] = keep + filler
                cell["metadata"]["tags"] = [t for t in tags if t != "solution"] + ["exercise"]
        cells.append(cell)
    out["cells"] = cells
    return out


CHECK_ID = re.compile(r"""check\(\s*["']([0-9]{2}\.[0-9]+)["']""")
#: numbers as a lesson writes them: LaTeX fractions, fractions, percentages, decimals (1,000 separators too)
_LATEX_FRACTION = re.compile(r"\\[dt]?frac\s*(?:\{\s*(\d+)\s*\}|(\d))\s*(?:\{\s*(\d+)\s*\}|(\d))")
_FRACTION = re.compile(r"(?<![\w.])(\d+)\s*/\s*(\d+)(?![\w.])")
_NUMBER = re.compile(r"(?<![\w.])(\d{1,3}(?:,\d{3})+(?:\.\d+)?|\d+(?:\.\d+)?(?:[eE][+-]?\d+)?)(?![\w])(\s*\\?%)?")
_TEXT_OUTPUTS = ("text/plain", "text/html", "text/markdown", "text/latex")


def _texts(cell: dict) -> list[str]:
    """A cell's source and the text of its outputs (not images or scripts)."""
    texts = ["".join(_source(cell))]
    for output in cell.get("outputs", []):
        if "text" in output:
            texts.append("".join(output["text"]) if isinstance(output["text"], list) else output["text"])
        for mime in _TEXT_OUTPUTS:
            data = output.get("data", {}).get(mime)
            if data is not None:
                texts.append("".join(data) if isinstance(data, list) else data)
    return texts


def number_tokens(text: str) -> list[str]:
    """Every number in ``text`` as the checker reads an answer: ``"1/6"``, ``"0.0046"``, ``"16.7%"``."""
    text = CHECK_ID.sub("check(", text)
    found = [f"{a or b}/{c or d}" for a, b, c, d in _LATEX_FRACTION.findall(text)]
    text = _LATEX_FRACTION.sub(" ", text)
    found += [f"{a}/{b}" for a, b in _FRACTION.findall(text)]
    text = _FRACTION.sub(" ", text)
    found += [number + ("%" if percent else "") for number, percent in _NUMBER.findall(text)]
    return found


def _exercise_cells(cells: list[dict], at: int) -> list[int]:
    """The check cell ``at``, the exercise cell and the instructions (markdown) just above it."""
    span = [at]
    k = at - 1
    while k >= 0:
        tags = cells[k].get("metadata", {}).get("tags", [])
        if cells[k]["cell_type"] == "markdown" or {"solution", "exercise"} & set(tags):
            span.append(k)
            k -= 1
        else:
            break
    return sorted(span)


def leaks(nb: dict) -> list[str]:
    """Where a notebook gives an exercise's answer away (empty when it does not)."""
    cells = nb["cells"]
    found = []
    for at, cell in enumerate(cells):
        if cell["cell_type"] != "code":
            continue
        for exercise_id in CHECK_ID.findall("".join(_source(cell))):
            exercise = EXERCISES.get(exercise_id)
            if exercise is None:
                found.append(f"cell {at}: exercise {exercise_id} has no answer in laspoly.lessons.EXERCISES")
                continue
            if exercise.kind == "text" and exercise.choices:
                continue  # the instructions name the choices; that is not the answer
            if exercise.kind == "text":
                word = re.compile(rf"\b{re.escape(str(exercise.expected))}\b", re.I)
                for k in _exercise_cells(cells, at):
                    if any(word.search(t) for t in _texts(cells[k])):
                        found.append(f"cell {k}: states the answer to exercise {exercise_id}")
                continue
            scope = _exercise_cells(cells, at) if exercise.kind == "whole" else range(at + 1)
            for k in scope:
                for token in (tok for t in _texts(cells[k]) for tok in number_tokens(t)):
                    if exercise.judge(token).ok:
                        found.append(f"cell {k}: {token!r} is the answer to exercise {exercise_id}")
    return found


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--check", action="store_true", help="fail if a student version is missing or stale")
    args = parser.parse_args()
    STUDENT.mkdir(exist_ok=True)
    versions = {}
    given_away = []
    for path in sorted(TEACHER.glob("[0-9][0-9]_*.ipynb")):
        student = student_version(json.loads(path.read_text(encoding="utf-8")))
        target = STUDENT / path.name
        given_away += [f"{target.relative_to(ROOT)}, {where}" for where in leaks(student)]
        versions[target] = json.dumps(student, indent=1, ensure_ascii=False) + "\n"
    if given_away:
        print("the student versions would give answers away (nothing written):\n  " + "\n  ".join(given_away))
        return 1
    stale = []
    for target, text in versions.items():
        if args.check:
            if not target.exists() or target.read_text(encoding="utf-8") != text:
                stale.append(target.name)
        else:
            target.write_text(text, encoding="utf-8")
            print(f"wrote {target.relative_to(ROOT)}")
    if stale:
        print("stale student notebooks (run python tools/make_student_notebooks.py): " + ", ".join(stale))
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
