"""The board in words, for screen readers: a table of the fields and one sentence for the last move.

The board is a Bokeh canvas, which assistive technology cannot read.  Beside it
the Play tab keeps a text alternative, visually hidden but in the accessibility
tree:

* :func:`field_rows` / :func:`board_table`: one row per field with its name, its
  owner, its buildings, whether it is mortgaged and the tokens standing on it;
* :func:`announcement`: the last turn step in a sentence or
  a few ("Ana rolled 3 and 2 and landed on Sahara Avenue, owned by Ben. Ana paid
  18 LPD rent to Ben for Sahara Avenue."), which the page puts in a polite live
  region (:class:`~laspoly.ui.a11y.LiveRegion`) that a screen reader reads out.

Everything is in the page's language, from the catalogue (``boardtext.*``, and the
engine's own ``event.*`` sentences).  This module imports neither Panel nor Bokeh.
"""

from __future__ import annotations

from dataclasses import dataclass
from html import escape

from laspoly.analysis.log import turn_start
from laspoly.engine import events as E
from laspoly.engine.game import Game
from laspoly.ui.i18n import tr

#: Visually hidden, yet read by screen readers: the usual "sr-only" rule (a 1 px clipped box, not display:none).
SR_ONLY = ("position:absolute;width:1px;height:1px;padding:0;margin:-1px;overflow:hidden;"
           "clip:rect(0,0,0,0);clip-path:inset(50%);white-space:nowrap;border:0")

#: The table's columns: their catalogue keys, in order.
COLUMNS = ("boardtext.field", "boardtext.owner", "boardtext.buildings", "boardtext.mortgaged", "boardtext.tokens")


@dataclass(frozen=True)
class FieldRow:
    """One field in words: its name, owner ("" for none), buildings ("" for none), mortgaged ("yes" or ""), tokens."""

    name: str
    owner: str
    buildings: str
    mortgaged: str
    tokens: str

    def cells(self) -> tuple[str, str, str, str, str]:
        return (self.name, self.owner, self.buildings, self.mortgaged, self.tokens)


def _buildings(game: Game, index: int, lang: str) -> str:
    preset = game.preset.id
    level = game.level[index]
    if game.factory[index]:
        return tr("board.factory", lang, preset)
    if level == game.hotel_level:
        return tr("board.hotel", lang, preset)
    if level:
        return tr("board.house", lang, preset) if level == 1 else tr("board.houses", lang, preset, n=level)
    return ""


def _tokens(game: Game, index: int, lang: str) -> str:
    names = [tr("board.in_prison", lang, who=p.name) if p.in_prison else p.name
             for p in game.players if p.active and p.pos == index]
    return ", ".join(names)


def field_rows(game: Game, lang: str) -> list[FieldRow]:
    """Every field of the board in order, as a screen reader's table reads them."""
    rows = []
    for i in range(len(game.fields)):
        owner = game.owner[i]
        rows.append(FieldRow(
            name=game.field_name(i, lang),
            owner=game.players[owner].name if owner >= 0 else "",
            buildings=_buildings(game, i, lang),
            mortgaged=tr("boardtext.yes", lang) if game.mortgaged[i] else "",
            tokens=_tokens(game, i, lang),
        ))
    return rows


def board_table(game: Game, lang: str) -> str:
    """The fields as an HTML table, visually hidden, with a caption in ``lang`` (the page's text alternative to the board)."""
    head = "".join(f"<th scope='col'>{escape(tr(key, lang))}</th>" for key in COLUMNS)
    body = "".join("<tr><th scope='row'>" + escape(row.name) + "</th>"
                   + "".join(f"<td>{escape(cell)}</td>" for cell in row.cells()[1:]) + "</tr>"
                   for row in field_rows(game, lang))
    # the clipped box is a block around the table: a table grows to its widest row whatever its width says, and that
    # width, clipped or not, made a phone's page wider than its screen
    return (f"<div class='lp-board-text' style='{SR_ONLY}'><table><caption>{escape(tr('boardtext.caption', lang))}</caption>"
            f"<thead><tr>{head}</tr></thead><tbody>{body}</tbody></table></div>")


def announcement(game: Game, lang: str) -> str:
    """The last turn step in words: the roll and where it landed in one sentence, then what followed it.

    With no roll yet in this turn, the last event's sentence (the turn that began, a purchase).
    """
    log = game.log
    if not log:
        return ""
    start = turn_start(log)
    at = next((k for k in range(len(log) - 1, start - 1, -1) if isinstance(log[k], E.Rolled)), None)
    if at is None:
        return game.describe(log[-1], lang)
    rolled = log[at]
    assert isinstance(rolled, E.Rolled)
    rest = list(log[at + 1:])
    moved = next((e for e in rest if isinstance(e, E.Moved) and e.who == rolled.who), None)
    who = game.party_name(rolled.who, lang)
    if moved is None:
        sentences = [game.describe(rolled, lang)]
    else:
        rest.remove(moved)
        owner = game.owner[moved.dst]
        field = game.field_name(moved.dst, lang)
        if owner >= 0 and owner != rolled.who:
            first = tr("boardtext.landed_owned", lang, who=who, d1=rolled.d1, d2=rolled.d2, field=field,
                       owner=game.players[owner].name)
        else:
            first = tr("boardtext.landed", lang, who=who, d1=rolled.d1, d2=rolled.d2, field=field)
        sentences = [first]
    sentences += [game.describe(e, lang) for e in rest]
    return " ".join(s for s in sentences if s)

