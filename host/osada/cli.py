"""The `osada` command line."""

import argparse
import json
import os
import sys

from osada.argparsing import OneLineParser
from osada.files.userfile import UnreadableFile, read_text
from osada.link.device import device_cmd, fail, open_link
from osada.link.ports import SIM_LINK
from shared_rules.siege.engine import RuleError


def cmd_scenario(args):
    try:
        text = read_text(args.file)
    except UnreadableFile as exc:
        return fail("scenario: %s" % exc)
    if args.runtime == "cpython":
        from shared_rules.siege.scenario import run_text
        try:
            out = run_text(text)
        except RuleError as exc:
            return fail("scenario: %s" % exc)
        sys.stdout.write(out + "\n")
        return 0
    from osada import mpyvm
    try:
        proc = mpyvm.run_scenario(args.file)
    except mpyvm.MicroPythonUnavailable as exc:
        return fail(str(exc), 3)
    sys.stdout.write(proc.stdout.decode("utf-8"))
    sys.stderr.write(proc.stderr.decode("utf-8", "replace"))
    return proc.returncode


DEMO_MAX_TRIES = 20000        # the random player's attempts, refused ones included (a game takes ~150)
# the events the demo does not print: the turn's bookkeeping, which the board
# printed after each turn shows in its heading.  Every other event is printed,
# so every change the next board shows (a hit, a move, a wall down) has its line.
DEMO_QUIET = frozenset(("turn", "phase", "end_turn"))


def _say(text, indent=""):
    """Print `text` wrapped to 80 columns: no line of the demo wraps in the terminal."""
    from osada.words.board_text import wrap
    print("\n".join(wrap(text, indent=indent)))


def _demo_event(ev, before, as_json):
    """One event: the monitor's log sentence (texts.describe, with the state
    before the action naming the enemies), or its raw JSON with --json."""
    if as_json:
        print("  " + json.dumps(ev, ensure_ascii=False))
    else:
        from osada.words import texts
        _say("  " + texts.describe(ev, before), indent="      ")


def _lifted(before, after):
    """The enemies whose hedgehog mark the action removed without an event of
    its own (R13: it goes when the next player's turn starts): the board's "#"
    goes, so the demo says why.  [(enemy id, its words)]"""
    from osada.words import texts
    now = {e["id"]: e for e in after["enemies"]}
    return [(e["id"], "Противотанковые ежи (hedgehog) lifted from %s: it moves again (R13)" % (
        texts.enemy_where(e["id"], before)))
        for e in before["enemies"] if e.get("held") and e["id"] in now and not now[e["id"]].get("held")]


def cmd_demo(args):
    """A seeded game played by the random player (aiming, skill 1), the board
    printed after each turn, to the end of the game (won or lost) -- or to
    --turns, and then it says the game is still going.  Its events read as the
    monitor's log sentences (--json: the raw event JSON), and no line is wider
    than 80 columns (the --json event lines excepted).  Piped into a pager or
    `head` that stops reading, it stops quietly."""
    try:
        return _demo(args)
    except BrokenPipeError:
        _quiet_stdout()
        return 0


def _option_words(exc):
    """The rules core's refusal of a new game in the demo's words: "--players must be an integer
    from 2 to 6 (got 9; R3: standard and shoulder take 2-6)", not "format: players (R3…) must …"."""
    import re
    m = re.match(r"(players|seed) (?:\((R\d+): ([^;)]*)[^)]*\) )?must be (.*?)( \(got .*\))?$", exc.message)
    if exc.rule != "format" or m is None:
        return str(exc)
    name, rule, why, must, got = m.groups()
    return "--%s must be %s%s" % (name, must, " (%s%s: %s)" % (got.strip()[1:-1] + "; " if got else "", rule, why)
                                  if rule else got or "")


def _demo(args):
    from osada.words.board_text import render
    from shared_rules.siege.autoplay import RandomPlayer
    from shared_rules.siege.engine import PLAYING, Game

    if args.turns is not None and args.turns < 1:
        return fail("demo: --turns must be 1 or more")
    try:
        game = Game(players=args.players, seed=args.seed)
    except RuleError as exc:
        return fail("demo: %s" % _option_words(exc))
    agent = RandomPlayer(args.seed, skill=1)
    from osada.words.texts import count
    _say("Osada demo: a seeded game of Siege played by the random player (seed %d, %s), %s."
         % (args.seed, count(args.players, "player", "players"), "to the end of the game" if args.turns is None
            else "for at most %s" % count(args.turns, "turn", "turns")))
    print(render(game.state()))
    turn = game.turn
    tries = 0
    rule = None
    while game.outcome == PLAYING and tries < DEMO_MAX_TRIES:
        if args.turns is not None and game.turn > args.turns:
            break
        tries += 1
        before = game.state()
        try:
            events = game.apply(agent.action(game))
        except RuleError:
            continue
        for ev in events:
            if ev["ev"] not in DEMO_QUIET:
                _demo_event(ev, before, args.json)
            if ev["ev"] in ("won", "lost"):
                rule = ev.get("rule")
        for _eid, words in [] if args.json else _lifted(before, game.state()):
            _say("  " + words, indent="      ")
        if game.turn != turn or game.outcome != PLAYING:
            turn = game.turn
            print()
            print(render(game.state()))
    print()
    return _demo_end(game, args, rule, tries)


def _demo_end(game, args, rule, tries):
    """The demo's closing words, and its exit status."""
    from shared_rules.siege.engine import PLAYING, WON

    if game.outcome == WON:
        _say("Game over: WON in turn %d -- the pool is empty and no enemy is left (%s)." % (game.turn, rule or "R51"))
        _say("Ranking: " + "; ".join("player %d %s" % (p, _pts(pts)) for p, pts, _n in game.ranking()) + ".",
             indent="  ")
    elif game.outcome != PLAYING:
        _say("Game over: LOST in turn %d -- the last building has fallen (%s)." % (game.turn, rule or "R50"))
    elif args.turns is not None and game.turn > args.turns:
        from osada.words.texts import count
        _say("Stopped after %s (--turns %d): the game is still going (turn %d, %s in the pool, %s on the board)."
             % (count(args.turns, "turn", "turns"), args.turns, game.turn, count(len(game.pool), "token", "tokens"),
                count(len(game.enemies), "enemy", "enemies")))
    else:
        _say("Stopped: the random player made %d attempts without finishing the game (turn %d); "
             "the game is still going." % (tries, game.turn))
        return 1
    return 0


def _pts(n):
    return "%d pt%s" % (n, "" if n == 1 else "s")


@device_cmd
def cmd_state(args):
    link = open_link(args)
    try:
        print(json.dumps(link.mirror.state, ensure_ascii=False))
    finally:
        link.close()
    return 0


@device_cmd
def cmd_send(args):
    try:
        req = json.loads(args.request)
    except ValueError as exc:
        return fail("send: the request is not JSON (%s)" % exc)
    if not isinstance(req, dict) or not isinstance(req.get("cmd"), str):
        return fail('send: a request is an object with a "cmd", e.g. \'{"cmd": "hello"}\'')
    link = open_link(args)
    try:
        req.pop("id", None)
        cmd = req.pop("cmd")
        reply = link.request(cmd, timeout=args.timeout, **req)
        print(json.dumps(reply, ensure_ascii=False))
        return 0 if reply.get("ok") else 1
    finally:
        link.close()


@device_cmd
def cmd_record(args):
    link = open_link(args)
    try:
        scenario = link.fetch_log()
    finally:
        link.close()
    with open(args.file, "w", encoding="utf-8") as f:
        json.dump(scenario, f, ensure_ascii=False, indent=1)
        f.write("\n")
    print("recorded %d actions to %s (replay: osada scenario %s)" % (len(scenario["actions"]), args.file, args.file))
    return 0


def cmd_monitor(args):
    if getattr(args, "web", False):
        from osada import web
        return web.run(args, in_terminal=True)
    from osada import monitor
    return monitor.main(args)


def cmd_sim(args):
    from osada.sim import simulator
    return simulator.main(args)


class _PathsHelp(argparse.HelpFormatter):
    """Help wrapped at spaces only: a path is never split (at a hyphen, or as too long a word)."""

    def _split_lines(self, text, width):
        import textwrap
        return textwrap.wrap(" ".join(text.split()), width, break_on_hyphens=False, break_long_words=False)


def _sim_defaults():
    """Where `osada sim` keeps its journal and which config it loads, as this
    install finds them (osada.files.paths, at run time): a checkout's build/ and
    firmware/, else the user's state directory and the config that ships in
    the package.  (state dir, config file, the config in words)"""
    from osada.files import paths
    if paths.REPO:
        words = "this checkout's firmware/config.json"
    else:
        words = "the built-in config that ships with osada"
    if not os.path.isfile(paths.DEFAULT_CONFIG):
        words = "the built-in config, missing from this install (reinstall osada)"
    return paths.SIM_STATE, paths.DEFAULT_CONFIG, words


def _home(path):
    """`path` with the user's home directory as ~."""
    home = os.path.expanduser("~")
    return "~" + path[len(home):] if home not in ("", "~", os.sep) and path.startswith(home + os.sep) else path


def _arg_help(text):
    """`text` as it can stand in an argparse help string (which formats with %)."""
    return text.replace("%", "%%")


def _command(argv):
    """The command a command line asks for (its first word that is not an option), or None:
    none asked for, or the help asked for before it (`osada -h scenario`: the whole list)."""
    for a in sys.argv[1:] if argv is None else argv:
        if a in ("-h", "--help"):
            return None
        if not a.startswith("-"):
            return a
    return None


def _add_game_commands(sub, port_help):
    """The commands the games' packages add: Tank battle's, the Pi's device, War Chest's, the
    line-of-battle game's, Victory Day's, Siege's forecast, the web view and a damaged save's."""
    from osada import web
    from osada.device import cli as device_cli
    from osada.line import cli as line_cli
    from osada.link import saved
    from osada.siege import forecast_cmd
    from osada.tank import cli as tank_cli
    from osada.victory import cli as victory_cli
    from osada.warchest import cli as warchest_cli
    tank_cli.add_parser(sub, port_help)
    device_cli.add_parser(sub)
    warchest_cli.add_parser(sub, port_help)
    line_cli.add_parser(sub)
    victory_cli.add_parser(sub)
    forecast_cmd.add_parser(sub)
    web.add_parser(sub, port_help)
    saved.add_parser(sub, port_help)


def main(argv=None):
    p = OneLineParser(prog="osada", description="Osada: the electronic companion for War Thunder: Siege")
    sub = p.add_subparsers(dest="cmd", metavar="COMMAND")
    sc = sub.add_parser("scenario", help="run a scenario file and print the resulting state JSON")
    sc.add_argument("file", help="scenario JSON file (format: shared_rules/README.md)")
    sc.add_argument("--runtime", choices=("cpython", "micropython"), default="cpython",
                    help="run the rules core on CPython (default) or inside real MicroPython")
    sc.set_defaults(func=cmd_scenario)
    dm = sub.add_parser("demo", help="watch a seeded game played by the random player, to its end")
    dm.add_argument("--seed", type=int, default=int(os.environ.get("OSADA_SEED", "2026")))
    dm.add_argument("--players", type=int, default=2)
    dm.add_argument("--turns", type=int, default=None,
                    help="stop after this many turns (default: play until the game is won or lost)")
    dm.add_argument("--json", action="store_true",
                    help="print the events as their raw JSON lines instead of sentences")
    dm.set_defaults(func=cmd_demo)
    port_help = "serial port of the device (default: auto — a Pico by USB id, else the simulator)"
    st = sub.add_parser("state", help="print the device's state JSON")
    st.add_argument("--port", default="auto", help=port_help)
    st.set_defaults(func=cmd_state)
    se = sub.add_parser("send", help="send one request to the device and print its reply")
    se.add_argument("request", help='a JSON request, e.g. \'{"cmd": "act", "action": {"do": "end_turn"}}\'')
    se.add_argument("--port", default="auto", help=port_help)
    se.add_argument("--timeout", type=float, default=3.0, help="seconds to wait for the reply")
    se.set_defaults(func=cmd_send)
    rc = sub.add_parser("record", help="save the device's game so far as a scenario file")
    rc.add_argument("file", help="where to write the scenario (JSON)")
    rc.add_argument("--port", default="auto", help=port_help)
    rc.set_defaults(func=cmd_record)
    mo = sub.add_parser("monitor", help="full-screen live view of the device, with keys to play")
    mo.add_argument("--port", default="auto", help=port_help)
    mo.add_argument("--start-sim", action="store_true",
                    help="if no device is found, start the simulator (osada sim --headless) without asking")
    mo.add_argument("--no-forecast", dest="forecast", action="store_false",
                    help="start with Siege's threat forecast panel hidden (f shows it; it works out the odds "
                         "in a process of its own, at the lowest priority)")
    mo.add_argument("--web", action="store_true", help="serve the live board to browsers too (as `osada web`)")
    from osada import web
    web.web_args(mo)
    mo.set_defaults(func=cmd_monitor)
    sm = sub.add_parser("sim", help="run the firmware on this PC with a virtual board and serial port",
                        formatter_class=_PathsHelp)
    sim_state, sim_config, config_words = _sim_defaults()
    sm.add_argument("--link", default=SIM_LINK,
                    help="symlink to the simulated serial port (default: %s)" % _arg_help(SIM_LINK))
    sm.add_argument("--state", default=None,
                    help="directory for the game journal (default: %s)" % _arg_help(_home(sim_state)))
    sm.add_argument("--seed", type=int, default=None, help="entropy for new games and free rolls")
    sm.add_argument("--config", default=None,
                    help="hardware config (default: %s, %s)" % (config_words, _arg_help(_home(sim_config))))
    sm.add_argument("--headless", action="store_true", help="no terminal display, even in a terminal")
    sm.set_defaults(func=cmd_sim)
    if _command(argv) not in sub.choices:      # one of this module's own: the games' modules stay unloaded
        _add_game_commands(sub, port_help)      # (a fifth of a second of imports a scenario or a demo skips)
    args = p.parse_args(argv)
    if getattr(args, "cmd", None) == "sim":          # the defaults its --help shows
        args.state = args.state or sim_state
        args.config = args.config or sim_config
    if not getattr(args, "func", None):
        p.print_help()
        return 2
    try:
        code = args.func(args)
        sys.stdout.flush()                      # here, where a closed pipe is caught, not at exit
        return code
    except BrokenPipeError:
        # the reader went away (`osada line claim … | head`): every command stops quietly
        _quiet_stdout()
        return 0


def _quiet_stdout():
    """stdout to /dev/null: no second BrokenPipeError when Python flushes it at exit."""
    devnull = os.open(os.devnull, os.O_WRONLY)
    os.dup2(devnull, sys.stdout.fileno())


if __name__ == "__main__":
    sys.exit(main())
