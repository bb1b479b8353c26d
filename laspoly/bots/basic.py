"""Bots: players that choose among legal actions and never touch the state.

:class:`BasicBot` is a sensible buyer and builder that keeps a cash reserve.
It asks the game targeted questions (``why_illegal`` on the one action it is
about to take) rather than enumerating every legal action, so a simulation
pays only for what the bot uses.  :class:`RandomBot` picks uniformly among
:meth:`Game.legal_actions` with its own seeded generator (for fuzzing).
"""

from __future__ import annotations

import random

from laspoly.engine import actions as A
from laspoly.engine.game import AUCTION, BUY, DEBT, TRAVEL, TURN, Game


class Bot:
    """Base class: ``choose`` returns one legal action for ``game.actor``."""

    name = "bot"

    def choose(self, game: Game) -> A.Action:
        """The action this bot takes now."""
        raise NotImplementedError

    def claims_rent(self, game: Game, player: int) -> bool:
        """Whether this bot claims rent owed to it (C6: bots always claim)."""
        return True


class BasicBot(Bot):
    """Buys what it can afford above a reserve, builds evenly, raises money sensibly.

    ``prefer`` chooses between houses/hotels and factories on complete groups.
    """

    name = "basic"

    def __init__(self, reserve: int = 150, prefer: str = "houses") -> None:
        if prefer not in ("houses", "factories"):
            raise ValueError("prefer must be 'houses' or 'factories'")
        self.reserve = reserve
        self.prefer = prefer
        self._groups_seen: tuple[int, int, int] = (-1, -1, -1)
        self._groups: list[tuple[int, ...]] = []

    def choose(self, game: Game) -> A.Action:
        """Pick the action for the current decision."""
        me = game.actor
        phase = game.phase
        if phase == TURN:
            return self._turn(game, me)
        if phase == BUY:
            price = game.fields[game.pending_field].price
            return A.Buy(me) if game.players[me].cash - price > self.reserve else A.DeclineBuy(me)
        if phase == TRAVEL:
            return A.StayPut(me)
        if phase == DEBT:
            return self._raise_money(game, me)
        if phase == AUCTION:
            return self._bid(game, me)
        raise RuntimeError(f"no decision in phase {phase!r}")

    def _turn(self, game: Game, me: int) -> A.Action:
        p = game.players[me]
        if game.offers:
            for o in game.offers.values():
                if o.receiver == me:
                    return A.DeclineTrade(me, o.id)
        if not game.rolls_due:
            return A.EndTurn(me)
        if p.in_prison and not game.prison_tries:
            if p.jail_cards:
                return A.UseJailCard(me)
            if p.cash - game.rules.jail_fine > self.reserve * 2 and p.prison_turns < game.rules.jail_fine_turns:
                return A.PayFine(me)
        if p.cash > self.reserve + 50:
            build = self._build(game, me)
            if build is not None:
                return build
        return A.Roll(me)

    def _build(self, game: Game, me: int) -> A.Action | None:
        """One building on a complete group, evenly, if it keeps the reserve.

        Cheap arithmetic picks the single candidate per group; only that one is
        checked by the engine's ``why_illegal``, so a turn with nothing to build
        costs a few list look-ups.
        """
        budget = game.players[me].cash - self.reserve
        for streets in self._complete_groups(game, me):
            if any(game.mortgaged[j] for j in streets):
                j = next(j for j in streets if game.mortgaged[j])
                if game.repay_price(j) < budget:
                    return A.Repay(me, j)
                continue
            action = self._candidate(game, me, streets)
            if action is not None and self._cost(game, action) < budget and game.why_illegal(action) is None:
                return action
        return None

    def _complete_groups(self, game: Game, me: int) -> list[tuple[int, ...]]:
        """The colour groups ``me`` owns whole, recomputed only when ownership changed."""
        key = (id(game), game.owner_version, me)
        if key != self._groups_seen:
            owner = game.owner
            self._groups = [g for g in game.board_groups if all(owner[j] == me for j in g)]
            self._groups_seen = key
        return self._groups

    def _candidate(self, game: Game, me: int, streets: tuple[int, ...]) -> A.Build | None:
        level, factory = game.level, game.factory
        if self.prefer == "factories":
            for j in streets:
                if not factory[j] and not level[j] and game.fields[j].factory_price:
                    return A.Build(me, j, "factory")
            return None
        free = [j for j in streets if not factory[j]]
        if not free:
            return None
        j = min(free, key=level.__getitem__)
        if level[j] < game.rules.max_houses:
            return A.Build(me, j, "house")
        if level[j] == game.rules.max_houses and game.rules.hotels:
            return A.Build(me, j, "hotel")
        return None

    @staticmethod
    def _cost(game: Game, a: A.Build) -> int:
        if a.building == "factory":
            return game.fields[a.field].factory_price
        return game.hotel_price(a.field) if a.building == "hotel" else game.house_price(a.field)

    def _raise_money(self, game: Game, me: int) -> A.Action:
        """Sell buildings from the most built street, then mortgage, then sell to the bank."""
        mine = game.owned_by(me)
        built = [j for j in mine if game.level[j] or game.factory[j]]
        if built:
            j = max(built, key=lambda k: (game.factory[k], game.level[k]))
            return A.SellBuilding(me, j)
        for j in sorted(mine, key=lambda k: game.fields[k].mortgage):
            if not game.mortgaged[j]:
                a: A.Action = A.Mortgage(me, j)
                return a if game.why_illegal(a) is None else A.SellProperty(me, j)
        raise RuntimeError("a debtor with nothing left to sell")  # the engine bankrupts such a player at once

    def _bid(self, game: Game, me: int) -> A.Action:
        au = game.auction
        assert au is not None
        price = game.fields[au.field].price
        step = max(10, price // 10)
        bid = au.high + step
        if bid <= price and game.players[me].cash - bid > self.reserve:
            return A.PlaceBid(me, bid)
        return A.PassAuction(me)


class RandomBot(Bot):
    """Chooses uniformly among the legal actions, from its own seeded generator."""

    name = "random"

    def __init__(self, seed: int = 0) -> None:
        self.rng = random.Random(seed)

    def choose(self, game: Game) -> A.Action:
        """Any legal action, preferring to move the game on half of the time."""
        legal = game.legal_actions()
        movers = [a for a in legal if isinstance(a, A.Roll | A.EndTurn | A.Buy | A.PassAuction | A.StayPut)]
        if movers and self.rng.random() < 0.5:
            return self.rng.choice(movers)
        return self.rng.choice(legal)


BOTS: dict[str, type[Bot]] = {"basic": BasicBot, "random": RandomBot}


def make_bot(name: str, **kwargs: object) -> Bot:
    """A bot by name: ``basic`` or ``random``."""
    if name not in BOTS:
        raise ValueError(f"unknown bot {name!r}; bots are: {', '.join(BOTS)}")
    return BOTS[name](**kwargs)  # type: ignore[arg-type]
