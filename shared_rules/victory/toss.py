"""Who moves first (V8): by lot in the first game, then alternating.

The device's toss gives one random bit; the host calls starter() with it (and
with the last game's starter from the second game on) and shows the seat.
"""

from shared_rules.errors import bad

SEATS = ("A", "B")


def other(seat):
    """The seat that is not `seat`."""
    return SEATS[1] if seat == SEATS[0] else SEATS[0]


def starter(toss_bit=None, previous_starter=None):
    """V8: (this game's first player, the next game's first player), seats "A"/"B".

    The first game (previous_starter None) is decided by lot: toss bit 0 -> A,
    1 -> B.  In a later game the first move alternates: it goes to the seat
    that did not start the previous game, whatever the toss (the bit may be
    given or left out)."""
    if previous_starter is not None:
        if previous_starter not in SEATS:
            bad("V8", "the previous game's first player is seat A or B, not %r" % (previous_starter,))
        first = other(previous_starter)
        return first, other(first)
    if toss_bit not in (0, 1) or isinstance(toss_bit, bool):
        bad("V8", "the first game's first player is drawn by lot: a toss bit 0 or 1 is needed, not %r" % (toss_bit,))
    first = SEATS[toss_bit]
    return first, other(first)
