"""`osada tank`: Tank battle's («Танковый бой») command group, added to the
CLI's: `odds` (the dice calculator, odds.py), `watch` (the device's rolls
live, watch.py) and `replay` (a saved log of rolls re-checked, rolls.py)."""

import argparse

from osada.tank import odds, rolls, watch


def _int_in(name, lo, hi=None):
    def parse(text):
        try:
            v = int(text)
        except ValueError:
            raise argparse.ArgumentTypeError("%s must be a whole number, not %r" % (name, text)) from None
        if v < lo or (hi is not None and v > hi):
            rng = "%d..%d" % (lo, hi) if hi is not None else ">= %d" % lo
            raise argparse.ArgumentTypeError("%s must be %s (got %d)" % (name, rng, v))
        return v
    return parse


def add_parser(sub, port_help):
    """The `tank` command group, added to the CLI's subparsers."""
    tk = sub.add_parser("tank", help="«Танковый бой» (Art of Tactic): the dice calculator, "
                                     "the device's rolls live, a log replayed")
    tsub = tk.add_subparsers(dest="tank_cmd", metavar="TANK_COMMAND")
    od = tsub.add_parser("odds", help="exact odds of a fire test: hits, and damage after protection",
                         description="Exact odds of one fire test (T12): N dice, a die hits if its "
                                     "face <= V. Unit numbers come from the cards.")
    od.add_argument("--dice", type=_int_in("N", 1, odds.MAX_DICE), required=True, metavar="N",
                    help="intensity: dice rolled (1..%d)" % odds.MAX_DICE)
    od.add_argument("--hit", type=_int_in("V", 0, 6), required=True, metavar="V",
                    help="accuracy at the distance: highest face that hits (0..6)")
    od.add_argument("--protection", type=_int_in("P", 0), default=None, metavar="P",
                    help="the target's remaining protection this turn (>= 0): also show damage")
    od.add_argument("--ambush", action="store_true", help="fire from ambush: +1 to the hit number (T13, T35)")
    od.add_argument("--suppress", action="store_true",
                    help="suppression fire: N is the card intensity, N + ceil(N/2) dice are rolled (T27)")
    od.set_defaults(func=odds.cmd_odds)
    _watch_parsers(tsub, port_help)

    def no_command(_args):
        tk.print_help()
        return 2
    tk.set_defaults(func=no_command)
    return tk


def _watch_parsers(tsub, port_help):
    w = tsub.add_parser("watch", help="mirror the device's dice rolls live, with their odds",
                        description="Print every roll of the device's tank mode («Кубики») with the exact "
                                    "odds of its result; keys drive the device's buttons.")
    w.add_argument("--port", default="auto", help=port_help)
    w.add_argument("--log", metavar="FILE", default=None, help="append every roll to FILE (JSON lines)")
    w.add_argument("--switch", action="store_true",
                   help="switch the device to the tank game for the session (and back at the end)")
    w.add_argument("--start-sim", action="store_true", help="start the simulator if no device is found")
    w.add_argument("--count", type=int, default=None, help="stop after this many rolls")
    w.add_argument("--seconds", type=float, default=None, help="stop after this many seconds")
    w.add_argument("--no-keys", action="store_true", help="do not read keys from the terminal")
    w.set_defaults(func=watch.cmd_watch)
    r = tsub.add_parser("replay", help="print a saved log of rolls with their odds, re-checking each",
                        description="Print a log saved by `osada tank watch --log` with the odds of every "
                                    "roll; exit 1 if a roll's counts do not match its faces.")
    r.add_argument("file", help="the JSON-lines log")
    r.set_defaults(func=rolls.cmd_replay)
