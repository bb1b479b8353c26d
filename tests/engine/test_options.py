"""Rule options: overrides by name with clear errors; events read as sentences."""

from __future__ import annotations

import pytest
from helpers import give

from laspoly import Game, RuleOptionError, RuleOptions
from laspoly.engine import actions as A


def test_unknown_option_lists_the_options() -> None:
    with pytest.raises(RuleOptionError, match=r"unknown rule option 'jail'.*jail_exit"):
        Game(2, rules={"jail": 1})


def test_bad_choice_lists_the_allowed_values() -> None:
    with pytest.raises(RuleOptionError, match="choose one of: doubles, total_3, any_die_3"):
        RuleOptions().with_overrides({"jail_exit": "magic"})


def test_numbers_are_range_checked_and_cli_strings_coerced() -> None:
    assert RuleOptions().with_overrides({"start_money": "2000", "auctions": "true"}).start_money == 2000
    with pytest.raises(RuleOptionError, match="from 1 to"):
        RuleOptions().with_overrides({"start_money": 0})
    with pytest.raises(RuleOptionError, match="whole number"):
        RuleOptions().with_overrides({"start_money": "lots"})


def test_rent_event_reads_as_a_plain_sentence() -> None:
    g = Game(["Ana", "Ben"], seed=4, dice="1-2")
    give(g, 1, "Glitter Gulch")
    g.apply(A.Roll(0))
    texts = [g.describe(e) for e in g.log]
    assert "Ana paid 5 LPD rent to Ben for Glitter Gulch." in texts
    assert "Ana pagó 5 LPD de alquiler a Ben por Glitter Gulch." in [g.describe(e, "es") for e in g.log]
