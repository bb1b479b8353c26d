"""A translator's command for laspoly's catalogues (``laspoly/locale/<lang>/LC_MESSAGES/laspoly.po``).

    python -m laspoly.i18n check            # every key in every language, same placeholders, plural forms
    python -m laspoly.i18n compile DIR      # write DIR/<lang>/LC_MESSAGES/laspoly.mo, as msgfmt would

``check`` also runs GNU ``msgfmt --check`` on each file when it is installed.
laspoly itself needs no ``.mo`` file: it reads the ``.po`` files (:mod:`laspoly.engine.words`).
"""

from __future__ import annotations

import argparse
import shutil
import subprocess
import sys
from collections.abc import Sequence
from importlib.resources import as_file
from pathlib import Path

from laspoly.engine import words


def msgfmt_problems(langs: Sequence[str] = words.LANGS) -> list[str]:
    """What GNU ``msgfmt --check`` says about each catalogue; nothing when it is not installed."""
    msgfmt = shutil.which("msgfmt")
    if msgfmt is None:
        return []
    problems = []
    for lang in langs:
        with as_file(words.po_file(lang)) as path:
            run = subprocess.run([msgfmt, "--check", "-o", "-", str(path)], capture_output=True, text=False, check=False)
        if run.returncode != 0:
            problems.append(f"msgfmt --check {lang}: " + run.stderr.decode("utf-8", "replace").strip())
    return problems


def main(argv: Sequence[str] | None = None) -> int:
    """Run ``check`` or ``compile``; the exit status is 1 when the catalogues have problems."""
    parser = argparse.ArgumentParser(prog="python -m laspoly.i18n", description="Check or compile laspoly's gettext catalogues.")
    sub = parser.add_subparsers(dest="command", required=True)
    sub.add_parser("check", help="list every problem of the catalogues (none: exit status 0)")
    compile_ = sub.add_parser("compile", help="write the .mo files into a folder, one per language")
    compile_.add_argument("folder", type=Path, help="where to write <lang>/LC_MESSAGES/laspoly.mo")
    args = parser.parse_args(argv)
    problems = words.check()
    if args.command == "check":
        problems += msgfmt_problems()
        for problem in problems:
            print(problem)
        if not problems:
            counts = ", ".join(f"{lang}: {len(words.catalogue(lang).messages)}" for lang in words.LANGS)
            print(f"The catalogues are complete ({counts} messages).")
        return 1 if problems else 0
    if problems:
        print("\n".join(problems), file=sys.stderr)
        return 1
    for lang in words.LANGS:
        target = args.folder / lang / "LC_MESSAGES" / f"{words.DOMAIN}.mo"
        target.parent.mkdir(parents=True, exist_ok=True)
        target.write_bytes(words.mo_bytes(words.catalogue(lang)))
        print(target)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
