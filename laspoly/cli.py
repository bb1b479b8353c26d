"""The ``laspoly`` command: play, replay, check, rules, markov, landings, simulate, tournament, soak, serve.

Analysis commands print a readable table by default, one JSON object with
``--json``, and write their table to ``--csv FILE``.  Long runs show a
progress bar on stderr (``--quiet`` turns it off).  The numerical libraries
are imported only by the commands that need them.

Bad input never gives a traceback: argparse checks every number and path
before any work is done (:mod:`laspoly.cli_args`), and an error found later
(a corrupt save file, an unknown bot) is one ``laspoly: error:`` line.  Both
exit with status 2.
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from collections.abc import Sequence
from typing import Any

from laspoly import cli_args as T
from laspoly.bots.registry import DEFAULT_BOT, make_bot
from laspoly.bots.runner import DEFAULT_MAX_ROUNDS, play_game
from laspoly.engine import words
from laspoly.engine.compiled import build_name
from laspoly.engine.events import default_names
from laspoly.engine.game import Game
from laspoly.errors import LaspolyError
from laspoly.extras import require
from laspoly.record import load_game, save_game
from laspoly.rules.options import describe_options, parse_rule_args
from laspoly.rules.presets import load_preset, preset_names

DEFAULT_PLAYERS = 4
GAMES_MAX = 10_000_000


def _print_log(game: Game, lang: str, quiet: bool) -> None:
    if not quiet:
        for event in game.log:
            print(game.describe(event, lang))
    print(_result(game, lang))


def _result(game: Game, lang: str) -> str:
    if not game.is_over:
        return words.text("result.not_over", lang, round=game.round)
    name = game.players[game.winner].name
    if game.end_reason == "net_worth":
        ranking = ", ".join(f"{game.players[i].name} {game.money(w)}" for i, w in game.standings())
        return words.text("result.net_worth", lang, winner=name, ranking=ranking)
    return words.plural("result.last_player", game.round, lang, winner=name)


def cmd_play(args: argparse.Namespace) -> int:
    game = _game_from_position(args) if args.start else _new_game(args)
    lang = args.lang or game.preset.lang
    play_game(game, [make_bot(DEFAULT_BOT, seed=k) for k in range(len(game.players))])
    _print_log(game, lang, args.quiet)
    if args.save:
        save_game(game, args.save)
        print(words.text("result.saved", lang, path=args.save))
    return 0


def _new_game(args: argparse.Namespace) -> Game:
    """The game that ``play``'s options describe."""
    preset = load_preset(args.variant or "laspoly")
    if args.names and args.players is not None and args.players != len(args.names):
        raise LaspolyError(f"--players {args.players} but --names gives {len(args.names)} names: leave out one of them")
    names = args.names or default_names(args.players or DEFAULT_PLAYERS, args.lang or preset.lang)
    return Game(names, preset=preset, seed=args.seed, rules=parse_rule_args(args.rule), dice=args.dice, max_rounds=args.max_rounds)


def _game_from_position(args: argparse.Namespace) -> Game:
    """The game of a shipped demonstration or a position file: it brings its own players, rules and dice."""
    from laspoly.position_files import game_from

    clashing = [flag for flag, value in (("--players", args.players), ("--names", args.names), ("--variant", args.variant),
                                        ("--rule", args.rule), ("--dice", args.dice)) if value]
    if clashing:
        raise LaspolyError(f"--from brings its own players, rules and dice: leave out {', '.join(clashing)}")
    return game_from(args.start)


def cmd_positions(args: argparse.Namespace) -> int:
    """One line per shipped demonstration position: its id and title."""
    from laspoly.position_files import demonstrations

    for demo in demonstrations(args.lang):
        print(f"{demo.id}  {demo.title}")
    return 0


def cmd_replay(args: argparse.Namespace) -> int:
    game = load_game(args.file)
    _print_log(game, args.lang or game.preset.lang, args.quiet)
    return 0


def cmd_check(args: argparse.Namespace) -> int:
    """Validate a board or save file and say what it is; a bad file is one clear error line."""
    from pathlib import Path

    from laspoly.errors import SaveFileError
    from laspoly.rules.board import load_board

    path = Path(args.file)
    try:
        with path.open("rb") as fh:
            head = fh.read(2048)
    except OSError as exc:
        raise SaveFileError(f"cannot read {path.name}: {exc.strerror}") from None
    if b"laspoly-board" in head:  # the loaders refuse files over their size limits before reading them
        board = load_board(path)
        print(f"{path.name}: a valid board '{board.id}' with {board.size} fields and {sum(len(d) for d in board.decks.values())} cards")
        return 0
    if b"laspoly-position" in head:
        from laspoly.position_files import load_position, position_summary

        print(f"{path.name}: {position_summary(load_position(path))}")
        return 0
    game = load_game(path)
    print(f"{path.name}: a valid save file of a {game.preset.id} game, {len(game.history)} actions, round {game.round}")
    return 0


def cmd_rules(args: argparse.Namespace) -> int:
    if args.variant:
        for name, value in load_preset(args.variant).rules.as_dict().items():
            print(f"{name} = {str(value).lower() if isinstance(value, bool) else value}")
    else:
        print(describe_options())
    return 0


def _emit(args: argparse.Namespace, data: dict[str, Any], frame: Any, text: str) -> int:
    if args.csv:
        frame.to_csv(args.csv, index=False)
    print(json.dumps(data) if args.json else text)
    return 0


def _chain_text(data: dict[str, Any], title: str) -> str:
    lines = [title, f"{'#':>3}  {'field':32} {'percent':>9}"]
    for sq in data["squares"]:
        lines.append(f"{sq['index']:>3}  {sq['name'][:32]:32} {100 * sq['probability']:>9.4f}")
    lines.append(f"{'':>3}  {'in prison':32} {100 * data['in_prison']:>9.4f}")
    lines.append(f"expected rolls per turn: {data['expected_rolls_per_turn']:.4f}")
    return "\n".join(lines)


def cmd_markov(args: argparse.Namespace) -> int:
    from laspoly.analysis.markov import markov

    r = markov(args.variant, rules=parse_rule_args(args.rule), per=args.per, prison_policy=args.prison_policy,
               train_target=args.train_target)
    title = f"{args.variant}: exact landing probabilities per {args.per}, prison policy {args.prison_policy}"
    return _emit(args, r.as_dict(), r.to_frame(), _chain_text(r.as_dict(), title))


def cmd_landings(args: argparse.Namespace) -> int:
    from tqdm import tqdm

    from laspoly.analysis.landings import engine_landings

    with tqdm(total=args.rolls, disable=args.quiet, delay=1.0, file=sys.stderr, unit="roll") as bar:
        r = engine_landings(args.variant, args.rolls, rules=parse_rule_args(args.rule), seed=args.seed, per=args.per,
                            prison_policy=args.prison_policy, train_target=args.train_target, progress=bar.update)
    title = f"{args.variant}: engine landings per {args.per} over {r.rolls} rolls, prison policy {args.prison_policy}"
    return _emit(args, r.as_dict(), r.to_frame(), _chain_text(r.as_dict(), title))


def cmd_simulate(args: argparse.Namespace) -> int:
    from laspoly.analysis.simulate import simulate

    if args.dask:
        require("dask", "simulate --dask")

    players = args.players or (len(args.bots) if args.bots else DEFAULT_PLAYERS)
    r = simulate(args.variant, players=players, games=args.games, bots=args.bots, max_turns=args.max_turns, seed=args.seed,
                 rules=parse_rule_args(args.rule), workers=args.workers, dask=args.dask, quiet=args.quiet)
    d = r.as_dict()
    text = "\n".join([
        f"{d['variant']}: {d['games']} games, seed {d['seed']}, bots {', '.join(d['bots'])}",
        "wins by seat: " + ", ".join(f"seat {i + 1}: {w}" for i, w in enumerate(d["wins_by_seat"])),
        "wins by turn order: " + ", ".join(f"{i + 1}{'st' if i == 0 else 'nd' if i == 1 else 'rd' if i == 2 else 'th'} to move: {w}" for i, w in enumerate(d["wins_by_order"])),
        "wins by bot: " + ", ".join(f"{b}: {w}" for b, w in d["wins_by_bot"].items()),
        f"player-turns per game: mean {d['turns']['mean']:.1f}, median {d['turns']['median']:.1f}, p90 {d['turns']['p90']:.1f}",
        f"games ended at the cap: {d['capped_games']}",
        f"{d['elapsed_s']:.2f} s: {d['games_per_s']:.1f} games/s, {d['turns_per_s']:,.0f} player-turns/s, {build_name()} engine",
    ])
    return _emit(args, d, r.to_frame(), text)


def cmd_tournament(args: argparse.Namespace) -> int:
    from laspoly.analysis.simulate import tournament

    if args.dask:
        require("dask", "tournament --dask")

    r = tournament(args.bots, games=args.games, variant=args.variant, seed=args.seed,
                   rules=parse_rule_args(args.rule), max_turns=args.max_turns, workers=args.workers, dask=args.dask,
                   quiet=args.quiet)
    d = r.as_dict()
    lines = [f"{d['variant']}: {d['games']} games, seats rotated, seed {d['seed']}",
             f"{'bot':10} {'games':>6} {'wins':>6} {'win rate':>9}   95% interval"]
    for row in d["bots"]:
        lines.append(f"{row['bot']:10} {row['games']:>6} {row['wins']:>6} {row['win_rate']:>9.3f}   {row['ci_low']:.3f}-{row['ci_high']:.3f}")
    lines.append(f"equal win rates: chi2 {d['equal_rates']['chi2']:.2f}, p = {d['equal_rates']['p_value']:.4f}")
    lines += [f"  {p['a']} vs {p['b']}: p = {p['p_value']:.4f}" for p in d["pairs"]]
    lines.append("by turn order: " + ", ".join(f"#{r['seat']} {r['win_rate']:.3f} ({r['ci_low']:.3f}-{r['ci_high']:.3f})" for r in d["seats"]))
    lines.append(f"seat effect: chi2 {d['seat_effect']['chi2']:.2f}, p = {d['seat_effect']['p_value']:.4f}")
    return _emit(args, d, r.to_frame(), "\n".join(lines))


def cmd_soak(args: argparse.Namespace) -> int:
    from tqdm import tqdm

    from laspoly.analysis.soak import soak

    start = time.perf_counter()
    with tqdm(total=args.games, disable=args.quiet, delay=1.0, file=sys.stderr, unit="game") as bar:
        report = soak(args.games, seed=args.seed, workers=args.workers, fault=args.fault, progress=bar.update)
    seconds = time.perf_counter() - start
    if args.json:
        print(json.dumps({**report.to_dict(), "seed": args.seed, "workers": args.workers, "seconds": round(seconds, 1)}))
    else:
        print(report.summary())
        print("by preset: " + ", ".join(f"{k} {v}" for k, v in sorted(report.by_preset.items())))
        print("endings: " + ", ".join(f"{k} {v}" for k, v in sorted(report.endings.items())))
        print(f"{seconds:.1f} s on {args.workers} worker(s)")
        for failure in report.failures[:20]:
            print(f"FAILURE {failure}")
    return 0 if report.ok else 1


def cmd_serve(args: argparse.Namespace) -> int:
    from laspoly.server.store import default_url

    require("app", "laspoly serve")  # the dashboard is an extra: one line saying how to add it, not a traceback
    if default_url().startswith(("postgresql://", "postgres://")):
        require("postgres", "a postgresql:// room database ($LASPOLY_DB)")
    from laspoly.server.serving import check_can_listen, quiet_closed_connection_warnings, tune_collector

    address = args.address or ("0.0.0.0" if args.classroom is not None else "localhost")
    check_can_listen(address, args.port)  # before anything is printed: a taken port is one error line
    import panel as pn

    from laspoly.server.limits import WEBSOCKET_MAX_MESSAGE_BYTES
    from laspoly.server.serving import ServedHostsOnly, allowed_hosts
    from laspoly.ui.app import session_app

    quiet_closed_connection_warnings()
    tune_collector()
    # only these names reach the server (anything else: 403), and a page's websocket must come from one of them
    lan = _classroom(args) if args.classroom is not None else None
    hosts = allowed_hosts(address, args.port, lan=lan, extra=args.allow_websocket_origin or ())
    print(f"Serving the Las Poly dashboard at http://{address}:{args.port}/ (Ctrl+C stops it)", flush=True)
    pn.serve(session_app, port=args.port, address=address, show=args.show, title="Las Poly",
             websocket_origin=hosts, auth_provider=ServedHostsOnly(hosts),
             websocket_max_message_size=WEBSOCKET_MAX_MESSAGE_BYTES)
    return 0


def _classroom(args: argparse.Namespace) -> str | None:
    """``serve --classroom``: find the LAN address, make the class, print its two links and the students' QR code.

    The address every page's links use is handed to the pages through
    ``$LASPOLY_LAN_ADDRESS`` (forked server processes inherit it).  Each start
    makes a new class: its teacher key is stored only as a hash, so the teacher
    link can be printed only now.
    """
    import os

    import segno

    from laspoly.server.classes import create_class
    from laspoly.server.serving import LAN_ENV, lan_address, local_addresses
    from laspoly.server.store import default_url, open_store

    lan = args.lan_address or lan_address(local_addresses())
    host = lan or "localhost"
    if lan:
        os.environ[LAN_ENV] = lan
    else:
        print("laspoly: no LAN address found (is this computer on the classroom's network?): "
              "the links below reach this computer only", file=sys.stderr)
    made = create_class(open_store(default_url()), args.classroom)
    base = f"http://{host}:{args.port}/"
    print(f"Class {made.name}, code {made.code}")
    print(f"Teacher's page (keep it to yourself; shown only now): {base}{made.teacher_link}")
    print(f"Students' link: {base}{made.student_link}")
    segno.make(base + made.student_link, error="m").terminal(out=sys.stdout, compact=True)
    sys.stdout.flush()
    return lan


def _common(p: argparse.ArgumentParser, seed: bool = True) -> None:
    p.add_argument("--variant", default="laspoly", choices=preset_names(), help="rulebook preset")
    p.add_argument("--rule", action="append", type=T.rule_override, metavar="NAME=VALUE",
                   help="override one rule option (repeatable; `laspoly rules` lists them)")
    if seed:
        p.add_argument("--seed", type=T.seed, default=0, help="master seed, 0 to 2^63-1")
    p.add_argument("--json", action="store_true", help="print one JSON object")
    p.add_argument("--csv", metavar="FILE", type=T.output_file, help="also write the table to a CSV file")
    p.add_argument("--quiet", action="store_true", help="no progress bar")


def _chain_options(p: argparse.ArgumentParser) -> None:
    p.add_argument("--prison-policy", choices=("leave", "stay"), default="leave", help="leave prison at once, or stay as long as allowed")
    p.add_argument("--per", choices=("roll", "turn"), default="roll", help="count where each roll or each turn ended")
    p.add_argument("--train-target", type=T.field_index, metavar="FIELD",
                   help="station (field number) to take the train to; default: never travel")


def _game_options(p: argparse.ArgumentParser, games: int) -> None:
    """Options of the commands that play many bot games: simulate and tournament."""
    p.add_argument("--games", type=T.whole_number(1, GAMES_MAX), default=games, help=f"number of games, 1 to {GAMES_MAX:_}")
    p.add_argument("--max-turns", type=T.positive, metavar="N", help="cap on player-turns per game (L20: the richest wins)")
    p.add_argument("--workers", type=T.workers, default=1, help=f"local processes, 1 to {T.WORKERS_MAX}")
    p.add_argument("--dask", type=T.dask_address, metavar="ADDRESS",
                   help="run on a Dask scheduler (tcp://HOST:PORT), or 'local' for a LocalCluster")


def _add_analysis_commands(sub: Any) -> None:
    mk = sub.add_parser("markov", help="exact landing probabilities from the Markov chain")
    _common(mk, seed=False)
    _chain_options(mk)
    mk.set_defaults(func=cmd_markov)

    la = sub.add_parser("landings", help="landing counts by Monte Carlo on the real engine")
    _common(la)
    _chain_options(la)
    la.add_argument("--rolls", type=T.whole_number(1, 10**9), default=100_000, help="number of rolls to play, 1 to 10^9")
    la.set_defaults(func=cmd_landings)

    si = sub.add_parser("simulate", help="Monte Carlo of whole bot games")
    _common(si)
    si.add_argument("--players", type=T.players, metavar="N",
                    help=f"players per game, 2-8 (default: {DEFAULT_PLAYERS}, or one per bot of --bots; both must agree)")
    si.add_argument("--bots", type=T.bot_list, metavar="BOT,BOT",
                    help="bots by seat, comma-separated: basic, random, greedy, cautious, hotel, factory, trader (default: all basic)")
    _game_options(si, games=100)
    si.set_defaults(func=cmd_simulate)

    to = sub.add_parser("tournament", help="bots against each other with seats rotated")
    _common(to)
    to.add_argument("--bots", type=T.bot_list, required=True, metavar="BOT,BOT", help="2-8 comma-separated bots, one game seats them all")
    _game_options(to, games=200)
    to.set_defaults(func=cmd_tournament)


def _add_game_commands(sub: Any) -> None:
    play = sub.add_parser("play", help="play a bot game in the terminal and print its log")
    play.add_argument("--players", type=T.players, metavar="N",
                      help=f"number of bot players, 2-8 (default: {DEFAULT_PLAYERS}, or one per name of --names)")
    play.add_argument("--names", type=T.name_list, metavar="NAME,NAME",
                      help="comma-separated player names (default: Player 1, Player 2... in the game's language)")
    play.add_argument("--seed", type=T.seed, default=0, help="seed of the game's dice and decks, 0 to 2^63-1")
    play.add_argument("--variant", choices=preset_names(), help="rulebook preset (default: laspoly)")
    play.add_argument("--from", dest="start", metavar="ID_OR_FILE",
                      help="play on from a shipped demonstration (`laspoly positions` lists them) or a position file")
    play.add_argument("--rule", action="append", type=T.rule_override, metavar="NAME=VALUE",
                      help="override one rule option (repeatable; `laspoly rules` lists them)")
    play.add_argument("--dice", type=T.dice_script, help='scripted dice played first, e.g. "6-6 1-2"')
    play.add_argument("--max-rounds", type=T.whole_number(1, 1_000_000), metavar="N", default=DEFAULT_MAX_ROUNDS,
                      help="round cap: then the richest wins (L20)")
    play.add_argument("--lang", choices=("en", "es"), help="language of the log (default: the preset's)")
    play.add_argument("--save", type=T.output_file, metavar="FILE", help="write the game to this JSON file")
    play.add_argument("--quiet", action="store_true", help="print only the result")
    play.set_defaults(func=cmd_play)

    rep = sub.add_parser("replay", help="replay a saved game and print its log")
    rep.add_argument("file", type=T.input_file, help="a save file written by `laspoly play --save` or the dashboard")
    rep.add_argument("--lang", choices=("en", "es"), help="language of the log (default: the preset's)")
    rep.add_argument("--quiet", action="store_true", help="print only the result")
    rep.set_defaults(func=cmd_replay)

    check = sub.add_parser("check", help="validate a board file, a save file or a position file")
    check.add_argument("file", type=T.input_file, help="a board file, a save file or a position file")
    check.set_defaults(func=cmd_check)

    pos = sub.add_parser("positions", help="list the shipped demonstration positions: ID  title")
    pos.add_argument("--lang", choices=("en", "es"), default="en", help="language of the titles")
    pos.set_defaults(func=cmd_positions)

    rules = sub.add_parser("rules", help="list the rule options, or a preset's values")
    rules.add_argument("--variant", choices=preset_names(), help="show this preset's values instead")
    rules.set_defaults(func=cmd_rules)


def _add_run_commands(sub: Any) -> None:
    from laspoly.analysis.soak import FAULTS

    so = sub.add_parser("soak", help="many checked bot games across presets: invariants after every event")
    so.add_argument("--games", type=T.whole_number(1, GAMES_MAX), default=1000, help=f"number of games, 1 to {GAMES_MAX:_}")
    so.add_argument("--seed", type=T.seed, default=0, help="master seed, 0 to 2^63-1")
    so.add_argument("--workers", type=T.workers, default=1, help=f"local processes, 1 to {T.WORKERS_MAX}")
    so.add_argument("--fault", choices=sorted(FAULTS), help="inject a deliberately broken rule (to see the soak catch it)")
    so.add_argument("--quiet", action="store_true", help="no progress bar")
    so.add_argument("--json", action="store_true", help="print the report as JSON")
    so.set_defaults(func=cmd_soak)

    serve = sub.add_parser("serve", help="serve the dashboard (as `panel serve apps/laspoly_app.py` does)")
    serve.add_argument("--port", type=T.port, default=5006, help="port to listen on, 1 to 65535")
    serve.add_argument("--address", default=None, help="address to listen on (0.0.0.0: every network); "
                       "default localhost, or 0.0.0.0 with --classroom")
    serve.add_argument("--classroom", nargs="?", const="Class", default=None, metavar="NAME", type=T.class_name,
                       help="serve a lesson on the LAN: make a class (its name, default 'Class') and print its links and QR code")
    serve.add_argument("--lan-address", type=T.lan_address, default=None, help=argparse.SUPPRESS)  # overrides the detected one (tests)
    serve.add_argument("--show", action="store_true", help="open a browser")
    serve.add_argument("--allow-websocket-origin", action="append", type=T.origin, metavar="HOST:PORT",
                       help="another host name the server answers to, as the browser shows it (repeatable); any other gets 403")
    serve.set_defaults(func=cmd_serve)


def build_parser() -> argparse.ArgumentParser:
    """The argument parser for every subcommand."""
    parser = argparse.ArgumentParser(prog="laspoly", description="Las Poly: rules engine, bots and probability lab.",
                                     formatter_class=T.HelpFormatter)
    parser.add_argument("--version", action="version", version=f"%(prog)s {T.package_version()} ({build_name()})")
    sub = parser.add_subparsers(dest="command", required=True, metavar="COMMAND",
                                parser_class=T.SubcommandParser)
    _add_game_commands(sub)
    _add_analysis_commands(sub)
    _add_run_commands(sub)
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    """Entry point of the ``laspoly`` console script: the exit status.  Bad input prints an error, never a trace."""
    try:
        args = build_parser().parse_args(argv)
    except SystemExit as exc:  # --help, --version, or a usage error argparse has already printed
        return exc.code if isinstance(exc.code, int) else 2
    try:
        return int(args.func(args))
    except (LaspolyError, ValueError) as exc:
        return _fail(str(exc))
    except MemoryError:
        return _fail("the file is too large to read")
    except BrokenPipeError:
        return 0
    except OSError as exc:  # a disk that filled up, a folder removed since the arguments were checked
        return _fail(f"{exc.strerror or exc}" + (f": {exc.filename}" if exc.filename else ""))
    except KeyboardInterrupt:
        print("laspoly: stopped", file=sys.stderr)
        return 130


def _fail(message: str) -> int:
    print(f"laspoly: error: {message}", file=sys.stderr)
    return 2


if __name__ == "__main__":
    sys.exit(main())
