"""The bots by name: every temperament, the defaults, and :func:`make_bot`.

A temperament is a setting of :class:`~laspoly.bots.basic.BasicBot` or of
:class:`~laspoly.bots.trader.TradingBot`; this module names them for
tournaments, the command line, saved rooms and the dashboard.  It sits above
both bots (the trading bot builds on the basic one), so no bot module imports it.
"""

from __future__ import annotations

from collections.abc import Callable

from laspoly.bots.basic import BasicBot, Bot, RandomBot
from laspoly.bots.trader import TradingBot
from laspoly.bots.valuation import Appraiser

__all__ = ["DEFAULT_BOT", "DEFAULT_OPPONENT", "RENAMED", "TEMPERAMENTS", "canonical_bot", "make_bot"]


#: The named temperaments, for tournaments and the command line.
TEMPERAMENTS: dict[str, str] = {
    "basic": "buys above a 150 reserve, builds houses and hotels evenly",
    "random": "any legal action, chosen at random (half the time one that moves the game on)",
    "greedy": "buys whatever it can pay for, bids up to 1.5x the price, builds whenever it has more than 50",
    "cautious": "keeps a 500 reserve it never spends by choice, and never pays to leave prison",
    "hotel": "builds houses and hotels, never factories, down to a 50 reserve",
    "factory": "builds factories, never houses or hotels, down to a 50 reserve",
    "trader": "offers 1.6x the price for the street that completes a colour group",
    "dealer": "trades by the worth of its position (cash, properties, groups near completion, expected rent), bids up to it",
    "shark": "a dealer that keeps a 50 reserve, counts rent over a longer horizon and leaves the other side less of a trade's gain",
    "companion": "a dealer with a person's pace and habits: thinks before each move, wants a clear gain, makes one fair offer a turn",
    "hotelier": "a dealer that builds houses and hotels, never factories, down to a 50 reserve",
    "industrialist": "a dealer that builds factories, never houses or hotels, down to a 50 reserve",
}

#: The bot that plays a seat nobody chose: simulations, ``laspoly play``, the runner.
DEFAULT_BOT = "dealer"
#: The dashboard's default opponent.
DEFAULT_OPPONENT = "companion"
#: Former names of temperaments, still read from saved games, stored rooms and command lines.
RENAMED: dict[str, str] = {"table": "companion"}


def canonical_bot(name: str) -> str:
    """A temperament's current name (:data:`RENAMED`); any other name, a person's seat included, as it is."""
    return RENAMED.get(name, name)


def make_bot(name: str, seed: int = 0) -> Bot:
    """A bot by temperament name (see :data:`TEMPERAMENTS`)."""
    makers: dict[str, Callable[[], Bot]] = {
        "basic": lambda: BasicBot(),
        "random": lambda: RandomBot(seed),
        "greedy": lambda: BasicBot(reserve=0, bid_factor=1.5, jail="leave"),
        "cautious": lambda: BasicBot(reserve=500, jail="stay"),
        "hotel": lambda: BasicBot(reserve=50, prefer="houses"),
        "factory": lambda: BasicBot(reserve=50, prefer="factories"),
        "trader": lambda: BasicBot(reserve=150, trade=True),
        "dealer": lambda: _trading("dealer"),
        "shark": lambda: _trading("shark"),
        "companion": lambda: _trading("companion"),
        "hotelier": lambda: _trading("hotelier"),
        "industrialist": lambda: _trading("industrialist"),
    }
    name = canonical_bot(name)
    if name not in makers:
        raise ValueError(f"unknown bot {name!r}; bots are: {', '.join(makers)}")
    bot = makers[name]()
    bot.name = name
    return bot


def _trading(name: str) -> Bot:
    """A trading temperament: a :class:`TradingBot` with its settings."""
    if name == "shark":
        return TradingBot(reserve=50, appraiser=Appraiser(horizon=16, reserve=50), share=0.25)
    if name == "companion":
        return TradingBot(reserve=200, jail="leave", accept_above=40, offers_per_turn=1, share=0.5, think_seconds=1.2)
    if name in ("hotelier", "industrialist"):
        return TradingBot(reserve=50, prefer="houses" if name == "hotelier" else "factories")
    return TradingBot()
