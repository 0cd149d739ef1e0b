# What the ring shows in War Chest's round tracker (osada_fw/warchest/mode.py),
# in one place.
#
# Positions 0-23 run around the ring in sector order: position p is sector
# p // 4 + 1, line p % 4 (rear first, as the layout places it; on the
# "spokes" layout, LED p).  Positions 0-11 (sectors 1-3) are player 1's,
# 12-23 (sectors 4-6) player 2's, each half the same (o = 0 or 12):
#   o+0..o+2    the coins left in his hand, white (W8, W10)
#   o+3         the initiative marker, gold, in the holder's half; blinking
#               once it changed hands this round (W16)
#   o+4..o+9    his control markers still to place, in his colour (player 1
#               blue, player 2 red): 4 at the start (W2), none = he won (W7)
#   o+10, o+11  his action: pulsing in his colour while it is his (W11)
# The player who placed his last marker: his whole half pulses in his colour.
# A refused press: the two action LEDs flash magenta for REFUSED_MS.
# The count the encoder fixes (for mode.FIX_MS after the encoder's last
# touch): its LEDs blink, its empty places glow dim so the span shows.
# A new game's flip (W6): for FLIP_MS, gold tumbles from half to half for
# TUMBLE_MS, then fills the half of the player who holds the initiative.
#
# Allocates nothing per frame.  Runs on MicroPython and CPython alike.

from osada_fw import elapsed
from osada_fw.layouts import SECTOR_LEDS

RING = SECTOR_LEDS      # the 24 LEDs of the sectors (no city LEDs used)
HALF = 12
HAND_AT = 0
INIT_AT = 3
MARK_AT = 4
TURN_AT = 10
HAND_LEDS = 3           # a hand's places (W8: 3 coins)
MARK_LEDS = 6           # the markers' places (W2: 6 a player)

C_MARKERS = 0           # what the encoder fixes (mode.py's cursor): a player's markers,
C_HAND = 1              # ... his hand's coins,
C_HOLDER = 2            # ... the initiative holder

FACTION = ((0, 90, 255), (255, 0, 0))
COIN = (255, 255, 255)
GOLD = (255, 170, 0)
REFUSED = (255, 0, 200)
PULSE_MS = 1200
FLIP_MS = 2000
TUMBLE_MS = 1000
REFUSED_MS = 600


_pos = [0] * RING       # position -> its LED in the layout last drawn with
_pos_of = [None]


def positions(lay):
    """Map the 24 positions through lay, unless that was the last layout."""
    if _pos_of[0] is not lay:
        for p in range(RING):
            _pos[p] = lay.index(p // 4 + 1, p % 4)
        _pos_of[0] = lay


def px(r, p, c, level=256):
    """Light position p (0-23) with colour c at level/256 (positions() first)."""
    r.set_pixel(_pos[p], c[0] * level >> 8, c[1] * level >> 8, c[2] * level >> 8)


def pulse(now):
    """A level from 48 up to 255 and back over PULSE_MS."""
    half = PULSE_MS // 2
    ph = now % PULSE_MS
    if ph > half:
        ph = PULSE_MS - ph
    return 48 + 207 * ph // half


def draw(wc, lay, now, r):
    positions(lay)
    r.clear()
    if wc.flip_at >= 0 and elapsed(now, wc.flip_at) < FLIP_MS:
        _flip(wc, elapsed(now, wc.flip_at), r)
        return
    blink = (now // 250) & 1
    level = pulse(now)
    refused = wc.refused_at >= 0 and elapsed(now, wc.refused_at) < REFUSED_MS
    for p in range(2):
        o = HALF * p
        c = FACTION[p]
        if wc.winner == p:
            for k in range(HALF):
                px(r, o + k, c, level)
            continue
        for k in range(wc.hand[p]):
            px(r, o + HAND_AT + k, COIN)
        for k in range(wc.markers[p]):
            px(r, o + MARK_AT + k, c)
        if wc.holder == p and (not wc.moved or blink):
            px(r, o + INIT_AT, GOLD)
        if wc.winner < 0 and wc.turn == p:
            for k in range(TURN_AT, TURN_AT + 2):
                if not refused:
                    px(r, o + k, c, level)
                elif (now // 100) & 1:
                    px(r, o + k, REFUSED)
    if wc.showing_cursor(now):
        _cursor(wc, (now // 125) & 1, r)


def _cursor(wc, on, r):
    """The count the encoder fixes: its lit LEDs blink, its empty places glow dim."""
    p = wc.cur_p
    if wc.cur == C_HOLDER:                      # both halves' places of the marker
        for q in range(2):
            px(r, HALF * q + INIT_AT, GOLD, 256 if wc.holder == q and on else 16)
        return
    if wc.cur == C_MARKERS:
        at = HALF * p + MARK_AT
        n = wc.markers[p]
        top = MARK_LEDS
        c = FACTION[p]
    else:
        at = HALF * p + HAND_AT
        n = wc.hand[p]
        top = HAND_LEDS
        c = COIN
    for k in range(top):
        px(r, at + k, c, (256 if on else 0) if k < n else 16)


def _flip(wc, age, r):
    if age < TUMBLE_MS:
        side = (age // 125) & 1
    else:
        side = wc.holder
    for k in range(HALF):
        px(r, HALF * side + k, GOLD)
