"""`osada warchest`: War Chest's («Сундук войны») command group, added to
the CLI's: `odds` (the draw odds of a bag, odds.py), `track` (the bag tracker
at the table, track.py and app.py), `replay` (a saved game checked again,
replay.py) and `watch` (the device's round tracker live, watch.py).  A bad
option is one line on stderr and exit status 2."""

import argparse

from . import coinlists, odds, replay, track, watch


def _coin_list():
    def read(text):
        try:
            return coinlists.parse(text)
        except ValueError as exc:
            raise argparse.ArgumentTypeError(str(exc)) from None
    return read


def _at_least(name, lo):
    def parse(text):
        try:
            v = int(text)
        except ValueError:
            raise argparse.ArgumentTypeError("%s must be a whole number, not %r" % (name, text)) from None
        if v < lo:
            raise argparse.ArgumentTypeError("%s must be %d or more (got %d)" % (name, lo, v))
        return v
    return parse


def _watch_parser(wsub, port_help):
    w = wsub.add_parser(
        "watch", help="mirror the device's round tracker live; keys press its buttons",
        description="Print the round, both players' coins in hand and control markers to place, the "
                    "initiative and whose action it is, each time the device's War Chest tracker changes.")
    w.add_argument("--port", default="auto", help=port_help)
    w.add_argument("--switch", action="store_true",
                   help="switch the device to War Chest for the session (and back at the end)")
    w.add_argument("--start-sim", action="store_true", help="start the simulator if no device is found")
    w.add_argument("--count", type=_at_least("--count", 1), default=None,
                   help="stop after this many changes")
    w.add_argument("--seconds", type=float, default=None, help="stop after this many seconds")
    w.add_argument("--no-keys", action="store_true", help="do not read keys from the terminal")
    w.set_defaults(func=watch.cmd_watch)


def add_parser(sub, port_help="serial port of the device (default: auto)"):
    """The `warchest` command group, added to the CLI's subparsers (port_help:
    the CLI's words for --port)."""
    wc = sub.add_parser("warchest", help="«Сундук войны» (War Chest): draw odds, the bag tracker, "
                                                   "a saved game replayed, the device's round tracker")
    wsub = wc.add_subparsers(dest="warchest_cmd", metavar="WARCHEST_COMMAND")
    od = wsub.add_parser(
        "odds", help="exact odds of drawing each coin type: the next hand, within R rounds",
        description="For every type of the bag and discard: P(at least one in the next hand), and within R "
                    "rounds, exact (W8-W10).")
    od.add_argument("--bag", type=_coin_list(), required=True, metavar="TYPE:N,…",
                    help="the coins in the bag, e.g. archer:2,cavalry:2,royal:1")
    od.add_argument("--discard", type=_coin_list(), default={}, metavar="TYPE:N,…",
                    help="the discard, face up and face down: it refills the bag when the bag is empty (W9)")
    od.add_argument("--hand", type=_at_least("--hand", 1), default=3, metavar="N",
                    help="coins a draw takes (default 3, W8)")
    od.add_argument("--rounds", type=_at_least("--rounds", 1), default=None, metavar="R",
                    help="also the odds of at least one within R rounds")
    od.add_argument("--json", action="store_true",
                    help='print {"types": {TYPE: {"next_hand": "p/q", "within_rounds": "p/q"}}}')
    od.set_defaults(func=odds.cmd_odds)
    tr = wsub.add_parser(
        "track", help="the bag tracker at the table (a new game, or FILE's resumed)",
        description="Follow a game's coins event by event; saved after every event, resumed from FILE.")
    tr.add_argument("file", nargs="?", default=None,
                    help="the saved game (default: %s)" % track.DEFAULT_FILE.replace("%", "%%"))
    tr.add_argument("--players", type=int, choices=(2, 4), default=None, help="2 (default) or 4 (W25)")
    tr.add_argument("--units", default=None, metavar="SETS",
                    help="first (W3), gaugamela, bannockburn, crecy (W27), or each player's types: "
                         "archer,cavalry,lancer,scout/swordsman,pikeman,crossbowman,light_cavalry")
    tr.add_argument("--counts", default=None, metavar="TYPE:N,…|FILE",
                    help="the coins printed on the unit cards, where yours differ from the published "
                         "game's (%s; WA1: they sum to 74)" % track.card_counts_words())
    tr.add_argument("--initiative", default=None, metavar="N", help="the player holding the marker (W6)")
    tr.add_argument("--owner", default=None, metavar="N[,N]",
                    help="the players whose draws and face-down coins you enter (the owner view)")
    tr.add_argument("--rounds", type=_at_least("--rounds", 1), default=2, metavar="R",
                    help="the owner view's odds within R rounds (default 2)")
    tr.set_defaults(func=track.cmd_track)
    rp = wsub.add_parser(
        "replay", help="check a saved game event by event; the first wrong one named with its rule",
        description="Play a saved game's events again through the rules; exit 1 at the first wrong one.")
    rp.add_argument("file", nargs="?", default=None, help="the saved game")
    rp.add_argument("--owner", default=None, metavar="N[,N]",
                    help="also print the hidden coins of these players, as entered (as in track)")
    rp.set_defaults(func=replay.cmd_replay)
    _watch_parser(wsub, port_help)

    def no_command(_args):
        wc.print_help()
        return 2
    wc.set_defaults(func=no_command)
    return wc
