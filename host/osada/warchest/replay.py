"""`osada warchest replay FILE`: a saved game checked again, event by event,
by the rules core: each event printed as the table may read it (W24), and
the first wrong one named with its rule id (exit 1); at the end, the state."""

import sys

from osada.link.device import fail
from shared_rules.errors import RuleError
from shared_rules.warchest import events as evs
from shared_rules.warchest.game import Game

from . import render
from .journal import Journal, JournalError
from .track import parse_players


def cmd_replay(args):
    if args.file is None:
        if args.owner is not None and not args.owner.replace(",", "").isdigit():
            return fail("warchest replay: --owner takes the players whose hidden coins to print (N or N,N, "
                        "as in track), not the file %r: e.g. --owner 1 %s" % (args.owner, args.owner))
        return fail("warchest replay: which saved game? Give its FILE")
    try:
        journal = Journal.load(args.file)
        s = journal.setup
        g = Game(s["players"], s["types"], s["counts"], s["initiative"], s["known"])
    except JournalError as exc:
        return fail("warchest replay: %s" % exc)
    except RuleError as exc:
        return fail("warchest replay: %s: the setup: %s" % (args.file, exc))
    try:           # --owner means what it means in `track`: the players whose hidden coins are shown
        shown = parse_players(args.owner or "none", g.players, "--owner")
    except ValueError as exc:
        return fail("warchest replay: %s" % exc)
    for i, line in enumerate(journal.events):
        try:
            ev = g.apply(evs.parse(line, g.players))
        except RuleError as exc:
            sys.stdout.flush()
            return fail("warchest replay: %s: event %d (%s): %s" % (args.file, i + 1, line, exc), 1)
        print("%4d  %s" % (i + 1, evs.text(ev) if ev["p"] in shown else render.public_event(ev)))
    print("%s: %d event%s, every one within the rules." % (args.file, len(journal.events),
                                                           "" if len(journal.events) == 1 else "s"))
    print("\n".join(render.summary(g)))
    return 0
