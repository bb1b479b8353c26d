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

from laspoly.engine.observation import Observation
from laspoly.rules.board import Board
from laspoly.rules.options import RuleOptions

_LANDINGS: dict[tuple[int, RuleOptions], tuple[Board, tuple[float, ...]]] = {}
#: The board, rules and landings asked for last, found by identity (hashing the rules is a cost per question).
_LAST_LANDINGS: list[tuple[Board, RuleOptions, tuple[float, ...]]] = []
#: Each appraiser's rates of the position it last priced: (what they depend on, the owner list, the rates).
_NOW: dict[Appraiser, tuple[tuple[int | bool, ...], list[int], list[float]]] = {}
#: Each appraiser's priced holdings of trades in the game it last priced (by its owner list), while that game lasts.
_MEMO: dict[Appraiser, tuple[list[int], dict[tuple[object, ...], float]]] = {}
MEMO_SIZE = 20_000


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
        """The worth of ``player``'s position, with ``owner`` and ``cash`` standing in for the game's when given."""
        owner = game.owner if owner is None else owner
        rates = self.rent_rates(game, owner)
        flow = sum(self._flow(game, player, owner[j], rates[j]) for j in range(len(owner)))
        assets = sum(game.fields[j].mortgage for j, o in enumerate(owner) if o == player and not game.mortgaged[j])
        return self._money(game.players[player].cash if cash is None else cash[player]) + assets + self.horizon * flow

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
        """The part of a trade's gain that the fields make, kept per game while the fields it touches and the players stay as they are."""
        touched = sorted({k for j in (*give, *take) for k in self._related(game, j)})
        owner, level, mortgaged, factory = game.owner, game.level, game.mortgaged, game.factory
        # the key is whole numbers, not tuples of tuples: one per touched field (its owner, level, mortgage and
        # factory; a level is at most 5), and the players still in as bits
        active = 0
        for p in game.players:
            active = 2 * active + (1 if p.active else 0)
        state = [((owner[k] + 1) * 64 + level[k]) * 4 + (2 if mortgaged[k] else 0) + (1 if factory[k] else 0) for k in touched]
        key = (player, proposer, receiver, give, take, active, *state)
        memo = _MEMO.get(self)
        if memo is None or memo[0] is not game.owner or len(memo[1]) > MEMO_SIZE:
            memo = _MEMO[self] = (game.owner, {})
        hit = memo[1].get(key)
        if hit is None:
            hit = memo[1][key] = self._price_holdings(game, player, proposer, receiver, give, take, touched)
        return hit

    def _price_holdings(self, game: Observation, player: int, proposer: int, receiver: int, give: tuple[int, ...],
                        take: tuple[int, ...], touched: list[int]) -> float:
        """Mortgage values and horizon x rent flow that change when ``give`` and ``take`` change hands."""
        moved = dict.fromkeys(give, receiver) | dict.fromkeys(take, proposer)
        owner = list(game.owner)
        for j, to in moved.items():
            owner[j] = to
        land = landings_per_turn(game.board, game.rules)
        now = self._rates_now(game)
        flow = sum(self._flow(game, player, owner[k], self._rate(game, land, k, owner))
                   - self._flow(game, player, game.owner[k], now[k]) for k in touched)
        assets = sum(game.fields[j].mortgage * ((owner[j] == player) - (game.owner[j] == player))
                     for j in moved if not game.mortgaged[j])
        return assets + self.horizon * flow

    def rent_rates(self, game: Observation, owner: Sequence[int]) -> list[float]:
        """Expected rent per opponent turn of every field under ``owner`` (0 where unowned or mortgaged)."""
        land = landings_per_turn(game.board, game.rules)
        return [self._rate(game, land, j, owner) for j in range(len(owner))]

    def _money(self, cash: int) -> float:
        """Cash, with what is missing below the reserve counted twice."""
        return cash + min(0, cash - self.reserve)

    @staticmethod
    def _flow(game: Observation, player: int, owner: int, rate: float) -> float:
        """What one field's rent rate means to ``player``: every rival pays it to its owner, and the player pays a rival's."""
        if owner == player:
            return rate * (sum(1 for p in game.players if p.active) - 1)
        return -rate if owner >= 0 and game.players[owner].active else 0.0

    def _rates_now(self, game: Observation) -> list[float]:
        """The rent rates of the current position, kept while nothing that sets them changed."""
        key = (game.owner_version, *game.level, *game.mortgaged, *game.factory)
        cached = _NOW.get(self)
        if cached is None or cached[0] != key or cached[1] is not game.owner:
            cached = (key, game.owner, self.rent_rates(game, game.owner))
            _NOW[self] = cached
        return cached[2]

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
