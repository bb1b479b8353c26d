"""Run the lessons and write them as HTML pages that work with no network.

    python tools/render_lessons.py [--out docs/lessons] [LESSON.ipynb ...]

Each lesson (by default every teacher lesson in ``notebooks/``) is run with nbconvert and written to
``--out`` as HTML.  Nothing in a page comes from the internet:

* ``PANEL_INLINE=true`` puts Bokeh's and Panel's JavaScript into each page, so its figures draw;
* MathJax comes from the ``jupyter-server-mathjax`` package, copied beside the pages as ``mathjax/``, and the
  pages load it by a relative address, so their mathematics renders from a folder or a USB stick as well.

``make lessons`` runs this script.
"""

from __future__ import annotations

import argparse
import os
import shutil
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
#: MathJax 2 as jupyter-server-mathjax ships it (TeX input, HTML-CSS output), with the fonts it ships
MATHJAX_URL = "mathjax/MathJax.js?config=TeX-AMS-MML_HTMLorMML-full,Safe,local/lessons"
#: The package ships the STIX-Web web fonts only (as Jupyter Notebook uses it): without this configuration MathJax
#: asks for its TeX fonts, which are not there.
MATHJAX_CONFIG = """MathJax.Hub.Config({
  "HTML-CSS": {availableFonts: [], preferredFont: null, webFont: "STIX-Web", imageFont: null},
  SVG: {font: "STIX-Web"}
});
MathJax.Ajax.loadComplete("[MathJax]/config/local/lessons.js");
"""


def mathjax_folder() -> Path:
    """The MathJax files of the installed ``jupyter-server-mathjax`` package."""
    try:
        import jupyter_server_mathjax
    except ImportError as exc:  # pragma: no cover - the lab and test extras install it
        raise SystemExit("jupyter-server-mathjax is missing: pip install -e '.[lab]'") from exc
    return Path(jupyter_server_mathjax.__file__).parent / "static"


def copy_mathjax(out: Path) -> Path:
    """MathJax copied into ``out/mathjax`` (replacing an older copy)."""
    target = out / "mathjax"
    if target.exists():
        shutil.rmtree(target)
    shutil.copytree(mathjax_folder(), target)
    (target / "config" / "local").mkdir(exist_ok=True)
    (target / "config" / "local" / "lessons.js").write_text(MATHJAX_CONFIG, encoding="utf-8")
    return target


def render(lessons: list[Path], out: Path, timeout: int = 600) -> list[Path]:
    """Run each lesson and write it as HTML into ``out``; returns the pages written."""
    out.mkdir(parents=True, exist_ok=True)
    copy_mathjax(out)
    env = {**os.environ, "PANEL_INLINE": "true"}
    subprocess.run([sys.executable, "-m", "nbconvert", "--to", "html", "--execute",
                    f"--ExecutePreprocessor.timeout={timeout}", f"--HTMLExporter.mathjax_url={MATHJAX_URL}",
                    "--output-dir", str(out), *map(str, lessons)], check=True, env=env)
    return [out / f"{lesson.stem}.html" for lesson in lessons]


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--out", type=Path, default=ROOT / "docs" / "lessons", help="folder for the HTML pages")
    parser.add_argument("lessons", nargs="*", type=Path, help="lessons to render (default: every teacher lesson)")
    args = parser.parse_args()
    lessons = args.lessons or sorted((ROOT / "notebooks").glob("[0-9][0-9]_*.ipynb"))
    for page in render(lessons, args.out):
        print(f"wrote {page}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
