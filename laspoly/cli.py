"""The ``laspoly`` command: play, replay, list rules (and later simulate, markov, serve)."""

from __future__ import annotations

import argparse
import sys
from collections.abc import Sequence

from laspoly.bots.basic import BasicBot
from laspoly.bots.runner import DEFAULT_MAX_ROUNDS, play_game
from laspoly.engine.errors import LaspolyError
from laspoly.engine.game import Game
from laspoly.record import load_game, save_game
from laspoly.rules.options import describe_options, parse_rule_args
from laspoly.rules.presets import load_preset, preset_names


def _print_log(game: Game, lang: str, quiet: bool) -> None:
    if not quiet:
        for event in game.log:
            print(game.describe(event, lang))
    print(_result(game, lang))


def _result(game: Game, lang: str) -> str:
    if not game.is_over:
        return f"The game is not over (round {game.round})."
    name = game.players[game.winner].name
    if game.end_reason == "net_worth":
        ranking = ", ".join(f"{game.players[i].name} {game.money(w)}" for i, w in game.standings())
        return f"Winner: {name}, richest by net worth at the round cap (L20): {ranking}"
    return f"Winner: {name}, the last player left, after {game.round} rounds."


def cmd_play(args: argparse.Namespace) -> int:
    names = args.names.split(",") if args.names else [f"Player {i + 1}" for i in range(args.players)]
    game = Game(names, preset=args.variant, seed=args.seed, rules=parse_rule_args(args.rule),
                dice=args.dice, max_rounds=args.max_rounds)
    play_game(game, [BasicBot() for _ in names])
    lang = args.lang or game.preset.lang
    _print_log(game, lang, args.quiet)
    if args.save:
        save_game(game, args.save)
        print(f"Saved to {args.save}")
    return 0


def cmd_replay(args: argparse.Namespace) -> int:
    game = load_game(args.file)
    _print_log(game, args.lang or game.preset.lang, args.quiet)
    return 0


def cmd_rules(args: argparse.Namespace) -> int:
    if args.variant:
        for name, value in load_preset(args.variant).rules.as_dict().items():
            print(f"{name} = {str(value).lower() if isinstance(value, bool) else value}")
    else:
        print(describe_options())
    return 0


def build_parser() -> argparse.ArgumentParser:
    """The argument parser for every subcommand."""
    parser = argparse.ArgumentParser(prog="laspoly", description="Las Poly: rules engine, bots and probability lab.")
    sub = parser.add_subparsers(dest="command", required=True)

    play = sub.add_parser("play", help="play a bot game in the terminal and print its log")
    play.add_argument("--players", type=int, default=4, help="number of bot players (2-8)")
    play.add_argument("--names", help="comma-separated player names (overrides --players)")
    play.add_argument("--seed", type=int, default=0, help="seed of the game's dice and decks")
    play.add_argument("--variant", default="laspoly", choices=preset_names(), help="rulebook preset")
    play.add_argument("--rule", action="append", metavar="NAME=VALUE", help="override one rule option (repeatable)")
    play.add_argument("--dice", help='scripted dice played first, e.g. "6-6 1-2"')
    play.add_argument("--max-rounds", type=int, default=DEFAULT_MAX_ROUNDS, help="round cap (L20)")
    play.add_argument("--lang", choices=("en", "es"), help="language of the log (default: the preset's)")
    play.add_argument("--save", help="write the game to this JSON file")
    play.add_argument("--quiet", action="store_true", help="print only the result")
    play.set_defaults(func=cmd_play)

    rep = sub.add_parser("replay", help="replay a saved game and print its log")
    rep.add_argument("file")
    rep.add_argument("--lang", choices=("en", "es"))
    rep.add_argument("--quiet", action="store_true")
    rep.set_defaults(func=cmd_replay)

    rules = sub.add_parser("rules", help="list the rule options, or a preset's values")
    rules.add_argument("--variant", choices=preset_names())
    rules.set_defaults(func=cmd_rules)
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    """Entry point of the ``laspoly`` console script.  Bad input prints an error, never a trace."""
    parser = build_parser()
    args = parser.parse_args(argv)
    try:
        return int(args.func(args))
    except LaspolyError as exc:
        print(f"laspoly: error: {exc}", file=sys.stderr)
        return 2
    except BrokenPipeError:
        return 0


if __name__ == "__main__":
    sys.exit(main())
