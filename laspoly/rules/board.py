"""Boards and card decks as validated data.

A board file is JSON with a ``format`` tag, the 40 (or any number of) fields,
the colour groups, the currency and the card decks.  The loader checks every
field and every card and reports *all* problems it finds in one
:class:`BoardError`, so a teacher editing a board sees the whole list at once.
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from laspoly.errors import BoardError

BOARD_FORMAT = "laspoly-board"
BOARD_VERSION = 1
MAX_BOARD_BYTES = 1_000_000
MAX_MONEY = 10_000_000

#: Field kinds the engine knows.  Property kinds can be owned.
FIELD_KINDS = (
    "start",  # salary field (Start, INICIO, GO)
    "street",  # street / Escultura: rent from the card and its buildings
    "station",  # station / Parque / railroad: rent by number owned
    "attraction",  # attraction / utility: rent is dice total times a multiplier
    "tax",  # pay a fixed amount to the bank or the pot
    "pot",  # casino / BOTE: pays out of the pot
    "card",  # draw from a deck
    "prison",  # prison or jail; just visiting when not sent there
    "go_to_prison",  # sends the player to prison
    "free",  # free parking: nothing happens
)
PROPERTY_KINDS = ("street", "station", "attraction")
LANGS = ("en", "es")

CARD_EFFECTS: dict[str, tuple[str, ...]] = {
    "advance_to": ("field",),
    "advance_to_nearest": ("kind", "rent_multiplier"),
    "move": ("steps",),
    "go_to_prison": (),
    "pay": ("amount", "to"),
    "collect": ("amount",),
    "pay_each_player": ("amount",),
    "collect_from_each_player": ("amount",),
    "repairs": ("house", "hotel", "factory", "to"),
    "get_out_of_prison": (),
}
OPTIONAL_EFFECT_KEYS = {"rent_multiplier", "factory", "to"}


@dataclass(frozen=True, slots=True)
class Field:
    """One square of the board, with its card numbers when it is a property."""

    index: int
    kind: str
    name: dict[str, str]
    group: str | None = None
    price: int = 0
    rents: tuple[int, ...] = ()
    house_price: int = 0
    hotel_price: int = 0
    factory_price: int = 0
    factory_income: int = 0
    mortgage: int = 0
    amount: int = 0
    to: str = "bank"
    deck: str | None = None

    @property
    def is_property(self) -> bool:
        """True for fields that can be bought and owned."""
        return self.kind in PROPERTY_KINDS

    def label(self, lang: str = "en") -> str:
        """The field's name in ``lang``, falling back to English."""
        return self.name.get(lang) or self.name["en"]


@dataclass(frozen=True, slots=True)
class Card:
    """A card of a deck: its text and one effect described as data."""

    id: str
    text: dict[str, str]
    effect: str
    args: dict[str, Any] = field(default_factory=dict)

    def label(self, lang: str = "en") -> str:
        """The card's text in ``lang``, falling back to English."""
        return self.text.get(lang) or self.text["en"]


@dataclass(frozen=True, slots=True)
class Group:
    """A colour group: its display name, colour and streets."""

    id: str
    name: dict[str, str]
    color: str
    fields: tuple[int, ...]

    def label(self, lang: str = "en") -> str:
        """The group's name in ``lang``, falling back to English."""
        return self.name.get(lang) or self.name["en"]


@dataclass(frozen=True, slots=True)
class Board:
    """A whole board: fields, groups, decks and currency."""

    id: str
    name: dict[str, str]
    currency: str
    fields: tuple[Field, ...]
    groups: dict[str, Group]
    decks: dict[str, tuple[Card, ...]]

    @property
    def size(self) -> int:
        """Number of fields on the board."""
        return len(self.fields)

    def fields_of_kind(self, kind: str) -> tuple[int, ...]:
        """Indices of every field of ``kind``, in board order."""
        return tuple(f.index for f in self.fields if f.kind == kind)

    def find(self, name: str) -> int:
        """Index of the field whose name (any language) is ``name``."""
        for f in self.fields:
            if name in f.name.values():
                return f.index
        raise KeyError(f"no field named {name!r} on board {self.id!r}")

    @property
    def prison(self) -> int | None:
        """Index of the prison field, or None on a board without one."""
        found = self.fields_of_kind("prison")
        return found[0] if found else None


# ---------------------------------------------------------------- loading


class _Problems:
    """Collects every problem found in a file so that one error lists them all."""

    def __init__(self) -> None:
        self.items: list[str] = []

    def add(self, where: str, what: str) -> None:
        self.items.append(f"{where}: {what}")

    def money(self, where: str, value: Any, *, allow_zero: bool = True) -> int:
        if isinstance(value, bool) or not isinstance(value, int):
            self.add(where, f"must be a whole number, not {value!r}"[:200])
            return 0
        if value < 0 or (value == 0 and not allow_zero) or value > MAX_MONEY:
            self.add(where, f"must be between {0 if allow_zero else 1} and {MAX_MONEY}, not {value}")
            return 0
        return value

    def names(self, where: str, value: Any) -> dict[str, str]:
        if isinstance(value, str):
            value = {"en": value}
        if not isinstance(value, dict) or not isinstance(value.get("en"), str) or not value["en"].strip():
            self.add(where, "needs a name: a string or an object with an 'en' string")
            return {"en": "?"}
        out = {}
        for lang, text in value.items():
            if lang not in LANGS or not isinstance(text, str) or len(text) > 200:
                self.add(where, f"name language {lang!r} must be one of {LANGS} with a text of at most 200 characters")
            else:
                out[lang] = text
        return out


def _check_keys(p: _Problems, where: str, obj: dict[str, Any], allowed: set[str]) -> None:
    unknown = sorted(set(obj) - allowed)
    if unknown:
        p.add(where, f"unknown key(s) {', '.join(map(repr, unknown))}; allowed: {', '.join(sorted(allowed))}")


_FIELD_KEYS = {
    "kind", "name", "group", "price", "rents", "house_price", "hotel_price",
    "factory_price", "factory_income", "mortgage", "amount", "to", "deck",
}


def _parse_field(p: _Problems, i: int, raw: Any) -> Field | None:
    where = f"fields[{i}]"
    if not isinstance(raw, dict):
        p.add(where, "must be an object")
        return None
    _check_keys(p, where, raw, _FIELD_KEYS)
    kind = raw.get("kind")
    if kind not in FIELD_KINDS:
        p.add(where, f"kind {kind!r} is not one of {', '.join(FIELD_KINDS)}")
        return None
    name = p.names(where, raw.get("name"))
    kw: dict[str, Any] = {}
    if kind in PROPERTY_KINDS:
        kw["price"] = p.money(f"{where} ({name['en']}).price", raw.get("price"), allow_zero=False)
        mortgage = raw.get("mortgage", kw["price"] // 2)
        kw["mortgage"] = p.money(f"{where} ({name['en']}).mortgage", mortgage)
    if kind == "street":
        _parse_street(p, f"{where} ({name['en']})", raw, kw)
    elif kind == "tax":
        kw["amount"] = p.money(f"{where}.amount", raw.get("amount"), allow_zero=False)
    if kind == "tax" or "to" in raw:
        to = raw.get("to", "bank")
        if to not in ("bank", "pot"):
            p.add(f"{where}.to", f"must be 'bank' or 'pot', not {to!r}")
        else:  # a field holds only values of its types, even on a board that the problems found will refuse
            kw["to"] = to
    if kind == "card":
        deck = raw.get("deck")
        if not isinstance(deck, str):
            p.add(f"{where}.deck", "a card field names its deck")
            deck = None
        kw["deck"] = deck
    return Field(index=i, kind=kind, name=name, **kw)


def _parse_street(p: _Problems, where: str, raw: dict[str, Any], kw: dict[str, Any]) -> None:
    group = raw.get("group")
    if not isinstance(group, str):
        p.add(f"{where}.group", "a street belongs to a colour group")
        group = None
    kw["group"] = group
    rents = raw.get("rents")
    if not isinstance(rents, list) or not 1 <= len(rents) <= 6:
        p.add(f"{where}.rents", "must list the base rent, then the rents with 1-4 houses and with a hotel")
        rents = [0]
    kw["rents"] = tuple(p.money(f"{where}.rents[{k}]", r) for k, r in enumerate(rents))
    if any(b < a for a, b in zip(kw["rents"], kw["rents"][1:], strict=False)):
        p.add(f"{where}.rents", "must not fall as buildings are added")
    for key in ("house_price", "hotel_price", "factory_price", "factory_income"):
        if key in raw:
            kw[key] = p.money(f"{where}.{key}", raw[key])
    if len(kw["rents"]) > 1 and not kw.get("house_price"):
        p.add(f"{where}.house_price", "a street with building rents needs a house price")
    if kw.get("factory_price") and not kw.get("factory_income"):
        p.add(f"{where}.factory_income", "a street that allows a factory needs its income")


_CARD_KEYS = {"id", "text", "effect"}


def _parse_card(p: _Problems, deck: str, i: int, raw: Any, size: int) -> Card | None:
    where = f"decks.{deck}[{i}]"
    if not isinstance(raw, dict):
        p.add(where, "must be an object")
        return None
    _check_keys(p, where, raw, _CARD_KEYS)
    text = p.names(where, raw.get("text"))
    effect = raw.get("effect")
    if not isinstance(effect, dict) or not isinstance(effect.get("type"), str) or effect["type"] not in CARD_EFFECTS:
        found = effect.get("type") if isinstance(effect, dict) else effect
        p.add(where, f"effect type {str(found)[:40]!r} is not one of {', '.join(CARD_EFFECTS)}")
        return None
    kind = effect["type"]
    args = {k: v for k, v in effect.items() if k != "type"}
    _check_keys(p, f"{where}.effect", args, set(CARD_EFFECTS[kind]))
    for key in CARD_EFFECTS[kind]:
        if key not in args and key not in OPTIONAL_EFFECT_KEYS:
            p.add(f"{where}.effect", f"{kind} needs {key!r}")
    _check_card_args(p, where, kind, args, size)
    card_id = raw.get("id", f"{deck}-{i}")
    return Card(id=str(card_id), text=text, effect=kind, args=args)


def _check_card_args(p: _Problems, where: str, kind: str, args: dict[str, Any], size: int) -> None:
    for key in ("amount", "house", "hotel", "factory"):
        if key in args:
            p.money(f"{where}.effect.{key}", args[key])
    if "field" in args and not (isinstance(args["field"], int) and 0 <= args["field"] < size):
        p.add(f"{where}.effect.field", f"must be a field index from 0 to {size - 1}")
    if "steps" in args and not (isinstance(args["steps"], int) and 0 < abs(args["steps"]) < size):
        p.add(f"{where}.effect.steps", f"must be a non-zero whole number below {size}")
    if "to" in args and args["to"] not in ("bank", "pot"):
        p.add(f"{where}.effect.to", "must be 'bank' or 'pot'")
    if "kind" in args and args["kind"] not in PROPERTY_KINDS:
        p.add(f"{where}.effect.kind", f"must be one of {PROPERTY_KINDS}")
    if "rent_multiplier" in args and args["rent_multiplier"] not in (None, 1, 2, 10):
        p.add(f"{where}.effect.rent_multiplier", "must be 1, 2 or 10")


_BOARD_KEYS = {"format", "version", "id", "name", "currency", "groups", "fields", "decks", "notes"}


def board_from_dict(data: Any, source: str = "board") -> Board:
    """Validate a decoded board file and build a :class:`Board`.

    Raises :class:`BoardError` listing every problem found.
    """
    p = _Problems()
    if not isinstance(data, dict):
        raise BoardError(f"{source}: a board file holds a JSON object")
    if data.get("format") != BOARD_FORMAT:
        raise BoardError(f"{source}: not a laspoly board (format must be {BOARD_FORMAT!r})")
    if data.get("version") != BOARD_VERSION:
        raise BoardError(f"{source}: board version {data.get('version')!r} is not supported (expected {BOARD_VERSION})")
    _check_keys(p, "board", data, _BOARD_KEYS)
    raw_fields = data.get("fields")
    if not isinstance(raw_fields, list) or not 8 <= len(raw_fields) <= 80:
        raise BoardError(f"{source}: 'fields' must be a list of 8 to 80 fields")
    fields = [_parse_field(p, i, raw) for i, raw in enumerate(raw_fields)]
    groups = _parse_groups(p, data.get("groups"), fields)
    decks = _parse_decks(p, data.get("decks"), len(raw_fields))
    _check_board(p, fields, decks)
    if p.items:
        raise BoardError(f"{source}: {len(p.items)} problem(s):\n  - " + "\n  - ".join(p.items[:100]))
    currency = data.get("currency", "$")
    return Board(
        id=str(data.get("id", source)),
        name=p.names("name", data.get("name", source)),
        currency=str(currency)[:8],
        fields=tuple(f for f in fields if f is not None),
        groups=groups,
        decks=decks,
    )


def _parse_groups(p: _Problems, raw: Any, fields: list[Field | None]) -> dict[str, Group]:
    if not isinstance(raw, dict):
        p.add("groups", "must be an object of group id -> {name, color}")
        return {}
    groups = {}
    for gid, g in raw.items():
        if not isinstance(g, dict):
            p.add(f"groups.{gid}", "must be an object")
            continue
        members = tuple(f.index for f in fields if f is not None and f.group == gid)
        if not members:
            p.add(f"groups.{gid}", "has no streets")
        color = g.get("color")
        if not (isinstance(color, str) and color.startswith("#") and len(color) in (4, 7)):
            p.add(f"groups.{gid}.color", "must be a colour like '#8b4513'")
        groups[gid] = Group(gid, p.names(f"groups.{gid}", g.get("name")), str(color), members)
    for f in fields:
        if f is not None and f.kind == "street" and f.group not in groups:
            p.add(f"fields[{f.index}] ({f.name['en']})", f"group {f.group!r} is not declared in 'groups'")
    return groups


def _parse_decks(p: _Problems, raw: Any, size: int) -> dict[str, tuple[Card, ...]]:
    if raw is None:
        return {}
    if not isinstance(raw, dict):
        p.add("decks", "must be an object of deck id -> list of cards")
        return {}
    decks = {}
    for name, cards in raw.items():
        if not isinstance(cards, list) or not cards or len(cards) > 200:
            p.add(f"decks.{name}", "must be a list of 1 to 200 cards")
            continue
        parsed = [_parse_card(p, name, i, c, size) for i, c in enumerate(cards)]
        decks[name] = tuple(c for c in parsed if c is not None)
        ids = [c.id for c in decks[name]]
        if len(set(ids)) != len(ids):
            p.add(f"decks.{name}", "card ids must be unique")
    return decks


def _check_board(p: _Problems, fields: list[Field | None], decks: dict[str, tuple[Card, ...]]) -> None:
    kinds = [f.kind for f in fields if f is not None]
    if kinds.count("start") != 1 or (fields[0] is not None and fields[0].kind != "start"):
        p.add("fields", "field 0 must be the one start field")
    if kinds.count("prison") > 1:
        p.add("fields", "a board has at most one prison")
    if "go_to_prison" in kinds and "prison" not in kinds:
        p.add("fields", "a go-to-prison field needs a prison field")
    for f in fields:
        if f is not None and f.kind == "card" and f.deck is not None and f.deck not in decks:
            p.add(f"fields[{f.index}]", f"deck {f.deck!r} is not in 'decks'")
    for name, cards in decks.items():
        for c in cards:
            if c.effect == "go_to_prison" and "prison" not in kinds:
                p.add(f"decks.{name}.{c.id}", "sends to prison, but the board has none")
            if c.effect == "advance_to_nearest" and c.args.get("kind") not in kinds:
                p.add(f"decks.{name}.{c.id}", f"no {c.args.get('kind')!r} on the board")


def load_board(path: str | Path) -> Board:
    """Read and validate a board file; every problem is named in one :class:`BoardError`."""
    path = Path(path)
    try:
        size = path.stat().st_size
        if size > MAX_BOARD_BYTES:
            raise BoardError(f"{path.name}: {size} bytes is over the {MAX_BOARD_BYTES}-byte limit for a board file")
        text = path.read_text(encoding="utf-8")
    except OSError as exc:
        raise BoardError(f"{path.name}: cannot read the board file ({exc.strerror})") from None
    except UnicodeDecodeError:
        raise BoardError(f"{path.name}: a board file must be UTF-8 text") from None
    try:
        data = json.loads(text)
    except (json.JSONDecodeError, RecursionError) as exc:
        raise BoardError(f"{path.name}: not valid JSON ({exc})"[:300]) from None
    return board_from_dict(data, path.name)
