"""The action registry: one entry per action type, holding everything the engine knows of it.

An :class:`ActionEntry` names an action type's

* **check**: why the action is illegal now, or ``None`` (a ``why_*`` function of
  :mod:`~laspoly.engine.legality` over the game's state), asked by ``why_illegal``;
* **effect**: what playing it changes (a ``do_*`` function of :mod:`~laspoly.engine.decisions` or
  :mod:`~laspoly.engine.turns` over the game's state), called by ``Game.push``;
* **candidates**: when ``legal_actions`` lists it and which values it lists (:class:`Candidates`);
* **words**: the key of its row in ``the catalogues (``laspoly/locale/*/LC_MESSAGES/laspoly.po``)``, which :func:`action_words`
  fills from the action's own fields, and which both the engine and the dashboard describe it with.

The entries are written at the bottom of :mod:`~laspoly.engine.game`, and :func:`register` files them
here when that module is imported.  The rule modules below it (legality, wording) read the tables this
module keeps, which makes every lookup the one dict access by ``type(action)`` it always was.  Adding an
action is its dataclass in :mod:`~laspoly.engine.actions`, its check and effect functions, one entry and
its messages in the catalogues.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import MISSING, dataclass, fields
from functools import cache
from typing import Any, Final

from laspoly.engine import words
from laspoly.engine.actions import Action
from laspoly.engine.state import MAX_PLAYERS
from laspoly.errors import SaveFileError

#: A check: ``(state, action)`` to the reason the action is refused, or None when it is legal.
Check = Callable[[Any, Any], "str | None"]
#: An effect: ``(state, action)`` plays an action already known to be legal.
Effect = Callable[[Any, Any], None]
#: The candidates a seat may be offered in a game: ``(state, player)`` to a sequence of actions.
Maker = Callable[[Any, int], Sequence[Action]]
#: The candidates a seat may be offered on one of its fields: ``(player, field)`` to a sequence of actions.
FieldMaker = Callable[[int, int], Sequence[Action]]

#: When :attr:`Candidates.when` lists an action for any seat, in every phase: a rent claim (C6).
ANY_SEAT: Final = "any_seat"
#: When it lists an action on each field the player to move owns, in the phases of :attr:`Candidates.phases`.
ON_FIELD: Final = "on_field"
#: When it lists the action for the player to move in one phase (:attr:`Candidates.phases`).
IN_PHASE: Final = "in_phase"
#: When it never lists it: a trade offer can be any mix of properties and cash, so it is only ever checked.
NEVER: Final = "never"


@dataclass(frozen=True, slots=True)
class Candidates:
    """When ``legal_actions`` lists an action type, and the values it lists.

    ``legal_actions`` lists, in this order, the candidates of every :data:`ANY_SEAT` entry; then, for
    the player to move, those of the :data:`IN_PHASE` entries of the current phase, in the registry's
    order; then, field by field of the player's own, those of every :data:`ON_FIELD` entry.  It keeps
    the ones the checks allow.  Bots read that order, so the game digests pin it.
    """

    when: str
    #: The phases in which the action is offered (:data:`IN_PHASE` and :data:`ON_FIELD`).
    phases: tuple[str, ...] = ()
    make: Maker | None = None
    on_field: FieldMaker | None = None
    #: An action that names nothing but its player: its one shared value per seat (``actions.ROLL``).
    seats: tuple[Action, ...] | None = None


def any_seat(make: Maker) -> Candidates:
    """Candidates of any seat in any phase, made by ``make(game, player)``."""
    return Candidates(ANY_SEAT, make=make)


def in_phase(phase: str, make: Maker | None = None, *, seats: tuple[Action, ...] | None = None) -> Candidates:
    """Candidates of the player to move in ``phase``: made by ``make(game, player)``, or the seat's value of ``seats``."""
    return Candidates(IN_PHASE, (phase,), make=make, seats=seats)


def on_field(phases: tuple[str, ...], make: FieldMaker) -> Candidates:
    """Candidates of the player to move on each field they own in ``phases``, made by ``make(player, field)``."""
    return Candidates(ON_FIELD, phases, on_field=make)


NOT_LISTED: Final = Candidates(NEVER)


@dataclass(frozen=True, slots=True)
class ActionEntry:
    """Everything the engine knows of one action type besides its dataclass (see the module docstring)."""

    kind: type[Action]
    check: Check
    effect: Effect
    candidates: Candidates
    #: The catalogues' message that words it; ``{name}`` placeholders in the key take the action's fields
    #: (``action.Build.{building}`` is ``action.Build.hotel`` for a hotel).
    words: str


@dataclass(frozen=True, slots=True)
class PhasePart:
    """One step of listing a phase's candidates: one entry's maker, or the shared values of consecutive entries.

    ``seats[p]`` holds seat ``p``'s values of a run of entries with :attr:`Candidates.seats` (a turn's roll,
    end, fine and card), so ``legal_actions`` adds them in one step instead of one call per entry.
    """

    make: Maker | None
    seats: tuple[tuple[Action, ...], ...] | None


# ------------------------------------------------------------------ the tables, filled by register()

#: Every entry, by action type, in the registry's order.
ENTRIES: Final[dict[type[Action], ActionEntry]] = {}
#: Every action type by its class name: the ``type`` of an action in a save file.
ACTION_TYPES: Final[dict[str, type[Action]]] = {}
#: Each type's check, read by ``why_illegal`` (one dict access, as the hot path needs).
CHECKS: Final[dict[type[Action], Check]] = {}
#: Each type's effect, read by ``Game.push``.
EFFECTS: Final[dict[type[Action], Effect]] = {}
#: The fields of each action type that must hold a whole number, in the order ``why_illegal`` checks them.
WHOLE_NUMBERS: Final[dict[type[Action], tuple[str, ...]]] = {}
#: The candidate makers of :data:`ANY_SEAT` entries.
ANY_SEAT_MAKERS: Final[list[Maker]] = []
#: How to list the candidates of the :data:`IN_PHASE` entries, by phase, in the registry's order.
PHASE_PARTS: Final[dict[str, list[PhasePart]]] = {}
#: The phases in which ``legal_actions`` lists the :data:`ON_FIELD` candidates.
FIELD_PHASES: Final[set[str]] = set()
#: The makers of the :data:`ON_FIELD` entries, in the registry's order.
FIELD_MAKERS: Final[list[FieldMaker]] = []
#: Each seat's actions on each field, made the first time :func:`field_actions` is asked for them.
_ON_FIELD: Final[dict[int, tuple[Action, ...]]] = {}

_NUMBER_FIELDS: Final = ("field", "to", "offer", "amount", "cash", "give_cards", "take_cards")


def register(entries: Sequence[ActionEntry]) -> None:
    """File ``entries`` in the tables; an action type registered twice, or an entry lacking a part, raises."""
    for e in entries:
        if e.kind in ENTRIES or e.kind.__name__ in ACTION_TYPES:
            raise ValueError(f"{e.kind.__name__} is registered twice")
        c = e.candidates
        if not (callable(e.check) and callable(e.effect) and e.words.startswith("action.")):
            raise ValueError(f"{e.kind.__name__}'s entry needs a check, an effect and its words")
        listed = c.make is not None or (c.when == IN_PHASE and c.seats is not None and len(c.seats) == MAX_PLAYERS)
        if (c.when in (ANY_SEAT, IN_PHASE)) != listed or (c.when == ON_FIELD) != (c.on_field is not None):
            raise ValueError(f"{e.kind.__name__}'s candidates need a maker of their kind")
        if c.when == ON_FIELD and FIELD_MAKERS and set(c.phases) != FIELD_PHASES:
            raise ValueError(f"{e.kind.__name__}: every action on a field is offered in the same phases")
        ENTRIES[e.kind] = e
        ACTION_TYPES[e.kind.__name__] = e.kind
        CHECKS[e.kind] = e.check
        EFFECTS[e.kind] = e.effect
        names = {f.name for f in fields(e.kind)}
        WHOLE_NUMBERS[e.kind] = tuple(n for n in _NUMBER_FIELDS if n in names)
        if c.make is not None and c.when == ANY_SEAT:
            ANY_SEAT_MAKERS.append(c.make)
        elif c.when == IN_PHASE:
            for phase in c.phases:
                _add_part(PHASE_PARTS.setdefault(phase, []), c)
        elif c.on_field is not None:
            FIELD_MAKERS.append(c.on_field)
            FIELD_PHASES.update(c.phases)
    _ON_FIELD.clear()


def _add_part(parts: list[PhasePart], c: Candidates) -> None:
    """Add ``c`` to a phase's steps, joining its shared values to the step before when that holds shared values too."""
    if c.seats is None:
        parts.append(PhasePart(c.make, None))
    elif parts and parts[-1].seats is not None:
        before = parts[-1].seats
        assert before is not None
        parts[-1] = PhasePart(None, tuple((*before[p], c.seats[p]) for p in range(MAX_PLAYERS)))
    else:
        parts.append(PhasePart(None, tuple((v,) for v in c.seats)))


def field_actions(player: int, index: int) -> tuple[Action, ...]:
    """What ``player`` may try on field ``index`` on their turn: every :data:`ON_FIELD` entry's candidates.

    ``legal_actions`` checks these for every field a player owns; being immutable, they are made once
    per seat and field.  A seat that cannot exist gets new values (its actions are refused anyway).
    """
    key = index * MAX_PLAYERS + player if 0 <= player < MAX_PLAYERS and index >= 0 else -1
    acts = _ON_FIELD.get(key)
    if acts is None:
        made: list[Action] = []
        for make in FIELD_MAKERS:
            made += make(player, index)
        acts = tuple(made)
        if key >= 0:
            _ON_FIELD[key] = acts
    return acts


# ------------------------------------------------------------------ words


@cache
def words_key(action: Action) -> str:
    """The catalogue row that words ``action``: its entry's key with the action's fields put in."""
    key = ENTRIES[type(action)].words
    return key.format(**{f.name: getattr(action, f.name) for f in fields(action)}) if "{" in key else key


def action_words(action: Action, values: dict[str, Any], lang: str = "en", preset: str | None = None) -> str:
    """``action`` in words in ``lang``, in ``preset``'s own terms where it has them, filled with ``values``."""
    key = words_key(action)
    if not words.has(key):  # a building no message names ("castle"): the action type's general words
        key = f"action.{type(action).__name__}"
    return words.text(key, lang, preset, **values)


# ------------------------------------------------------------------ save files


def action_from_dict(data: Any) -> Action:
    """Rebuild an action from :meth:`Action.as_dict` output, checking every field's type."""
    if not isinstance(data, dict) or not isinstance(data.get("type"), str) or data["type"] not in ACTION_TYPES:
        raise SaveFileError(f"not an action: {str(data)[:120]}")
    cls = ACTION_TYPES[data["type"]]
    kwargs: dict[str, Any] = {}
    for f in fields(cls):
        if f.name not in data:
            if f.name == "player" or (f.default is MISSING and f.default_factory is MISSING):
                raise SaveFileError(f"{cls.__name__} needs {f.name!r}")
            continue
        value = data[f.name]
        # every value gets its field's type here: a compiled action refuses any other with a bare TypeError
        if f.name in ("give", "take"):  # a trade's lists of fields
            if not isinstance(value, list) or len(value) > 80 or not all(_is_int(v) for v in value):
                raise SaveFileError(f"{cls.__name__}.{f.name} must be a short list of whole numbers")
            value = tuple(value)
        elif f.name == "building":
            if value not in ("house", "hotel", "factory"):
                raise SaveFileError(f"Build.building must be house, hotel or factory, not {str(value)[:40]!r}")
        elif not _is_int(value):
            raise SaveFileError(f"{cls.__name__}.{f.name} must be a whole number, not {str(value)[:40]!r}")
        kwargs[f.name] = value
    extra = set(data) - {f.name for f in fields(cls)} - {"type"}
    if extra:
        raise SaveFileError(f"{cls.__name__} has unknown field(s) {sorted(extra)}")
    return cls(**kwargs)


def _is_int(value: Any) -> bool:
    return isinstance(value, int) and not isinstance(value, bool) and -10**9 <= value <= 10**9
