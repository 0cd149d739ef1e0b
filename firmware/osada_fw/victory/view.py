# What the ring shows for «День Победы»'s toss (osada_fw/victory/mode.py),
# in one place.
#
# Positions 0-23 run around the ring in sector order, as Tank battle's do:
# position p is sector p // 4 + 1, line p % 4.  Seat A is positions 0-11
# (sectors 1-3), seat B positions 12-23 (sectors 4-6): each player sits by
# his half.  A seat's colour is its faction's: the USSR red, Germany a field
# grey-blue (FACTION_COLORS; which seat plays which is the game's setting).
#
#   toss ready    both halves dim in their seats' colours, one brighter LED
#                 going slowly round: nothing drawn yet (the encoder swaps
#                 the seats' factions, the halves' colours follow)
#   the toss      for TOSS_MS the light flips from half to half, slowing,
#                 and stops on the half the lot chose
#   who starts    that seat's half lit in its colour, the other half dark:
#                 the first player of this game (V8)
#   shown again   after "next game" (or ACTION on a toss already made) the
#                 half of the seat that starts now blinks for BLINK_MS first
#
# Allocates nothing per frame.  Runs on MicroPython and CPython alike.

from osada_fw import TICKS_MASK

RING = 24
HALF = 12                       # a seat's half: positions 12 * seat .. 12 * seat + 11
USSR_RGB = (255, 0, 0)
GERMANY_RGB = (60, 90, 200)     # field grey, on the blue side: LEDs show pure grey as white
FACTION_COLORS = (USSR_RGB, GERMANY_RGB)   # by faction: 0 the USSR, 1 Germany

SHOW_STEADY = 0                 # what the ring shows, after game.at: steady,
SHOW_TOSS = 1                   # ... the toss's flips first,
SHOW_BLINK = 2                  # ... a blink first

SPARK_MS = 180                  # toss ready: the bright LED moves on a position this often
FLIP_MS = (60, 60, 70, 80, 90, 110, 130, 160, 200, 250)   # the toss: how long each flip shows
TOSS_MS = 1210                  # sum(FLIP_MS): then the result stays
BLINK_MS = 600
BLINK_STEP = 100                # on, off, on, ... this long each


_pos = [0] * RING       # position -> its LED in the layout last drawn with
_pos_of = [None]


def positions(lay):
    """Map the 24 positions through lay, unless that was the last layout."""
    if _pos_of[0] is not lay:
        for p in range(RING):
            _pos[p] = lay.index(p // 4 + 1, p % 4)
        _pos_of[0] = lay


def colour(game, seat):
    """Seat (0 A, 1 B)'s colour: its faction's."""
    return FACTION_COLORS[0 if seat == game.ussr else 1]


def half(r, seat, c, dim=0):
    """Light seat's half with colour c, divided by 2**dim (positions() first)."""
    p = HALF * seat
    while p < HALF * seat + HALF:
        r.set_pixel(_pos[p], c[0] >> dim, c[1] >> dim, c[2] >> dim)
        p += 1


def flip(age):
    """During the toss: how many flips are still to come after the one showing at age (ms)."""
    k = 0
    t = FLIP_MS[0]
    last = len(FLIP_MS) - 1
    while k < last and age >= t:
        k += 1
        t += FLIP_MS[k]
    return last - k


def draw(game, lay, now, r):
    positions(lay)
    r.clear()
    s = game.starter()
    if s < 0:                                   # toss ready
        half(r, 0, colour(game, 0), 4)
        half(r, 1, colour(game, 1), 4)
        p = (now // SPARK_MS) % RING
        c = colour(game, p // HALF)
        r.set_pixel(_pos[p], c[0] >> 1, c[1] >> 1, c[2] >> 1)
        return
    age = (now - game.at) & TICKS_MASK          # ticks_ms wraps at 2**30
    if game.shown == SHOW_TOSS and age < TOSS_MS:
        side = s ^ (flip(age) & 1)              # the last flip shows the lot's seat
        half(r, side, colour(game, side), 1)
        return
    if game.shown == SHOW_BLINK and age < BLINK_MS and (age // BLINK_STEP) & 1:
        return
    half(r, s, colour(game, s))
