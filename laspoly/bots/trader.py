"""A bot that trades: it proposes, accepts and declines multi-asset offers, and bids, by the worth of its position.

:class:`TradingBot` buys, builds and raises money as :class:`~laspoly.bots.basic.BasicBot`
does, and weighs every trade and bid with an :class:`~laspoly.bots.valuation.Appraiser`:

* it accepts an offer only when the offer raises its worth (L16: on its own turn, the
  first thing it does, whoever proposed it, a person or a bot);
* before it rolls it looks for the trade that completes one of its colour groups, with the
  missing streets held by one rival: for cash, for the streets that complete a group of the
  rival's (a swap), or for a street of a group it cannot complete.  Where the missing streets
  are split among rivals it offers cash for one rival's part, a step towards the group.  It prices the rival's
  side with its own appraiser and offers cash that leaves the rival ``share`` of the joint
  gain, and proposes only a trade that raises its own worth;
* it never loops: at most ``offers_per_turn`` offers a turn, one pending offer per rival, and
  an offer that was refused is not made again for ``patience`` rounds, nor ever on the same terms;
* in an auction it bids up to what the field adds to its worth.

The search runs only when the owners changed since the last fruitless one, or after a wait that
doubles while nothing changes, so a game of trading bots costs little more than one of basic bots.
"""

from __future__ import annotations

from laspoly.bots.basic import BasicBot
from laspoly.bots.valuation import Appraisal, Appraiser, holds_tradable_part
from laspoly.engine import actions as A
from laspoly.engine.native import mypyc_attr
from laspoly.engine.observation import Observation
from laspoly.engine.state import TradeOffer

#: What a Get-Out-of-Prison card is worth in a trade.
CARD_WORTH = 50
#: A search that found nothing is repeated after this many rounds even when no owner changed (cash did),
#: and the wait doubles with every fruitless search in a row, up to ``SEARCH_AT_MOST`` rounds.
SEARCH_EVERY = 3
SEARCH_AT_MOST = 48

OfferKey = tuple[int, tuple[int, ...], tuple[int, ...]]  # (to, give, take)


@mypyc_attr(allow_interpreted_subclasses=True)  # a bot of one's own (a lesson's, a test's) builds on these
class TradingBot(BasicBot):
    """BasicBot's play, with trades and bids weighed by the worth of its position.

    * ``appraiser``: how it prices a position (default: horizon 12 rounds, reserve as the bot's);
    * ``share``: the share of a trade's joint gain it leaves to the other side when it proposes;
    * ``accept_above``: the least gain in worth for which it accepts an offer (0: any gain);
    * ``offers_per_turn``, ``patience``: at most so many offers a turn; a refused offer waits so many rounds;
    * ``think_seconds``: how long a table should let it seem to think before each decision (a person's pace).
    """

    name = "dealer"

    def __init__(self, reserve: int = 150, prefer: str = "houses", *, jail: str = "auto", appraiser: Appraiser | None = None,
                 share: float = 0.4, accept_above: float = 0.0, offers_per_turn: int = 2, patience: int = 5,
                 think_seconds: float = 0.0) -> None:
        super().__init__(reserve, prefer, jail=jail)
        if not 0.0 <= share <= 1.0:
            raise ValueError("share must be between 0 and 1")
        self.appraiser = appraiser or Appraiser(reserve=reserve)
        self.share = share
        self.accept_above = accept_above
        self.offers_per_turn = offers_per_turn
        self.patience = patience
        self.think_seconds = think_seconds
        self.refused: dict[OfferKey, tuple[int, int]] = {}  # offer -> (round refused, its cash)
        self._pending: dict[OfferKey, int] = {}  # my offers awaiting an answer, with their cash
        self._this_turn: tuple[int, int] = (-1, 0)  # (game turn, offers made in it)
        self._fruitless: tuple[int, int, int] = (-1, -99, 0)  # (owner version, round, rounds to wait) after a search that found nothing
        self._bid_limit: tuple[int, int, float] = (-1, -1, 0.0)  # (field, owner version, highest bid)
        self._candidates_seen: tuple[Appraisal | None, int, int, list[OfferKey]] = (None, -1, -1, [])  # (appraisal, gen, me, candidates)
        # After its roll this bot only ends its turn, unless an offer of its own waits for an answer (it then notes
        # the answers first): while none waits the runner ends the turn without asking it, as it does for BasicBot.
        self._plain_turns = type(self)._turn is TradingBot._turn and type(self).choose is BasicBot.choose
        self.ends_turn_after_roll = self._plain_turns

    def _turn(self, game: Observation, me: int) -> A.Action:
        if self._pending:
            self._note_answers(game, me)
        if game.offers:
            for o in game.offers.values():
                if o.receiver == me:
                    return A.AcceptTrade(me, o.id) if self.accepts(game, me, o) else A.DeclineTrade(me, o.id)
        if game.rolls_due and not game.prison_tries:
            offer = self._propose(game, me)
            if offer is not None:
                return offer
        return BasicBot._turn(self, game, me)  # named, not super(): a super object made on every decision costs more than the call

    # -- answering
    def accepts(self, game: Observation, me: int, o: TradeOffer) -> bool:
        """Whether the offer raises this bot's worth by more than ``accept_above`` (and is still legal)."""
        gain = self.appraiser.gain(game, me, o.proposer, o.receiver, o.give, o.take, o.cash)
        gain += CARD_WORTH * (o.give_cards - o.take_cards)
        return gain > self.accept_above and game.is_legal(A.AcceptTrade(me, o.id))

    def _note_answers(self, game: Observation, me: int) -> None:
        """Remember which of this bot's offers were refused (gone, and the streets did not come)."""
        open_ = {(o.receiver, o.give, o.take) for o in game.offers.values() if o.proposer == me}
        for key in [key for key in self._pending if key not in open_]:
            cash = self._pending.pop(key)
            if not all(game.owner[j] == me for j in key[2]):
                self.refused[key] = (game.round, cash)
        self.ends_turn_after_roll = self._plain_turns and not self._pending

    # -- proposing
    def _propose(self, game: Observation, me: int) -> A.Action | None:
        """The best trade that completes a group of this bot's, if one raises its worth and was not just refused."""
        version, last, wait = self._fruitless  # asked first: it ends most of the calls
        if version == game.owner_version and game.round - last < wait:
            return None
        turn, made = self._this_turn
        if turn != game.turns:
            turn, made = game.turns, 0
        if made >= self.offers_per_turn:
            return None
        best: tuple[float, int, OfferKey] | None = None  # (gain, cash, offer)
        # no group a trade could complete holds a street of this bot's: nothing to search, and the position is not
        # appraised (a fact of the owners alone)
        appraisal = self.appraiser.appraisal(game) if holds_tradable_part(game.owner, game.board_groups, me) else None
        for key in [] if appraisal is None else self._candidates(game, me, appraisal):
            refused = self.refused.get(key)
            if refused is not None and game.round - refused[0] < self.patience:
                continue  # refused lately: not priced at all (pricing only fills the appraisal's caches)
            terms = self._terms(game, me, key[0], key[1], key[2], appraisal)
            if terms is None:
                continue
            cash, gain = terms
            if refused is not None and cash == refused[1]:
                continue
            if best is None or gain > best[0]:
                best = (gain, cash, key)
        offer = None if best is None else A.ProposeTrade(me, best[2][0], best[2][1], best[2][2], best[1])
        if best is None or offer is None or not game.is_legal(offer):
            wait = min(2 * wait, SEARCH_AT_MOST) if version == game.owner_version else SEARCH_EVERY
            self._fruitless = (game.owner_version, game.round, wait)
            return None
        self._this_turn = (turn, made + 1)
        self._pending[best[2]] = best[1]
        self.ends_turn_after_roll = False  # asked after its roll again: it notes the answer to this offer
        return offer

    def _candidates(self, game: Observation, me: int, appraisal: Appraisal | None = None) -> list[OfferKey]:
        """(rival, give, take) offers towards each group this bot holds part of and rivals hold the rest of.

        They depend on who owns what, what is built and who is still in, so they are found once per
        position (the appraisal's ``gen``) and only filtered for the rivals an offer of this bot waits on.
        """
        if appraisal is None:
            appraisal = self.appraiser.appraisal(game)
        seen, gen, who, found = self._candidates_seen
        if seen is not appraisal or gen != appraisal.gen or who != me:
            found = self._find_candidates(game, me, appraisal)
            self._candidates_seen = (appraisal, appraisal.gen, me, found)
        if not game.offers:
            return found
        waiting = {o.receiver for o in game.offers.values() if o.proposer == me}
        return [c for c in found if c[0] not in waiting] if waiting else found

    def _find_candidates(self, game: Observation, me: int, appraisal: Appraisal) -> list[OfferKey]:
        """The candidates of :meth:`_candidates` in the position as it is, before any rival is left out for a pending offer.

        Only the groups a trade could complete (every street owned, by two players or more, as the
        appraisal keeps them) are looked at, and only those this bot holds part of.
        """
        holders_of = appraisal.holders
        mine = [i for i in appraisal.tradable if me in holders_of[i]]
        if not mine:
            return []
        owner, level, factory, players = game.owner, game.level, game.factory, game.players
        groups = game.board_groups
        mine_spare: list[int] | None = None  # my unbuilt streets in groups a rival holds part of, found when needed
        out: list[OfferKey] = []
        for i in mine:
            group = groups[i]
            missing = tuple(j for j in group if owner[j] != me)
            rivals = {owner[j] for j in missing}  # built as the streets come, so a set of players iterates as it always did
            if len(rivals) > 1:  # a group split among rivals: buy one rival's part for cash, a step closer
                out += [(r, (), tuple(j for j in missing if owner[j] == r)) for r in rivals if players[r].active]
                continue
            rival = rivals.pop()
            if not players[rival].active:
                continue
            gives: list[tuple[int, ...]] = [()]
            pair = {rival, me}
            for k, held in enumerate(holders_of):  # a swap: the streets that complete a group of the rival's
                if k != i and held == pair:
                    gives.append(tuple(j for j in groups[k] if owner[j] == me))
            if mine_spare is None:  # a group a rival holds part of: one holder besides this bot and "nobody" (-1)
                mine_spare = [j for g, held in zip(groups, holders_of, strict=True) if len(held) > (me in held) + (-1 in held)
                              for j in g if owner[j] == me and not level[j] and not factory[j]]
            gives += [(j,) for j in mine_spare if j not in group]  # the missing streets are the group's
            out += [(rival, give, missing) for give in gives]
        return out

    def _priced(self, game: Observation, me: int, to: int, give: tuple[int, ...], take: tuple[int, ...],
                appraisal: Appraisal | None = None) -> tuple[A.ProposeTrade, float] | None:
        """The offer with the cash that leaves the rival ``share`` of the joint gain, and its gain to this bot;
        None if there is no gain to share.

        The fields' part of each side's gain is priced once (by the game's ``appraisal``) and the
        cash's added to it, the sum :meth:`Appraiser.gain` makes.
        """
        terms = self._terms(game, me, to, give, take, appraisal)
        return None if terms is None else (A.ProposeTrade(me, to, give, take, terms[0]), terms[1])

    def _terms(self, game: Observation, me: int, to: int, give: tuple[int, ...], take: tuple[int, ...],
               appraisal: Appraisal | None = None) -> tuple[int, float] | None:
        """:meth:`_priced`'s cash and gain, without making the offer (a search makes only the best one)."""
        appraiser = self.appraiser  # its methods called directly: native calls in the compiled build
        if appraisal is None:
            appraisal = appraiser.appraisal(game)
        held_mine, held_theirs = appraiser.holdings_gains_in(appraisal, game, me, to, give, take)
        if held_mine + held_theirs <= 0:  # the trade's cash is 0 so far: each side's gain is its fields'
            return None
        cash = int(self.share * (held_mine + held_theirs) - held_theirs)
        cash = -((-cash) // 10) * 10  # round up to 10, in the rival's favour
        mine_before, theirs_before = game.players[me].cash, game.players[to].cash
        cash = min(cash, mine_before - self.reserve) if cash > 0 else max(cash, -theirs_before)
        # Appraiser.cash_gain of each side, with Appraiser._money written out: cash, less what is missing below the reserve
        reserve = appraiser.reserve
        mine_after, theirs_after = mine_before - cash, theirs_before + cash
        mine = (mine_after + (mine_after - reserve if mine_after < reserve else 0)) \
            - (mine_before + (mine_before - reserve if mine_before < reserve else 0)) + held_mine
        if mine <= 0 or (theirs_after + (theirs_after - reserve if theirs_after < reserve else 0)) \
                - (theirs_before + (theirs_before - reserve if theirs_before < reserve else 0)) + held_theirs <= 0:
            return None
        return cash, mine

    # -- auctions
    def _bid(self, game: Observation, me: int) -> A.Action:
        au = game.auction
        assert au is not None
        field, seen, limit = self._bid_limit
        if field != au.field or seen != game.owner_version:
            limit = self.appraiser.field_gain(game, me, au.field)
            self._bid_limit = (au.field, game.owner_version, limit)
        bid = au.high + max(10, game.fields[au.field].price // 10)
        if bid <= limit and game.players[me].cash - bid > self.reserve:
            return A.place_bid(me, bid)
        return A.PASS_AUCTION[me]  # the shared value, as BasicBot hands out
