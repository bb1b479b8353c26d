"""Trading bots: they complete groups by trade, accept only what raises their worth, never loop, and finish games."""

from __future__ import annotations

import itertools

import pytest
from helpers import ANA, BEN, CY, give, new_game

from laspoly import Game
from laspoly.analysis.simulate import simulate, tournament
from laspoly.analysis.trades import trade_outcomes
from laspoly.bots.basic import BasicBot
from laspoly.bots.registry import DEFAULT_BOT, DEFAULT_OPPONENT, TEMPERAMENTS, make_bot
from laspoly.bots.runner import play_bot_turns, play_game
from laspoly.bots.trader import TradingBot
from laspoly.bots.valuation import Appraiser
from laspoly.engine import actions as A
from laspoly.engine import events as E
from laspoly.engine.observation import Observation

TRADING = ("dealer", "shark", "companion")


def _fremont_and_gulch_split(players: int = 3) -> Game:
    """Ana holds Fremont Street and Ben Glitter Gulch: each holds half of the first colour group."""
    g = new_game(None, players=players)
    give(g, ANA, "Fremont Street")
    give(g, BEN, "Glitter Gulch")
    return g


def test_a_trading_bot_completes_a_group_through_a_trade() -> None:
    g = _fremont_and_gulch_split()
    bots = [make_bot("dealer"), make_bot("dealer"), make_bot("basic")]
    offer = bots[ANA].choose(g.observe())
    assert isinstance(offer, A.ProposeTrade) and offer.to == BEN and offer.take == (3,) and offer.cash > 0
    g.apply(offer)
    play_bot_turns(g, bots, until=lambda game: game.current == ANA and game.turns > 1)
    assert any(isinstance(e, E.TradeAccepted) for e in g.log)
    assert g.owns_group(ANA, 1)


class _Auditor(TradingBot):
    """A dealer that records the gain in worth of every offer it accepts."""

    def __init__(self) -> None:
        super().__init__()
        self.accepted: list[float] = []

    def choose(self, game: Observation) -> A.Action:
        action = super().choose(game)
        if isinstance(action, A.AcceptTrade):
            o = game.offers[action.offer]
            self.accepted.append(self.appraiser.gain(game, action.player, o.proposer, o.receiver, o.give, o.take, o.cash))
        return action


@pytest.mark.parametrize("preset", ["laspoly", "sculptprice", "classic", "standard"])
def test_no_trading_bot_accepts_a_trade_that_lowers_its_worth(preset: str) -> None:
    accepted: list[float] = []
    for seed in range(6):
        bots = [_Auditor() for _ in range(3)] + [make_bot("shark")]
        play_game(Game(4, preset=preset, seed=seed, max_rounds=400), bots, validate=True)
        accepted += [gain for bot in bots[:3] for gain in bot.accepted]  # type: ignore[attr-defined]
    assert accepted and min(accepted) > 0


@pytest.mark.parametrize("name", TRADING)
def test_a_trading_bot_answers_a_persons_offer_on_its_own_turn_by_its_worth(name: str) -> None:
    for give_, take, cash, accepted in (((), (3,), 10, False), ((1,), (), 0, True)):
        g = _fremont_and_gulch_split()
        g.apply(A.ProposeTrade(ANA, BEN, give_, take, cash))  # Ana, a person, offers
        bot = make_bot(name)
        assert isinstance(bot, TradingBot)
        play_bot_turns(g, [make_bot("basic"), None, make_bot("basic")], until=lambda game: game.current == BEN)
        assert g.current == BEN and g.offers  # L16: the offer waits for Ben's own turn
        gain = bot.appraiser.gain(g.observe(), BEN, ANA, BEN, give_, take, cash)
        choice = bot.choose(g.observe())
        assert isinstance(choice, A.AcceptTrade if accepted else A.DeclineTrade)
        assert (gain > 0) == accepted


class _Refuser(BasicBot):
    """Declines every offer (and never offers)."""

    def _turn(self, game: Observation, me: int) -> A.Action:
        for o in game.offers.values():
            if o.receiver == me:
                return A.DeclineTrade(me, o.id)
        return super()._turn(game, me)


def test_a_refused_offer_is_not_repeated_at_once() -> None:
    g = _fremont_and_gulch_split()
    dealer = make_bot("dealer")
    assert isinstance(dealer, TradingBot)
    offers: list[tuple[int, A.ProposeTrade]] = []

    def commit(action: A.Action) -> None:
        if isinstance(action, A.ProposeTrade):
            offers.append((g.round, action))
        g.apply(action)

    play_bot_turns(g, [dealer, _Refuser(), make_bot("basic")], commit=commit, until=lambda game: game.round > 30)
    assert offers, "the dealer never offered"
    assert all(a.player == ANA for _, a in offers)
    for (r1, a1), (r2, a2) in itertools.pairwise(offers):
        assert a1 != a2, f"the refused offer {a1} was made again in round {r2}"
        if (a1.to, a1.give, a1.take) == (a2.to, a2.give, a2.take):
            assert r2 - r1 >= dealer.patience
    assert dealer.refused


def test_offers_per_turn_are_limited() -> None:
    g = _fremont_and_gulch_split(players=4)
    give(g, ANA, "Boulder Highway", "Red Rock Road")
    give(g, CY, "Mojave Drive")  # a second group Ana lacks one street of: more to offer for
    bot = make_bot("dealer")
    assert isinstance(bot, TradingBot)
    made = 0
    while made <= bot.offers_per_turn:
        action = bot.choose(g.observe())
        if not isinstance(action, A.ProposeTrade):
            break
        g.apply(action)
        made += 1
    assert made <= bot.offers_per_turn


@pytest.mark.parametrize("preset", ["laspoly", "sculptprice", "classic", "standard"])
def test_a_game_of_trading_bots_ends_on_every_preset(preset: str) -> None:
    for seed in range(3):
        g = play_game(Game(4, preset=preset, seed=seed, max_rounds=1000, keep_history=False),
                      [make_bot(name, seed=seed) for name in (*TRADING, DEFAULT_BOT)])
        assert g.end_reason != "net_worth", f"{preset} seed {seed} reached the cap"
        assert any(isinstance(e, E.TradeAccepted) for e in g.log)


def test_a_trading_temperament_is_significantly_stronger_than_the_plain_bot() -> None:
    """One dealer among three basic bots wins significantly more than its share, by the exact binomial test of the tournament."""
    result = tournament(["dealer", "basic", "basic", "basic"], games=120, seed=3).as_dict()  # seats rotate
    against_basic = {p["a"]: p["p_value"] for p in result["pairs"] if p["b"] == "basic"}
    rates = {row["bot"]: row["win_rate"] for row in result["bots"]}
    assert any(p < 0.05 and rates[name] > rates["basic"] for name, p in against_basic.items()), (rates, against_basic)


def test_the_defaults_are_trading_bots_and_the_companion_paces_like_a_person() -> None:
    assert isinstance(make_bot(DEFAULT_BOT), TradingBot)
    companion = make_bot(DEFAULT_OPPONENT)
    assert DEFAULT_OPPONENT == "companion" and isinstance(companion, TradingBot) and companion.think_seconds > 0
    assert make_bot(DEFAULT_BOT).think_seconds == 0  # type: ignore[attr-defined]


def test_the_companions_former_name_still_reads_from_saves_rooms_and_command_lines() -> None:
    from laspoly.cli_args import bot_list
    from laspoly.server.table import check_seat

    former = make_bot("table", seed=3)
    # the compiled build's bots have slots, not a __dict__: compare what the two bots are, not their attribute dicts
    companion = make_bot("companion", seed=3)
    assert former.name == companion.name == "companion" and type(former) is type(companion)
    settings = ("reserve", "jail", "share", "accept_above", "offers_per_turn", "think_seconds")
    assert [getattr(former, s) for s in settings] == [getattr(companion, s) for s in settings]
    assert check_seat("table") == "companion" and bot_list("table,dealer") == ["companion", "dealer"]
    assert "table" not in TEMPERAMENTS  # "table" names the seat policy (laspoly.server.table), not a bot


def test_the_worth_counts_a_complete_group_above_its_halves() -> None:
    g = _fremont_and_gulch_split()
    appraiser = Appraiser()
    seen = g.observe()
    assert appraiser.gain(seen, ANA, ANA, BEN, (), (3,), 0) > g.fields[3].price
    assert appraiser.gain(seen, BEN, ANA, BEN, (), (3,), 0) < 0


def test_the_gain_of_a_trade_is_the_difference_of_the_worths_before_and_after() -> None:
    g2 = Game(4, preset="classic", seed=5, max_rounds=40)
    play_bot_turns(g2, [make_bot("basic") for _ in range(4)], until=lambda game: game.round > 25)
    seen, appraiser = g2.observe(), Appraiser()
    a, b = 0, 1
    give_, take = tuple(g2.owned_by(a)[:2]), tuple(g2.owned_by(b)[:1])
    owner = list(g2.owner)
    for j in give_:
        owner[j] = b
    for j in take:
        owner[j] = a
    cash = [p.cash for p in g2.players]
    cash[a] -= 40
    cash[b] += 40
    for who in (a, b, 2):
        expected = appraiser.worth(seen, who, owner, cash) - appraiser.worth(seen, who)
        assert appraiser.gain(seen, who, a, b, give_, take, 40) == pytest.approx(expected)


def test_a_trading_bot_bids_in_an_auction_up_to_what_the_field_adds_to_its_worth() -> None:
    bids = 0
    for seed in range(2):
        g = Game(3, preset="classic", seed=seed, max_rounds=50)
        dealer = make_bot("dealer")
        assert isinstance(dealer, TradingBot)

        def commit(action: A.Action, g: Game = g, dealer: TradingBot = dealer) -> None:
            nonlocal bids
            if isinstance(action, A.PlaceBid) and action.player == 0:
                au = g.auction
                assert au is not None
                owner = list(g.owner)
                owner[au.field] = 0
                seen = g.observe()
                assert action.amount <= dealer.appraiser.worth(seen, 0, owner) - dealer.appraiser.worth(seen, 0)
                bids += 1
            g.apply(action)

        play_bot_turns(g, [dealer, make_bot("basic"), make_bot("cautious")], commit=commit)
    assert bids > 0


def test_trade_outcomes_replay_the_simulated_games_and_name_who_completed_a_group_by_trade() -> None:
    outcomes = trade_outcomes("classic", 3, seed=4)
    records = simulate("classic", games=3, seed=4).records
    assert [(o.winner, o.rounds, o.capped) for o in outcomes] == [(r.winner, r.rounds, r.capped) for r in records]
    assert all(o.trades > 0 for o in outcomes) and any(o.won_by_trade for o in outcomes)
    for o in outcomes:
        assert o.won_by_trade == (o.winner in o.completed_by_trade)


def test_a_trading_bot_prices_its_offer_with_the_gain_the_appraiser_gives_it() -> None:
    """The bot prices a trade's fields once per side and adds each sum of cash, as :meth:`Appraiser.gain` does."""
    g = _fremont_and_gulch_split()
    seen, bot = g.observe(), make_bot("dealer")
    assert isinstance(bot, TradingBot)
    priced = bot._priced(seen, ANA, BEN, (), (3,))
    assert priced is not None
    offer, gain = priced
    appraiser = bot.appraiser
    assert gain == appraiser.gain(seen, ANA, ANA, BEN, (), (3,), offer.cash) > 0
    for who in (ANA, BEN, CY):
        for cash in (0, offer.cash, -30):
            parts = appraiser.cash_gain(seen, who, ANA, BEN, cash) + appraiser.holdings_gain(seen, who, ANA, BEN, (), (3,))
            assert appraiser.gain(seen, who, ANA, BEN, [], [3], cash) == parts


def _whole_board_worth(appraiser: Appraiser, seen: Observation, player: int, owner: list[int]) -> float:
    """The worth as the whole-board sum (every field's rate and flow worked out afresh): the oracle of the kept one."""
    rates = appraiser.rent_rates(seen, owner)
    rivals = sum(1 for p in seen.players if p.active) - 1
    flow = sum(rates[j] * rivals if o == player else (-rates[j] if o >= 0 and seen.players[o].active else 0.0)
               for j, o in enumerate(owner))
    assets = sum(seen.fields[j].mortgage for j, o in enumerate(owner) if o == player and not seen.mortgaged[j])
    cash = seen.players[player].cash
    return cash + min(0, cash - appraiser.reserve) + assets + appraiser.horizon * flow


@pytest.mark.parametrize("by_sets", [True, False], ids=["rates kept by set state", "rates worked out field by field"])
@pytest.mark.parametrize("seed", [11, 12], ids=["first game", "next game, with the first's kept prices"])
def test_an_appraisal_kept_through_a_game_prices_exactly_as_the_whole_board_sums(by_sets: bool, seed: int,
                                                                                 monkeypatch: pytest.MonkeyPatch) -> None:
    """Worths and trade gains read from the kept appraisal are the very floats the whole-board sums give (so play
    is as it was), on a board whose related sets are kept by their state and on one whose rates are worked out field
    by field, and in a game that starts with the set rates and priced trades an earlier game of the board left."""
    from laspoly.bots import valuation

    if seed != 11:  # an earlier game of the same board, rules and seats, whose appraisal the next one starts from
        play_game(Game(4, preset="standard", seed=11, max_rounds=60))
    g = Game(4, preset="standard", seed=seed, max_rounds=60)
    seen = g.observe()
    appraiser = Appraiser()
    monkeypatch.setattr(valuation.layout_of(seen), "partition", by_sets)
    if seed != 11:
        assert appraiser.appraisal(seen).pairs, "the next game starts with the trades the earlier one priced"
    bots = [make_bot("dealer", seed=k) for k in range(4)]
    asked = checked = 0

    def check(game: Game) -> bool:
        nonlocal asked, checked
        asked += 1
        if asked % 15:
            return False
        checked += 1
        owner = list(game.owner)
        appraisal = appraiser.appraisal(seen)
        for p, field in itertools.product(game.active_players, range(0, len(owner), 3)):
            bought = list(owner)
            bought[field] = p
            assert appraiser.field_gain(seen, p, field) == appraiser.worth(seen, p, bought) - appraiser.worth(seen, p)
        for p in game.active_players:
            assert appraiser.worth(seen, p) == _whole_board_worth(appraiser, seen, p, owner)
            assert valuation.holds_tradable_part(seen.owner, seen.board_groups, p) == any(p in appraisal.holders[i] for i in appraisal.tradable)
        for a, b in itertools.permutations(game.active_players, 2):
            give_, take = tuple(game.owned_by(a)[:1]), tuple(game.owned_by(b)[:2])
            if not give_ and not take:
                continue
            after = list(owner)
            for j in give_:
                after[j] = b
            for j in take:
                after[j] = a
            for who in (a, b):
                expected = _whole_board_worth(appraiser, seen, who, after) - _whole_board_worth(appraiser, seen, who, owner)
                assert appraiser.holdings_gain(seen, who, a, b, give_, take) == pytest.approx(expected, abs=1e-9)
                assert appraiser.worth(seen, who, after) == _whole_board_worth(appraiser, seen, who, after)
            pair = appraiser.holdings_gains_in(appraiser.appraisal(seen), seen, a, b, give_, take)
            assert pair == (appraiser.holdings_gain(seen, a, a, b, give_, take), appraiser.holdings_gain(seen, b, a, b, give_, take))
        return False

    play_bot_turns(g, bots, until=check)
    assert checked > 10 and g.owner_version > 20


def test_a_game_of_another_board_or_number_of_players_starts_its_appraisal_afresh() -> None:
    """Kept set rates and priced trades are keyed by states of one board, rules and seats: another count of players
    (whose seats the keys number alike) starts with empty ones."""
    play_game(Game(4, preset="standard", seed=3, max_rounds=60))
    assert Appraiser().appraisal(Game(4, preset="standard", seed=4).observe()).pairs
    fresh = Appraiser().appraisal(Game(3, preset="standard", seed=4).observe())
    assert not fresh.pairs and not fresh.memo


def test_a_dealer_is_asked_after_its_roll_only_while_an_offer_of_its_own_waits() -> None:
    """The runner ends a trading bot's turn after its roll without asking it, as for BasicBot, unless an offer it made
    waits for an answer: it then notes the answer first (and a refusal counts from that round)."""
    g = _fremont_and_gulch_split()
    dealer = make_bot("dealer")
    assert isinstance(dealer, TradingBot) and dealer.ends_turn_after_roll
    offer = dealer.choose(g.observe())
    assert isinstance(offer, A.ProposeTrade) and not dealer.ends_turn_after_roll
    g.apply(offer)
    play_bot_turns(g, [dealer, _Refuser(), make_bot("basic")], until=lambda game: bool(dealer.refused))
    assert dealer.refused, "the dealer noted the refusal"
    assert dealer.ends_turn_after_roll == (not dealer._pending)

    class Chatty(TradingBot):
        def _turn(self, game: Observation, me: int) -> A.Action:
            return super()._turn(game, me)

    assert not Chatty().ends_turn_after_roll, "a bot that decides turns its own way is asked after its roll"
