"""What a position is worth to a player: cash, properties, groups near completion and the rent they will earn.

A trading bot weighs an offer by comparing the worth of its position before and
after, so the worth is a function of the owner list and the cash, and any
hypothetical transfer can be priced without touching the game.

Rent is expected rent: each field's landing probability per turn, from the
exact movement chain (:mod:`laspoly.chain.movement`), times the rent it would
charge.  A street of a complete group is counted at the rent of its
``houses`` level (buildings the owner can add); a
street of an incomplete group at its base rent plus a share of that potential
that grows with how much of the group the player holds (halved while a rival
holds part of it, for the group is then a trade or two away).  The worth of a position is then

    cash + mortgage values + horizon x (rent the others will pay me - rent I will pay them),

with cash below the bot's reserve counted twice (a player without a cushion
loses the game to the first big rent).  The chain is walked once per board and
rules and kept, so a bot pays for it once per process, and only when it first
weighs a trade.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from itertools import compress, count
from operator import ne

from laspoly.engine.observation import Observation
from laspoly.rules.board import Board
from laspoly.rules.options import RuleOptions

_LANDINGS: dict[tuple[int, RuleOptions], tuple[Board, tuple[float, ...]]] = {}
#: The board, rules and landings asked for last, found by identity (hashing the rules is a cost per question).
_LAST_LANDINGS: list[tuple[Board, RuleOptions, tuple[float, ...]]] = []
#: Each appraiser's appraisal of the game it last priced (see :class:`Appraisal`); equal appraisers share one.
_APPRAISALS: dict[Appraiser, Appraisal] = {}
#: The appraisal each appraiser used last, by the appraiser's identity (kept with it, so the identity stays its own).
_BY_IDENTITY: dict[int, tuple[Appraiser, Appraisal]] = {}
#: Each board's layout of related fields (see :class:`Layout`), found by the identity of its fields.
_LAYOUTS: dict[int, Layout] = {}
#: Priced trades an appraisal keeps for its game and the next ones of its board, at most (then it starts again).
MEMO_SIZE = 20_000
#: A field's state in a memo key (owner, level, mortgage, factory) is one whole number below this.
_STATE_BITS = 16


def landings_per_turn(board: Board, rules: RuleOptions) -> tuple[float, ...]:
    """Expected landings on each field per player-turn, from the exact chain (walked once per board and rules)."""
    for last in _LAST_LANDINGS:  # at most one, read whole: the same board and rules again need no hashing of the rules
        if last[0] is board and last[1] is rules:
            return last[2]
    key = (id(board), rules)
    hit = _LANDINGS.get(key)
    if hit is not None and hit[0] is board:
        _LAST_LANDINGS[:] = [(board, rules, hit[1])]
        return hit[1]
    # numpy comes with the chain: imported here, so it is loaded only when a bot first weighs a trade
    from laspoly.chain.movement import MovementChain

    result = MovementChain(board, rules, "leave", None, "").solve("roll")
    land = tuple(float(p) * float(result.expected_rolls_per_turn) for p in result.squares)
    if len(_LANDINGS) >= 16:
        _LANDINGS.clear()
    _LANDINGS[key] = (board, land)
    _LAST_LANDINGS[:] = [(board, rules, land)]
    return land


@dataclass(frozen=True)
class Appraiser:
    """A temperament's way of pricing a position (see the module docstring).

    * ``horizon``: rounds of expected rent counted in the worth;
    * ``houses``: the building level a complete group is counted at;
    * ``closeness``: the share of that potential an incomplete, uncontested group is worth at full holding;
    * ``reserve``: cash below it counts twice.
    """

    horizon: float = 12.0
    houses: int = 3
    closeness: float = 0.3
    reserve: int = 150

    # The generated hash and equality, written out: the compiled build runs a dataclass's own as interpreted
    # Python, and both are asked on every priced trade (appraisers key the memos; equal ones share them).
    def __hash__(self) -> int:
        return hash((self.horizon, self.houses, self.closeness, self.reserve))

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, Appraiser):
            return NotImplemented
        return (self.horizon, self.houses, self.closeness, self.reserve) == (other.horizon, other.houses, other.closeness, other.reserve)

    def worth(self, game: Observation, player: int, owner: Sequence[int] | None = None,
              cash: Sequence[int] | None = None) -> float:
        """The worth of ``player``'s position, with ``owner`` and ``cash`` standing in for the game's when given.

        The game's own position is read from its :class:`Appraisal`; another owner list is priced
        again only where it differs from the game's (the fields whose rent the changed owners set).
        """
        appraisal = self.appraisal(game)
        flows, flow, assets = appraisal.flows_of(self, game, player)
        money = self._money(game.players[player].cash if cash is None else cash[player])
        if owner is None or owner is game.owner:
            return money + assets + self.horizon * flow
        return self._worth_under(appraisal, game, player, owner, _differences(game.owner, owner), money, flows, flow, assets)

    def field_gain(self, game: Observation, player: int, field: int) -> float:
        """What owning ``field`` (nobody's, or a rival's) would add to ``player``'s worth: what a bid goes up to.

        It is ``worth(game, player, owner) - worth(game, player)`` with ``owner`` the game's but for ``field``, the
        same float, with the position appraised once and the changed field known without comparing the lists.
        """
        appraisal = self.appraisal(game)
        flows, flow, assets = appraisal.flows_of(self, game, player)
        money = self._money(game.players[player].cash)
        owner = list(game.owner)
        owner[field] = player
        changed = [field] if game.owner[field] != player else []
        return self._worth_under(appraisal, game, player, owner, changed, money, flows, flow, assets) \
            - (money + assets + self.horizon * flow)

    def _worth_under(self, appraisal: Appraisal, game: Observation, player: int, owner: Sequence[int], changed: list[int],
                     money: float, flows: list[float], flow: float, assets: int) -> float:
        """:meth:`worth` under another owner list, which differs from the game's at ``changed``, from the game's own
        flows, ``flow`` (their sum) and ``assets``."""
        now = game.owner
        if not changed:
            return money + assets + self.horizon * flow
        after = list(flows)
        layout = appraisal.layout
        if layout.partition:  # the changed sets' rates, read by their state as a priced trade reads them
            hypothetical = owner if isinstance(owner, list) else list(owner)
            rates = appraisal.rates_after(self, game, tuple({layout.set_of[j] for j in changed}), hypothetical)
            for k, rate in rates.items():
                after[k] = appraisal.flow(game, player, owner[k], rate)
        else:
            land = landings_per_turn(game.board, game.rules)
            for k in sorted({k for j in changed for k in layout.dependents[j]}):
                after[k] = appraisal.flow(game, player, owner[k], self._rate(game, land, k, owner))
        for j in changed:
            if not game.mortgaged[j]:
                assets += game.fields[j].mortgage * ((owner[j] == player) - (now[j] == player))
        return money + assets + self.horizon * sum(after)

    def gain(self, game: Observation, player: int, proposer: int, receiver: int, give: Sequence[int],
             take: Sequence[int], cash: int) -> float:
        """How much a trade (``give`` from proposer, ``take`` from receiver, ``cash`` proposer to receiver) changes ``player``'s worth.

        Only the rents of the groups (and station or attraction sets) a traded field belongs
        to change, so only those are priced again; the rest of the board is read from the
        rates of the current position, kept for the decision.  It is :meth:`cash_gain` plus
        :meth:`holdings_gain`, which a bot pricing one trade at several sums asks once.
        """
        return self.cash_gain(game, player, proposer, receiver, cash) + self.holdings_gain(game, player, proposer, receiver, tuple(give), tuple(take))

    def cash_gain(self, game: Observation, player: int, proposer: int, receiver: int, cash: int) -> float:
        """The part of a trade's gain that its ``cash`` (proposer to receiver) makes for ``player``."""
        before = game.players[player].cash
        after = before - cash if player == proposer else before + cash if player == receiver else before
        return self._money(after) - self._money(before)

    def holdings_gain(self, game: Observation, player: int, proposer: int, receiver: int, give: tuple[int, ...],
                      take: tuple[int, ...]) -> float:
        """The part of a trade's gain that the fields make.

        Asked again in the same position it is one dictionary look-up.  Priced once, it is kept
        under the state of the fields it touches and the players still in, for the rest of the game
        and the next games of the board, so a change elsewhere on the board does not price it again.
        """
        return self.holdings_gain_in(self.appraisal(game), game, player, proposer, receiver, give, take)

    def holdings_gain_in(self, appraisal: Appraisal, game: Observation, player: int, proposer: int, receiver: int,
                         give: tuple[int, ...], take: tuple[int, ...]) -> float:
        """:meth:`holdings_gain` with the game's :class:`Appraisal`, for a bot that prices many trades in one decision."""
        key = (player, proposer, receiver, give, take)
        hit = appraisal.now.get(key)
        if hit is not None:
            return hit
        if appraisal.dirty:
            appraisal.settle(self, game)
        touched, sets = appraisal.layout.touched(give, take)
        tokens = appraisal.tokens
        lasting = (key, appraisal.active, tokens[sets[0]]) if len(sets) == 1 else (key, appraisal.active, *[tokens[s] for s in sets])
        memo = appraisal.memo
        found = memo.get(lasting)
        if found is None:
            if player == proposer or player == receiver:
                # a side of a trade its proposer priced in the same state of the touched sets (holdings_gains_in prices
                # both sides, each as it prices one): the receiver answering an offer reads its side from there
                pair = appraisal.pairs.get(((proposer, receiver, give, take), *lasting[1:]))
                if pair is not None:
                    found = pair[0] if player == proposer else pair[1]
            if found is None:
                found = self._price_holdings(game, appraisal, (player,), proposer, receiver, give, take, touched, sets)[0]
            if len(memo) > MEMO_SIZE:
                memo.clear()
            memo[lasting] = found
        appraisal.now[key] = found
        return found

    def holdings_gains_in(self, appraisal: Appraisal, game: Observation, proposer: int, receiver: int,
                          give: tuple[int, ...], take: tuple[int, ...]) -> tuple[float, float]:
        """:meth:`holdings_gain` of the proposer and of the receiver at once: what a bot proposing a trade asks.

        The pair is kept as :meth:`holdings_gain_in` keeps one gain, and priced in one pass (the
        owners and rates after the trade are worked out once for both sides).
        """
        if appraisal.dirty:
            appraisal.settle(self, game)
        touched, sets = appraisal.layout.touched(give, take)
        tokens = appraisal.tokens
        key = (proposer, receiver, give, take)
        lasting = (key, appraisal.active, tokens[sets[0]]) if len(sets) == 1 else (key, appraisal.active, *[tokens[s] for s in sets])
        memo = appraisal.pairs
        found = memo.get(lasting)
        if found is None:
            if len(memo) > MEMO_SIZE:
                memo.clear()
            both = self._price_holdings(game, appraisal, (proposer, receiver), proposer, receiver, give, take, touched, sets)
            found = memo[lasting] = (both[0], both[1])
        return found

    def _price_holdings(self, game: Observation, appraisal: Appraisal, players: tuple[int, ...], proposer: int, receiver: int,
                        give: tuple[int, ...], take: tuple[int, ...], touched: list[int], sets: tuple[int, ...]) -> list[float]:
        """Mortgage values and horizon x rent flow that change for each of ``players`` when ``give`` and ``take`` change hands.

        The rates after the trade are read set by set from the rates the appraisal has seen a
        related set's state give before (a set's rates depend on nothing else), and worked out
        only for a state not seen yet.
        """
        moved = dict.fromkeys(give, receiver) | dict.fromkeys(take, proposer)
        now_owner = game.owner
        owner = list(now_owner)
        for j, to in moved.items():
            owner[j] = to
        if appraisal.layout.partition:
            after = appraisal.rates_after(self, game, sets, owner)
        else:
            land = landings_per_turn(game.board, game.rules)
            after = {k: self._rate(game, land, k, owner) for k in touched}
        rivals, everyone, fields, mortgaged = appraisal.rivals, game.players, game.fields, game.mortgaged
        out: list[float] = []
        for player in players:
            now = appraisal.flows_of(self, game, player)[0]
            # Appraisal.flow of each touched field, written out
            flow = sum((after[k] * rivals if owner[k] == player else (-after[k] if owner[k] >= 0 and everyone[owner[k]].active else 0.0))
                       - now[k] for k in touched)
            assets = sum(fields[j].mortgage * ((owner[j] == player) - (now_owner[j] == player)) for j in moved if not mortgaged[j])
            out.append(assets + self.horizon * flow)
        return out

    def rent_rates(self, game: Observation, owner: Sequence[int]) -> list[float]:
        """Expected rent per opponent turn of every field under ``owner`` (0 where unowned or mortgaged)."""
        land = landings_per_turn(game.board, game.rules)
        return [self._rate(game, land, j, owner) for j in range(len(owner))]

    def appraisal(self, game: Observation) -> Appraisal:
        """This appraiser's :class:`Appraisal` of the game as it is now, brought up to date where it changed.

        Equal appraisers (every seat of one temperament) share one appraisal per game; each appraiser
        also finds the one it used last by its own identity, which hashes nothing.
        """
        mine = _BY_IDENTITY.get(id(self))
        if mine is not None and mine[0] is self:
            appraisal = mine[1]
            if appraisal.owner_list is game.owner and appraisal.fields is game.fields and appraisal.rules is game.rules:
                appraisal.refresh(self, game)
                return appraisal
        shared = _APPRAISALS.get(self)
        if shared is not None and shared.owner_list is game.owner and shared.fields is game.fields and shared.rules is game.rules:
            appraisal = shared
            appraisal.refresh(self, game)
        else:
            kept = shared if shared is not None and shared.fields is game.fields and shared.rules is game.rules \
                and shared.seats == len(game.players) else None
            appraisal = Appraisal(self, game, kept)
            _APPRAISALS[self] = appraisal
        if len(_BY_IDENTITY) >= 64:
            _BY_IDENTITY.clear()
        _BY_IDENTITY[id(self)] = (self, appraisal)
        return appraisal

    def _money(self, cash: int) -> float:
        """Cash, with what is missing below the reserve counted twice."""
        return cash + min(0, cash - self.reserve)

    @staticmethod
    def _related(game: Observation, j: int) -> tuple[int, ...]:
        """The fields whose rent depends on who owns ``j``: its colour group, or every station or attraction."""
        kind = game.fields[j].kind
        return game.stations if kind == "station" else game.attractions if kind == "attraction" else game.group_of[j]

    def _rate(self, game: Observation, land: tuple[float, ...], j: int, owner: Sequence[int]) -> float:
        """Expected rent of field ``j`` per opponent turn under ``owner`` (0 if unowned or mortgaged)."""
        o = owner[j]
        if o < 0 or game.mortgaged[j]:
            return 0.0
        kind = game.fields[j].kind
        if kind == "street":
            return land[j] * self._street_rent(game, j, owner, game.group_of[j])
        if kind in ("station", "attraction"):
            group = game.stations if kind == "station" else game.attractions
            n = sum(1 for k in group if owner[k] == o)
            return land[j] * self._rent_by_count(game, kind == "station", n, len(group))
        return 0.0

    def _street_rent(self, game: Observation, j: int, owner: Sequence[int], group: tuple[int, ...]) -> float:
        """The rent a street is counted at: built potential when the group is whole, base plus closeness otherwise."""
        f = game.fields[j]
        rules = game.rules
        if not f.rents or game.factory[j]:
            return 0.0
        base = f.rents[0]
        target = min(min(self.houses, rules.max_houses), len(f.rents) - 1)  # two-argument mins compile natively
        built = f.rents[min(game.level[j], len(f.rents) - 1)] if game.level[j] and owner[j] == game.owner[j] else 0
        potential = f.rents[target] if target else base
        mine = sum(1 for k in group if owner[k] == owner[j])
        if mine == len(group):
            whole = potential if target else base * (2 if rules.group_doubles_rent else 1)
            return max(whole, built)
        # partial progress is worth a share of the potential; half as much while a rival holds part of the group
        contested = any(owner[k] not in (owner[j], -1) for k in group)
        share = self.closeness * (mine / len(group)) ** 2 * (0.5 if contested else 1.0)
        return max(base + share * (potential - base), built)

    @staticmethod
    def _rent_by_count(game: Observation, is_station: bool, n: int, total: int) -> float:
        """Station rent by the number held, or an attraction's rent for an average roll of 7."""
        r = game.rules
        if is_station:
            if r.station_rent == "linear":
                return r.station_base_rent * n
            doubling: int = 2 ** (n - 1 if r.station_rent == "doubling" else n)  # n >= 1: a whole number
            return r.station_base_rent * doubling
        return 7 * (r.attraction_all if n == total else r.attraction_one)


class Layout:
    """Which fields' rents move together on a board, found once per board.

    A field's rent rate depends on its own state and on who owns its related fields (its colour
    group, or every station, or every attraction): ``dependents[j]`` are the fields whose rate a
    change at ``j`` can move, and ``sets`` the related sets a traded field belongs to, whose state
    keys a priced trade.
    """

    def __init__(self, game: Observation) -> None:
        self.fields = game.fields
        count = len(game.fields)
        self.sets: list[tuple[int, ...]] = []
        self.set_of: list[int] = []
        index: dict[tuple[int, ...], int] = {}
        for j in range(count):
            related = Appraiser._related(game, j)
            s = index.get(related, -1)
            if s < 0:
                s = index[related] = len(self.sets)
                self.sets.append(related)
            self.set_of.append(s)
        # the rate of k reads k's own state and the owners of its related fields (its group, for a street)
        reads = [set(Appraiser._related(game, k)) | set(game.group_of[k]) | {k} for k in range(count)]
        self.dependents: list[tuple[int, ...]] = [tuple(k for k in range(count) if j in reads[k]) for j in range(count)]
        self.sets_with: list[tuple[int, ...]] = [tuple(s for s, fields in enumerate(self.sets) if j in fields) for j in range(count)]
        #: every field's rate reads only its own related set (true of every shipped board): a set's rates are
        #: then a function of its state, and kept by it
        self.partition = all(reads[k] <= set(self.sets[self.set_of[k]]) for k in range(count))
        self._trades: dict[tuple[tuple[int, ...], tuple[int, ...]], tuple[list[int], tuple[int, ...]]] = {}
        #: the colour group (an index of ``board_groups``) each field belongs to, -1 for none
        self.board_group_of = [-1] * count
        for i, g in enumerate(game.board_groups):
            for j in g:
                self.board_group_of[j] = i

    def touched(self, give: tuple[int, ...], take: tuple[int, ...]) -> tuple[list[int], tuple[int, ...]]:
        """The fields whose rent a trade of ``give`` for ``take`` can change (in board order), and their related sets."""
        key = (give, take)
        hit = self._trades.get(key)
        if hit is None:
            traded = (*give, *take)
            fields = sorted({k for j in traded for k in self.sets[self.set_of[j]]})
            hit = (fields, tuple(sorted({self.set_of[j] for j in traded})))
            if len(self._trades) > MEMO_SIZE:
                self._trades.clear()
            self._trades[key] = hit
        return hit


def layout_of(game: Observation) -> Layout:
    """The :class:`Layout` of the game's board (kept per board, found by the identity of its fields)."""
    layout = _LAYOUTS.get(id(game.fields))
    if layout is None or layout.fields is not game.fields:
        if len(_LAYOUTS) >= 16:
            _LAYOUTS.clear()
        layout = _LAYOUTS[id(game.fields)] = Layout(game)
    return layout


class Appraisal:
    """What an appraiser has worked out about one game's position, kept while the position stands.

    It holds a copy of the state that rents depend on (owners, buildings, mortgages, factories,
    the players still in) and, derived from it, every field's rent rate, each player's rent flow
    field by field (asked for lazily), who holds each colour group, and the trades priced in it
    (``now``).  When the game moves, :meth:`refresh` compares the copy with the game (a list
    comparison each, when nothing changed) and works out again only the fields whose rate the
    changes can move; ``gen`` counts the changes, for the caches of a bot.  ``memo`` (and ``pairs``)
    keep priced trades under the state of the fields they touch, for the whole game and the next games of the
    same board, rules and number of players, as ``set_rates`` keeps set rates.  Every number is computed
    as the whole-board sums compute it, so a cached worth or gain is the very float a fresh one would be.
    """

    def __init__(self, appraiser: Appraiser, game: Observation, before: Appraisal | None = None) -> None:
        self.owner_list = game.owner  # which game: its owner list, kept by identity
        self.fields = game.fields
        self.rules = game.rules
        self.seats = len(game.players)
        self.layout = layout_of(game)
        self.owner = list(game.owner)
        self.level = list(game.level)
        self.mortgaged = list(game.mortgaged)
        self.factory = list(game.factory)
        self.active = _active(game)
        self.rivals = sum(1 for p in game.players if p.active) - 1
        self.tokens = [_token(game, fields) for fields in self.layout.sets]
        #: the rates of a related set's fields by its state, keyed by one whole number, ``token * len(sets) + set``
        #: (a tuple key was made and hashed on every look-up)
        self.set_rates: dict[int, tuple[float, ...]] = {}
        self.set_count = len(self.layout.sets)
        self.gen = 0
        self.flows: dict[int, tuple[list[float], float, int]] = {}
        self.now: dict[tuple[int, int, int, tuple[int, ...], tuple[int, ...]], float] = {}
        self.memo: dict[tuple[object, ...], float] = {}
        #: the same for the two sides of a proposed trade at once (Appraiser.holdings_gains_in)
        self.pairs: dict[tuple[object, ...], tuple[float, float]] = {}
        if before is not None:
            # set rates and priced trades are functions of the states they are keyed by, not of one game: the next
            # game of the same board, rules and number of players (``before``'s) starts with what it found
            if len(before.set_rates) < MEMO_SIZE:
                self.set_rates = before.set_rates
            self.memo, self.pairs = before.memo, before.pairs
        if self.layout.partition:  # the rates set by set, by state: a new game's board is read from the kept rates
            rates = self.rates = [0.0] * len(game.owner)
            sets, tokens = self.layout.sets, self.tokens
            for s in range(len(sets)):  # index loops: native in the compiled build
                fields = sets[s]
                of_set = self._set_rates(appraiser, game, s, tokens[s], game.owner)
                for i in range(len(fields)):
                    rates[fields[i]] = of_set[i]
        else:
            self.rates = appraiser.rent_rates(game, game.owner)
        #: who holds each colour group's fields (-1: nobody yet), and the groups a trade could complete:
        #: every field owned, by two players or more
        self.holders: list[set[int]] = [{game.owner[j] for j in g} for g in game.board_groups]
        #: the fields changed since the rates, set states and flows were last worked out (see :meth:`settle`)
        self.dirty: set[int] = set()
        self.tradable = [i for i, held in enumerate(self.holders) if _tradable(held)]

    def refresh(self, appraiser: Appraiser, game: Observation) -> None:
        """Bring the copy up to date with the game, working out again only what a change can move."""
        owner, level, mortgaged, factory = game.owner, game.level, game.mortgaged, game.factory
        active = 0  # _active, written out: asked before every decision that prices
        for p in game.players:
            active = 2 * active + (1 if p.active else 0)
        same = owner == self.owner and level == self.level and mortgaged == self.mortgaged and factory == self.factory
        if same and active == self.active:
            return
        self.gen += 1
        self.now = {}
        if active != self.active:  # every flow counts the rivals still in
            self.active = active
            self.rivals = sum(1 for p in game.players if p.active) - 1
            self.flows = {}
        if same:
            return
        seen_owner, seen_mortgaged = self.owner, self.mortgaged
        owners_changed = _differences(seen_owner, owner) if seen_owner != owner else []
        changed = set(owners_changed)
        if level != self.level:
            changed.update(_differences(self.level, level))
        for flags, live in ((seen_mortgaged, mortgaged), (self.factory, factory)):
            if flags != live:
                changed.update(_differences(flags, live))
        # each kept flow's mortgage values, by what changed hands or was mortgaged or repaid
        fields = game.fields
        for player, (flows, total, assets) in list(self.flows.items()):
            for j in changed:
                was = seen_owner[j] == player and not seen_mortgaged[j]
                now = owner[j] == player and not mortgaged[j]
                if was != now:
                    assets += fields[j].mortgage if now else -fields[j].mortgage
            self.flows[player] = (flows, total, assets)
        self.owner[:] = owner
        self.level[:] = level
        self.mortgaged[:] = mortgaged
        self.factory[:] = factory
        if owners_changed:
            layout = self.layout
            for i in {layout.board_group_of[j] for j in owners_changed}:
                if i >= 0:
                    self.holders[i] = {owner[j] for j in game.board_groups[i]}
            self.tradable = [i for i, held in enumerate(self.holders) if _tradable(held)]
        self.dirty |= changed

    def settle(self, appraiser: Appraiser, game: Observation) -> None:
        """Work out the rates, set states and kept flows that the changes since the last pricing moved.

        :meth:`refresh` only notes which fields changed: a decision that prices nothing (most of a
        bot's searches early in a game find no candidate) leaves them for the next one that does.
        It is called, in the same decision, after :meth:`refresh`: the game is the copy.
        """
        changed = self.dirty
        if not changed:
            return
        self.dirty = set()
        owner = self.owner
        layout = self.layout
        for s in {s for j in changed for s in layout.sets_with[j]}:
            self.tokens[s] = _token(game, layout.sets[s])
        moved: list[int] = []  # the fields whose rate was worked out again
        if layout.partition:
            for s in {layout.set_of[j] for j in changed}:
                of_set = self._set_rates(appraiser, game, s, self.tokens[s], owner)
                for i, k in enumerate(layout.sets[s]):
                    self.rates[k] = of_set[i]
                    moved.append(k)
        else:
            land = landings_per_turn(game.board, game.rules)
            for k in {k for j in changed for k in layout.dependents[j]}:
                self.rates[k] = appraiser._rate(game, land, k, owner)
                moved.append(k)
        rates, players, rivals = self.rates, game.players, self.rivals
        for player, (flows, _, assets) in list(self.flows.items()):
            for k in moved:  # Appraisal.flow, written out
                o, rate = owner[k], rates[k]
                flows[k] = rate * rivals if o == player else (-rate if o >= 0 and players[o].active else 0.0)
            self.flows[player] = (flows, sum(flows), assets)

    def _set_rates(self, appraiser: Appraiser, game: Observation, s: int, token: int, owner: Sequence[int]) -> tuple[float, ...]:
        """The rates of related set ``s`` in the state ``token`` (under ``owner``), worked out once per state."""
        key = token * self.set_count + s
        rates = self.set_rates.get(key)
        if rates is None:
            land = landings_per_turn(game.board, game.rules)
            rates = self.set_rates[key] = tuple(appraiser._rate(game, land, k, owner) for k in self.layout.sets[s])
        return rates

    def rates_after(self, appraiser: Appraiser, game: Observation, sets: tuple[int, ...], owner: list[int]) -> dict[int, float]:
        """The rates of the fields of ``sets`` under the hypothetical ``owner`` (a partition layout only).

        A field that changed hands counts no buildings (its built rent is its owner's), so its level
        is left out of the set's state.
        """
        now, level, mortgaged, factory = game.owner, game.level, game.mortgaged, game.factory
        after: dict[int, float] = {}
        for s in sets:
            fields = self.layout.sets[s]
            token = 0
            for k in fields:
                o = owner[k]
                token = (token << _STATE_BITS) + ((o + 1) * 64 + (level[k] if o == now[k] else 0)) * 4 \
                    + (2 if mortgaged[k] else 0) + (1 if factory[k] else 0)
            rates = self._set_rates(appraiser, game, s, token, owner)
            for i, k in enumerate(fields):
                after[k] = rates[i]
        return after

    def flow(self, game: Observation, player: int, owner: int, rate: float) -> float:
        """What one field's rent rate means to ``player``: every rival pays it to its owner, and the player pays a rival's."""
        if owner == player:
            return rate * self.rivals
        return -rate if owner >= 0 and game.players[owner].active else 0.0

    def flows_of(self, appraiser: Appraiser, game: Observation, player: int) -> tuple[list[float], float, int]:
        """``player``'s rent flow field by field, its sum, and the mortgage values of its unmortgaged fields."""
        if self.dirty:
            self.settle(appraiser, game)
        hit = self.flows.get(player)
        if hit is None:
            owner, rates, players, rivals = self.owner, self.rates, game.players, self.rivals
            # :meth:`flow` of every field, written out
            flows = [rate * rivals if o == player else (-rate if o >= 0 and players[o].active else 0.0)
                     for o, rate in zip(owner, rates, strict=True)]
            assets = sum(game.fields[j].mortgage for j, o in enumerate(owner) if o == player and not game.mortgaged[j])
            hit = self.flows[player] = (flows, sum(flows), assets)
        return hit


def holds_tradable_part(owner: Sequence[int], groups: Sequence[tuple[int, ...]], player: int) -> bool:
    """Whether ``player`` holds part of a colour group a trade could complete: every street owned, by two players or more.

    One of the groups :attr:`Appraisal.tradable` lists, asked of the owners alone, so that a bot holding
    none (most of its searches early in a game) need not appraise the position to know it has nothing to offer.
    """
    for group in groups:  # plain loops: most groups stop at their first unowned street
        mine = other = False
        for j in group:
            o = owner[j]
            if o < 0:
                break
            if o == player:
                mine = True
            else:
                other = True
        else:
            if mine and other:
                return True
    return False


def _tradable(held: set[int]) -> bool:
    """Whether a colour group with these holders (-1: a street nobody owns) could be completed by a trade."""
    return -1 not in held and len(held) > 1


def _differences(before: Sequence[object], after: Sequence[object]) -> list[int]:
    """The indices where two lists of the same length differ, in order (the loop runs in C: asked at every change)."""
    return list(compress(count(), map(ne, before, after)))


def _active(game: Observation) -> int:
    """The players still in, as bits."""
    active = 0
    for p in game.players:
        active = 2 * active + (1 if p.active else 0)
    return active


def _token(game: Observation, fields: tuple[int, ...]) -> int:
    """The state of ``fields`` as one whole number: each field's owner, level, mortgage and factory."""
    owner, level, mortgaged, factory = game.owner, game.level, game.mortgaged, game.factory
    token = 0
    for k in fields:
        token = (token << _STATE_BITS) + ((owner[k] + 1) * 64 + level[k]) * 4 + (2 if mortgaged[k] else 0) + (1 if factory[k] else 0)
    return token
