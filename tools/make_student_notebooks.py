"""Make the student versions of the lessons: solutions taken out of tagged cells.

    python tools/make_student_notebooks.py [--check]

Teacher notebooks are ``notebooks/NN_name.ipynb``.  A code cell tagged
``solution`` keeps its first comment lines (the exercise's instructions) and
loses the rest, which becomes ``...``; a cell tagged ``teacher`` (teacher
notes, answers in prose) is dropped.  The student versions are written to
``notebooks/student/NN_name.ipynb``, without outputs.  With ``--check`` the
script only reports whether the student versions are up to date.
"""

from __future__ import annotations

import argparse
import copy
import json
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
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


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--check", action="store_true", help="fail if a student version is missing or stale")
    args = parser.parse_args()
    STUDENT.mkdir(exist_ok=True)
    stale = []
    for path in sorted(TEACHER.glob("[0-9][0-9]_*.ipynb")):
        nb = json.loads(path.read_text(encoding="utf-8"))
        text = json.dumps(student_version(nb), indent=1, ensure_ascii=False) + "\n"
        target = STUDENT / path.name
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
