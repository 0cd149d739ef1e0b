"""`osada victory`: «День Победы» (Victory Day)'s command group, added to the
CLI's: `odds` (the starting hand, odds.py), `pay` (a cost and V15's
substitution, pay.py), `combat` (one combat, combat.py), `clock` (the deck
clock, clock.py), `toss` (the device's lot for the first player, toss.py)
and `sim` (the simulator, started in the toss).
A wrong input is one line on stderr, naming the rule that refuses it, and exit
status 2; nothing else happens."""

import argparse
import sys

from osada.argparsing import OneLineParser
from osada.link import ports
from osada.link.device import fail
from osada.victory import clock, combat, odds, pay, toss
from osada.victory.unitspec import SpecError, read_file
from osada.words.game_names import game_name
from shared_rules.errors import RuleError


def _whole(what):
    def parse(text):
        try:
            return int(text)
        except ValueError:
            raise argparse.ArgumentTypeError("%s is a whole number, not %r" % (what, text)) from None
    return parse


def _vector(what):
    def parse(text):
        parts = text.split(",")
        try:
            values = tuple(int(p) for p in parts)
        except ValueError:
            values = ()
        if len(parts) != 3 or len(values) != 3:
            raise argparse.ArgumentTypeError("%s is three whole numbers S,Z,T (склад, завод, топливо), "
                                             "e.g. 1,2,1, not %r" % (what, text))
        return values
    return parse


def _guarded(name, func):
    """func(args), a refused input said in one line (the rule's id first) with exit status 2."""
    def run(args):
        try:
            return func(args)
        except RuleError as exc:
            return fail("victory %s: %s" % (name, exc))
        except (SpecError, clock.ScheduleError) as exc:
            return fail("victory %s: %s" % (name, exc))
    return run


def add_parser(sub):
    """The `victory` command group, added to the CLI's subparsers."""
    vk = sub.add_parser("victory", help="%s: hand odds, paying costs, combats, the deck clock, "
                                        "the device's toss" % game_name("victory"))
    vk.error = OneLineParser.error.__get__(vk)      # the CLI's own parser class: a wrong command in one line too
    vsub = vk.add_subparsers(dest="victory_cmd", metavar="VICTORY_COMMAND", parser_class=OneLineParser)
    od = vsub.add_parser("odds", help="the starting hand of 7: resources, redeal, keepable (V9, V10)",
                         description="Exact odds of the starting hand (V9) and its redeal (V10).")
    od.add_argument("deck", type=_whole("N"), metavar="N", help="cards in the deck (>= 7)")
    od.add_argument("resources", type=_whole("R"), metavar="R", help="resource cards in it (0..N)")
    od.add_argument("--at-least", type=_whole("r"), default=2, metavar="r",
                    help="also print P(at least r resources) (0..7; default 2)")
    od.add_argument("--json", action="store_true", help="print JSON")
    od.set_defaults(func=_guarded("odds", odds.cmd_odds))
    pa = vsub.add_parser("pay", help="pay a cost with resource cards, substitution included (V15)",
                         description="Can the untapped resource cards pay the cost (V15: a missing resource "
                                     "= two of the other kinds)? %s." % pay.KIND_WORDS)
    pa.add_argument("--have", type=_vector("--have"), required=True, metavar="S,Z,T",
                    help="untapped resource cards in play, per kind")
    pa.add_argument("--cost", type=_vector("--cost"), required=True, metavar="S,Z,T", help="the cost, per kind")
    pa.add_argument("--json", action="store_true", help="print JSON")
    pa.set_defaults(func=_guarded("pay", pay.cmd_pay))
    _combat_parser(vsub)
    _clock_parser(vsub)
    _toss_parser(vsub)

    def no_command(_args):
        vk.print_help()
        return 2
    vk.set_defaults(func=no_command)
    return vk


def _combat_parser(vsub):
    co = vsub.add_parser("combat", help="one combat: what each side can destroy (V26-V30, V37, V38)",
                         description="One combat: effective values (V27), each side's pool and every maximal "
                                     "set of enemy units it can destroy (V28); aviation by V37-V38; an "
                                     "attack on the deck or a resource (V30).  A unit: 'NAME, TYPE[/KIND], "
                                     "A/D[, extras]' (docs/victory-day.md).")
    co.add_argument("--att", action="append", default=[], metavar="UNIT", help="an attacking unit (repeat)")
    co.add_argument("--def", dest="dfn", action="append", default=[], metavar="UNIT",
                    help="a defending unit (repeat)")
    co.add_argument("--file", default=None, help="a file of units, one a line: 'att: UNIT' or 'def: UNIT'")
    co.add_argument("--target", choices=("deck", "resource"), default=None,
                    help="the attackers hit the defender's deck or a resource card (V30), not units")
    co.add_argument("--deck", type=_whole("the deck"), default=None, metavar="N",
                    help="with --target deck: the cards in the defender's deck")
    co.add_argument("--json", action="store_true", help="print JSON")
    co.set_defaults(func=_guarded("combat", cmd_combat))


def _clock_parser(vsub):
    cl = vsub.add_parser("clock", help="the deck clock: turns left, who cannot draw first (V39)",
                         description="Own turns left for a deck (V39), or which of two decks runs out first, "
                                     "mills simulated turn by turn.  A mill schedule: N, N@T (from turn T) "
                                     "or N,N,... (turn by turn).")
    cl.add_argument("deck", type=_whole("D"), metavar="D",
                    help="the deck at the start of the turn, before drawing (with --new-game: the whole deck)")
    cl.add_argument("--milled", default="0", metavar="X",
                    help="cards this player loses in each of the other's turns (default 0)")
    cl.add_argument("--vs", type=_whole("D2"), default=None, metavar="D2", help="the other player's deck")
    cl.add_argument("--mills", default=None, metavar="Y",
                    help="with --vs: cards this player mills from the other in each of his turns")
    cl.add_argument("--new-game", action="store_true",
                    help="with --vs: whole decks of a new game; this player moves first")
    cl.add_argument("--table", action="store_true", help="with --vs: print every turn")
    cl.add_argument("--json", action="store_true", help="print JSON")
    cl.set_defaults(func=_guarded("clock", clock.cmd_clock))


def _toss_parser(vsub):
    to = vsub.add_parser("toss", help="the device tosses for the first player; later games alternate (V8)",
                         description="Ask the device to toss for the first player of the first game (one "
                                     "random bit: seat A or B), or read the lot it drew before; --next goes "
                                     "on to the next game, whose first move goes to the other seat (V8).")
    to.add_argument("--port", default="auto",
                    help="serial port of the device (default: auto: a Pico by USB id, else the simulator)")
    to.add_argument("--start-sim", action="store_true", help="start the simulator if no device is found")
    to.add_argument("--switch", action="store_true",
                    help="switch the device to %s if it runs another game (it stays there, its ring showing "
                         "who starts)" % game_name("victory", short=True))
    to.add_argument("--next", action="store_true", help="the next game: the other seat starts (V8)")
    to.add_argument("--ussr", choices=toss.SEATS, default=None,
                    help="the seat that plays the USSR (the other plays Germany); kept by the device")
    to.add_argument("--new-match", action="store_true",
                    help="forget the lot and draw a new one: a new match, game 1 again (V8's lot is one a match)")
    to.add_argument("--json", action="store_true", help="print JSON")
    to.set_defaults(func=toss.cmd_toss)
    si = vsub.add_parser("sim", help="the simulator in this terminal, in %s: its ring shows the toss"
                                     % game_name("victory", short=True),
                         description="Run the simulator (osada sim) in this terminal with the device in %s's "
                                     "toss: its ring, its keys; Siege's game in progress is kept. `osada victory "
                                     "toss` in another terminal talks to it." % game_name("victory", short=True))
    si.set_defaults(func=cmd_sim)


def cmd_sim(args):
    """`osada victory sim`: `osada sim` (its link, its state dir), the device in the toss from the start."""
    from osada.files import paths
    from osada.sim import simulator
    args.link, args.state, args.seed, args.config, args.headless = ports.SIM_LINK, paths.SIM_STATE, None, None, False
    args.game = toss.GAME
    return simulator.main(args)


def cmd_combat(args):
    att = [(t, "--att") for t in args.att]
    dfn = [(t, "--def") for t in args.dfn]
    target, deck = args.target, args.deck
    if args.file:
        f = read_file(args.file)
        att, dfn = att + f["att"], dfn + f["def"]
        target = target or f["target"]
        deck = deck if deck is not None else f["deck"]
    if deck is not None and target != "deck":
        raise SpecError("--deck N goes with --target deck")
    units = combat.build(att, dfn)
    if target:
        if dfn:
            raise SpecError("an attack on the %s has no defending units (V30)" % target)
        print(combat.target_json(target, units, deck) if args.json else combat.render_target(target, units, deck),
              end="\n" if args.json else "")
        return 0
    from shared_rules.victory.combat import Combat
    c = Combat(units)
    print(combat.as_json(c) if args.json else combat.render(c), end="\n" if args.json else "")
    return 0


def run(argv):
    """`osada victory ...` alone (argv without "victory"): the group's own parser, for tests and scripts."""
    p = OneLineParser(prog="osada")
    sub = p.add_subparsers(dest="cmd", parser_class=OneLineParser)
    add_parser(sub)
    args = p.parse_args(["victory"] + list(argv))
    return args.func(args)


if __name__ == "__main__":
    sys.exit(run(sys.argv[1:]))
