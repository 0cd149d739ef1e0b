"""Victory Day's toss in words (V8): which seat starts, from the device's state,
checked against shared_rules' V8 (the lot in game 1, then alternating), and the
lines `osada victory toss` prints.  The monitor, the host's page and the page with
no host (osada.site.reader, in the static site's MicroPython VM) say it with these:
it runs on both runtimes (no fractions module: the lot is an exact (num, den))."""

import json

from osada.words.tank_rolls import chance
from shared_rules.exact import frac
from shared_rules.victory.toss import SEATS, starter

FACTIONS = ("USSR", "Germany")
COLOUR_WORDS = {"USSR": "red", "Germany": "field grey-blue"}     # the ring's colours (osada_fw/victory/view.py)
HALF_WORDS = {"A": "sectors 1-3", "B": "sectors 4-6"}            # each seat's half of the ring (view.py)
LOT = frac(1, len(SEATS))       # the lot: one seat of two, one random bit: (num, den) in lowest terms


class TossError(Exception):
    """The toss cannot be said: one sentence why."""


def toss_of(ev):
    """The toss state a `victory` event carries (the event less its own fields)."""
    return {k: v for k, v in ev.items() if k not in ("ev", "did", "source")}


def v8_starter(lot, game):
    """The seat that starts game `game` of a match whose first game went to
    seat `lot` by lot, by shared_rules' V8: the lot, then alternating."""
    first, _next = starter(SEATS.index(lot))
    for _ in range(game - 1):
        first, _next = starter(None, previous_starter=first)
    return first


def faction(state, seat):
    """The faction seat `seat` plays, from the device's state ("ussr": the USSR's seat)."""
    return FACTIONS[0] if seat == state["ussr"] else FACTIONS[1]


def checked(state):
    """The device's state, once its starter is V8's; TossError if it is not, or is not a toss at all."""
    try:
        lot, game, seat, ussr = state["lot"], state["game"], state["starter"], state["ussr"]
    except (KeyError, TypeError):
        raise TossError("the device's answer is not a toss: %s" % json.dumps(state)) from None
    if lot not in SEATS or ussr not in SEATS or not isinstance(game, int) or isinstance(game, bool) or game < 1:
        raise TossError("the device's answer is not a toss: %s" % json.dumps(state))
    want = v8_starter(lot, game)
    if seat != want:
        raise TossError("V8: the device says seat %s starts game %d, but the lot gave seat %s game 1, so seat %s "
                        "starts it" % (seat, game, lot, want))
    return state


def headline(state):
    """'Seat A (USSR) starts game 1: the lot', or 'game 2: Seat B (Germany) starts: alternating, V8'."""
    seat, game = state["starter"], state["game"]
    who = "Seat %s (%s)" % (seat, faction(state, seat))
    if game == 1:
        return "%s starts game 1: the lot" % who
    return "game %d: %s starts: alternating, V8" % (game, who)


def describe(state, tossed):
    """The toss in words: the headline, the lot, the ring and the next game."""
    seat, game, lot = state["starter"], state["game"], state["lot"]
    odds = "%d/%d (%s)" % (LOT[0], LOT[1], chance(*LOT))
    if game == 1:
        how = "the lot: one random bit, %s for each seat; %s" % (odds, "drawn now" if tossed else "drawn before, kept")
    else:
        how = "the lot gave game 1 to seat %s, at %s; the first move alternates" % (lot, odds)
    nxt = SEATS[1 - SEATS.index(seat)]
    colour = COLOUR_WORDS[faction(state, seat)]
    lines = [headline(state), "  " + how,
             "  the ring: seat %s's half (%s) lit %s" % (seat, HALF_WORDS[seat], colour),
             "  game %d: seat %s (%s) starts (--next)" % (game + 1, nxt, faction(state, nxt))]
    if state.get("saved") is False:
        lines.append("  not kept on the device's flash: lost if the device restarts")
    return lines
