"""Rule options: every reading of a rulebook that a preset can change.

A preset is a board plus a set of option values.  A teacher may override any
single option by name, from Python (``rules={"jail_exit": "any_die_3"}``) or
from the command line (``--rule jail_exit=any_die_3``).  Unknown names and bad
values raise :class:`RuleOptionError` that lists what is allowed.
"""

from __future__ import annotations

from dataclasses import dataclass, fields, replace
from typing import Any

from laspoly.errors import RuleOptionError


@dataclass(frozen=True, slots=True)
class Spec:
    """What one option allows: a set of choices, or a whole-number range."""

    doc: str
    choices: tuple[Any, ...] = ()
    low: int | None = None
    high: int | None = None

    def check(self, name: str, value: Any) -> Any:
        """Return ``value`` if allowed (coercing CLI strings), else raise."""
        if self.choices:
            if isinstance(value, str) and all(isinstance(c, bool) for c in self.choices):
                value = {"true": True, "false": False, "yes": True, "no": False}.get(value.lower(), value)
            if value not in self.choices or type(value) is not type(self.choices[0]):
                allowed = ", ".join(_show(c) for c in self.choices)
                raise RuleOptionError(f"rule option {name}={_show(value)} is not allowed; choose one of: {allowed}")
            return value
        low, high = self.low, self.high
        assert low is not None and high is not None, f"rule option {name} has neither choices nor a range"
        if isinstance(value, str):
            try:
                value = int(value)
            except ValueError:
                raise RuleOptionError(f"rule option {name} takes a whole number, not {value!r}") from None
        if isinstance(value, bool) or not isinstance(value, int) or not low <= value <= high:
            raise RuleOptionError(f"rule option {name}={_show(value)} must be a whole number from {low} to {high}")
        return value


def _show(value: Any) -> str:
    return str(value).lower() if isinstance(value, bool) else str(value)


BOOL = (True, False)

SPECS: dict[str, Spec] = {
    "start_money": Spec("cash each player starts with", low=1, high=1_000_000),
    "first_player": Spec("random: a seeded draw (L1); roll_off: highest roll starts, ties roll again (C10)", ("random", "roll_off")),
    "salary": Spec("paid for passing the start field", low=0, high=100_000),
    "landing_salary": Spec("paid for landing exactly on the start field (L3: 400)", low=0, high=100_000),
    "salary_on_first_pass": Spec("false: the first pass of the start field pays nothing (C1)", BOOL),
    "doubles": Spec("extra_roll: doubles roll again (L13); none: doubles mean nothing (C12); standard: extra_roll with three_doubles=prison", ("extra_roll", "none", "standard")),
    "three_doubles": Spec("prison: third doubles go to prison unmoved (L13); lose_turn: move, then lose the next turn (S2); nothing", ("prison", "lose_turn", "nothing")),
    "jail_exit": Spec("doubles (L14); total_3: a dice total of 3 (C7); any_die_3: either die shows 3", ("doubles", "total_3", "any_die_3")),
    "jail_tries_per_turn": Spec("rolls a prisoner may try each turn (L14: 3, standard: 1)", low=1, high=3),
    "jail_fine": Spec("fine to leave prison", low=0, high=100_000),
    "jail_max_turns": Spec("prison turns before the fine is forced and the player moves by the last roll", low=1, high=10),
    "jail_fine_turns": Spec("the fine may be paid before rolling on the first N prison turns (C7: 2)", low=0, high=10),
    "jail_exit_move": Spec("exit_roll: move by the freeing roll (L14); roll_again: roll once more and move by that (C7)", ("exit_roll", "roll_again")),
    "auctions": Spec("a declined property is auctioned among the other players (C2)", BOOL),
    "station_rent": Spec("doubling: base x 2^(n-1) (L7); doubling_from_2: base x 2^n; linear: base x n (C4)", ("doubling", "doubling_from_2", "linear")),
    "station_base_rent": Spec("the base of the station rent formula", low=0, high=100_000),
    "attraction_one": Spec("dice multiplier when the owner has one attraction (L6: 4)", low=0, high=100),
    "attraction_all": Spec("dice multiplier when the owner has every attraction (L6: 10)", low=0, high=100),
    "group_doubles_rent": Spec("a whole colour group doubles unbuilt base rent (L5, C3); false for S1", BOOL),
    "pot_payout": Spec("casino_doubles: quarter on doubles, half on double six (L8); all: the whole pot (S4); none", ("casino_doubles", "all", "none")),
    "mortgage_interest_percent": Spec("interest on repaying a mortgage, rounded up (L18: 10)", low=0, high=100),
    "mortgage_fee": Spec("flat fee on repaying a mortgage (S7: 100)", low=0, high=100_000),
    "mortgage_when": Spec("any_time, or debt_only: only to pay a debt cash cannot cover (S7)", ("any_time", "debt_only")),
    "house_price": Spec("card: the card's house price; mortgage_value: a house costs the mortgage value (C5)", ("card", "mortgage_value")),
    "max_houses": Spec("houses on a street before a hotel (0: no buildings at all)", low=0, high=4),
    "hotels": Spec("whether a hotel may follow the houses (S1 has only 4 Actualizaciones)", BOOL),
    "upgrades_lost_on_sale": Spec("buildings vanish when a property changes hands between players (S6)", BOOL),
    "trade_requires": Spec("unbuilt_property: traded properties have no buildings (L16); unbuilt_group: their group has none (C9); any", ("unbuilt_property", "unbuilt_group", "any")),
    "elimination": Spec("zero: cash that hits zero is out (L19); below_zero: only a debt that cannot be paid", ("zero", "below_zero")),
    "rent_claim": Spec("rent must be claimed by the owner before the next roll, or it lapses (C6, S9)", BOOL),
    "bankruptcy_to": Spec("bank: everything is sold to the bank, the creditor gets the cash and the properties return to the bank (L19, S8); creditor: a player creditor takes every asset, a bank debt sends the properties to auction (C8)", ("bank", "creditor")),
    "jail_cards_tradable": Spec("Get-Out-of-Jail-Free cards may be sold between players (C9)", BOOL),
    "building_shortage": Spec("the bank has only 32 houses and 12 hotels (an option of standard)", BOOL),
    "card_draw": Spec("cycle: the top card acts and goes to the bottom (L15, S4); random: each draw is a random card of the whole deck, a kept jail card being a copy (the model of the published probability tables)", ("cycle", "random")),
    "train_travel": Spec("after a station, travel once to another station for a fare (L10)", BOOL),
    "train_fare": Spec("fare per station passed (L10: 75)", low=0, high=100_000),
    "factory_income_when": Spec("owner_turn: bank pays the owner each turn (L12); landing: when someone lands there", ("owner_turn", "landing")),
}


@dataclass(frozen=True, slots=True)
class RuleOptions:
    """The values of every rule option for one game.  Defaults are Las Poly's."""

    start_money: int = 1300
    first_player: str = "random"
    salary: int = 200
    landing_salary: int = 400
    salary_on_first_pass: bool = True
    doubles: str = "extra_roll"
    three_doubles: str = "prison"
    jail_exit: str = "doubles"
    jail_tries_per_turn: int = 3
    jail_fine: int = 50
    jail_max_turns: int = 3
    jail_fine_turns: int = 3
    jail_exit_move: str = "exit_roll"
    auctions: bool = False
    station_rent: str = "doubling"
    station_base_rent: int = 50
    attraction_one: int = 4
    attraction_all: int = 10
    group_doubles_rent: bool = True
    pot_payout: str = "casino_doubles"
    mortgage_interest_percent: int = 10
    mortgage_fee: int = 0
    mortgage_when: str = "any_time"
    house_price: str = "card"
    max_houses: int = 4
    hotels: bool = True
    upgrades_lost_on_sale: bool = False
    trade_requires: str = "unbuilt_property"
    elimination: str = "zero"
    rent_claim: bool = False
    bankruptcy_to: str = "bank"
    jail_cards_tradable: bool = False
    building_shortage: bool = False
    card_draw: str = "cycle"
    train_travel: bool = True
    train_fare: int = 75
    factory_income_when: str = "owner_turn"

    def with_overrides(self, overrides: dict[str, Any] | None) -> RuleOptions:
        """A copy with ``overrides`` applied, each checked against its :data:`SPECS` entry."""
        if not overrides:
            return self
        if not isinstance(overrides, dict):
            raise RuleOptionError("rule overrides must be a mapping of option name to value")
        checked = {}
        for name, value in overrides.items():
            if name not in SPECS:
                raise RuleOptionError(f"unknown rule option {name!r}; options are: {', '.join(SPECS)}")
            checked[name] = SPECS[name].check(name, value)
        if checked.get("doubles") == "standard":
            # C12: `doubles=standard` restores the official rule: an extra roll, and prison on the third
            checked["doubles"] = "extra_roll"
            checked.setdefault("three_doubles", "prison")
        return replace(self, **checked)

    def as_dict(self) -> dict[str, Any]:
        """Every option and its value, in declaration order."""
        return {f.name: getattr(self, f.name) for f in fields(self)}


def parse_rule_args(items: list[str] | None) -> dict[str, str]:
    """Turn command-line ``name=value`` strings into an override mapping."""
    out: dict[str, str] = {}
    for item in items or []:
        name, sep, value = item.partition("=")
        if not sep or not name.strip():
            raise RuleOptionError(f"--rule takes name=value, not {item!r}; options are: {', '.join(SPECS)}")
        out[name.strip()] = value.strip()
    return out


def describe_options() -> str:
    """A plain-text table of every option, for ``--help`` and the docs."""
    lines = []
    for name, spec in SPECS.items():
        allowed = "|".join(_show(c) for c in spec.choices) if spec.choices else f"{spec.low}..{spec.high}"
        lines.append(f"{name} ({allowed}): {spec.doc}")
    return "\n".join(lines)
