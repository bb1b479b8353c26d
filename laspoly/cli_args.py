"""Argument types and parser classes of the ``laspoly`` command.

Every numeric and path argument is checked by argparse itself (``type=``), so
a bad value stops the command before any work is done, with the command's usage
line, one error line and exit status 2.  Output files are checked for a
writable folder before a game is played or a table computed.
"""

from __future__ import annotations

import argparse
import os
from collections.abc import Callable
from importlib.metadata import PackageNotFoundError, version
from pathlib import Path
from typing import Any, NoReturn
from urllib.parse import urlsplit

from laspoly.engine.game import check_player_count
from laspoly.errors import LaspolyError

SEED_MAX = 2**63 - 1  # the engine's seed range (Chance)
WORKERS_MAX = 64
DASK_SCHEMES = ("tcp", "tls", "ws", "wss", "ucx")


def package_version() -> str:
    """The installed laspoly version, from the package metadata."""
    try:
        return version("laspoly")
    except PackageNotFoundError:  # run from a source tree that was never installed
        return "unknown (not installed)"


def whole_number(low: int | None = None, high: int | None = None) -> Callable[[str], int]:
    """An argparse type: a whole number from ``low`` to ``high`` (either end may be open)."""

    def parse(text: str) -> int:
        try:
            value = int(text)
        except ValueError:
            raise argparse.ArgumentTypeError(f"{text!r} is not a whole number") from None
        if low is not None and value < low:
            raise argparse.ArgumentTypeError(f"{value} is too small: give {_bounds(low, high)}")
        if high is not None and value > high:
            raise argparse.ArgumentTypeError(f"{value} is too large: give {_bounds(low, high)}")
        return value

    return parse


def _bounds(low: int | None, high: int | None) -> str:
    if high is None:
        return f"{low} or more"
    return f"{high} or less" if low is None else f"{low} to {high}"


positive = whole_number(1)
seed = whole_number(0, SEED_MAX)
workers = whole_number(1, WORKERS_MAX)
port = whole_number(1, 65535)
field_index = whole_number(0)  # whether it is a station is checked against the board


def players(text: str) -> int:
    """An argparse type: a player count the engine accepts (its one limit, ``check_player_count``)."""
    count = whole_number()(text)
    return _checked(check_player_count, count)


def _checked(check: Callable[[Any], Any], value: Any) -> Any:
    """Run an engine check and turn its error into argparse's."""
    try:
        return check(value)
    except LaspolyError as exc:
        raise argparse.ArgumentTypeError(str(exc)) from None


def name_list(text: str) -> list[str]:
    """An argparse type: comma-separated player names, as many as a game may have."""
    from laspoly.engine.game import clean_name

    names = [part.strip() for part in text.split(",")]
    _checked(check_player_count, len(names))
    return [_checked(clean_name, n) for n in names]


def bot_list(text: str) -> list[str]:
    """An argparse type: comma-separated bot temperaments (one game seats them all, so 2 to 8)."""
    from laspoly.bots.registry import TEMPERAMENTS, canonical_bot

    bots = [canonical_bot(part.strip()) for part in text.split(",")]
    unknown = [b for b in bots if b not in TEMPERAMENTS]
    if unknown:
        raise argparse.ArgumentTypeError(f"unknown bot {unknown[0]!r}; bots are: {', '.join(TEMPERAMENTS)}")
    _checked(check_player_count, len(bots))
    return bots


def dice_script(text: str) -> str:
    """An argparse type: a dice script such as ``"6-6 1-2"`` (checked, kept as typed)."""
    from laspoly.engine.chance import parse_dice_script

    _checked(parse_dice_script, text)
    return text


def rule_override(text: str) -> str:
    """An argparse type: one ``NAME=VALUE`` rule override, the name known and the value allowed."""
    from laspoly.rules.options import RuleOptions, parse_rule_args

    _checked(lambda t: RuleOptions().with_overrides(parse_rule_args([t])), text)
    return text


def output_file(text: str) -> str:
    """An argparse type: a file that can be written, checked before any work is done (nothing is created)."""
    path = Path(text).expanduser()
    folder = path.parent
    if not text or path.is_dir():
        raise argparse.ArgumentTypeError(f"{text!r} is a folder, not a file name")
    if not folder.is_dir():
        raise argparse.ArgumentTypeError(f"cannot write {text}: the folder {folder} does not exist")
    if not os.access(folder, os.W_OK | os.X_OK) or (path.exists() and not os.access(path, os.W_OK)):
        raise argparse.ArgumentTypeError(f"cannot write {text}: permission denied")
    return str(path)


def input_file(text: str) -> str:
    """An argparse type: an existing file that can be read."""
    path = Path(text).expanduser()
    if not path.exists():
        raise argparse.ArgumentTypeError(f"{text} does not exist")
    if not path.is_file():
        raise argparse.ArgumentTypeError(f"{text} is not a file")
    if not os.access(path, os.R_OK):
        raise argparse.ArgumentTypeError(f"cannot read {text}: permission denied")
    return str(path)


def dask_address(text: str) -> str:
    """An argparse type: ``local``, or a scheduler address ``[tcp://]HOST:PORT``."""
    if text == "local":
        return text
    scheme, sep, rest = text.partition("://")
    if not sep:
        scheme, rest = "tcp", text
    try:
        parts = urlsplit(f"//{rest}")
        ok = scheme in DASK_SCHEMES and bool(parts.hostname) and not parts.path and 1 <= (parts.port or 0)
    except ValueError:  # a port that is not a number, or above 65535
        ok = False
    if not ok:
        raise argparse.ArgumentTypeError(f"{text!r} is not a Dask scheduler address: give 'local' or tcp://HOST:PORT")
    return text


def origin(text: str) -> str:
    """An argparse type: a websocket origin as the browser sends it, ``HOST[:PORT]`` without a scheme."""
    if "://" in text or "/" in text or not text.strip() or any(c.isspace() for c in text):
        raise argparse.ArgumentTypeError(f"{text!r} is not HOST:PORT (no http://, no path), e.g. 192.168.1.20:5006")
    return text


def class_name(text: str) -> str:
    """An argparse type: a class's name, 1 to 40 printable characters, as the dashboard checks it."""
    from laspoly.server.classes import check_class_name

    return str(_checked(check_class_name, text))


def lan_address(text: str) -> str:
    """An argparse type: an IPv4 address for the classroom's links (``--lan-address``)."""
    import ipaddress

    try:
        return str(ipaddress.IPv4Address(text.strip()))
    except ValueError:
        raise argparse.ArgumentTypeError(f"{text!r} is not an IPv4 address, e.g. 192.168.1.20") from None


class HelpFormatter(argparse.HelpFormatter):
    """Help that shows each option's default, except for switches and options without one."""

    def _get_help_string(self, action: argparse.Action) -> str | None:
        text = action.help or ""
        default = action.default
        if "default" in text or default is None or default is False or default == argparse.SUPPRESS or not action.option_strings:
            return text
        shown = f"{default:_}" if isinstance(default, int) and default >= 10_000 else "%(default)s"
        return f"{text} (default: {shown})"


class SubcommandParser(argparse.ArgumentParser):
    """A subcommand's parser: its help shows defaults, and an unknown option gets its own usage line."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        kwargs.setdefault("formatter_class", HelpFormatter)  # argparse does not hand the formatter down
        super().__init__(*args, **kwargs)

    def parse_known_args(self, args: Any = None, namespace: Any = None) -> tuple[argparse.Namespace, list[str]]:
        """Parse as usual, then refuse leftovers here rather than in the top-level parser."""
        parsed, extras = super().parse_known_args(args, namespace)
        if extras:
            self.error(f"unrecognized arguments: {' '.join(extras)}")
        return parsed, extras

    def error(self, message: str) -> NoReturn:
        """A one-line usage (the full one is in ``--help``), one error line, exit status 2."""
        places = " ".join((a.metavar or a.dest).upper() for a in self._get_positional_actions())
        self.exit(2, f"usage: {self.prog} {places + ' ' if places else ''}[options]  (see: {self.prog} --help)\n"
                     f"{self.prog}: error: {message}\n")
