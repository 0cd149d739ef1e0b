# What the ring shows in «Кубики» (osada_fw/tank/mode.py), in one place.
#
# Positions 0-23 run around the ring in sector order: position p is sector
# p // 4 + 1, line p % 4 (rear first, as the layout places it), so every
# sector is a group of 4 that the eye counts at a glance.
#
# Setting up (the numbers of the test):
#   the test      sectors 1-5 in the tests' colours (fire orange, suppress
#                 red, morale blue, counter-attack purple, collision white),
#                 the chosen one blinking
#   a number      its whole range dim, the value as a bright bar from
#                 position 0, in the number's colour: dice white, hit
#                 yellow, ambush green (1 LED = on), protection blue,
#                 steadiness cyan, collision A green / B magenta
#   a collision   each side's units as whole sectors (A from sector 1, B
#                 from sector 4: where the result shows them); unit k's
#                 steadiness as a bar over sectors 1-3, sector 3 + k blinking
# A fire or suppression roll, outcome (the view after the roll):
#   one LED per die, hits first: blue = a hit the protection absorbed, red =
#   a hit that is damage, dim white = a miss; so blue+red = hits, red =
#   damage (tanks lost); sector 6 blinks amber when the target must take a
#   morale test (any damage, or always after suppression fire, T20).
#   A turn of the encoder shows the faces instead: sector f = the dice that
#   show face f, one LED each (green if f hits, red if not); a 5th-8th die
#   turns the 1st-4th LED white; more than 8 blink white.
# A morale roll: die q (q = 0-3) on positions 6q..6q+5, its face f as f LEDs,
#   all green if the test passed (sum <= steadiness), all red if not.
# Counter-attack: side A's die on positions 0-5, side B's on 12-17 (face f
#   = f LEDs); the winner green, the loser red (ties were re-rolled, TA8).
# Collision (T39, 1-3 units a side): one sector per unit, side A's from
#   sector 1, side B's from sector 4; its die's face f as f LEDs, a 5 or 6
#   turning the first 1 or 2 of the four white (as in the faces view).
#   Green: the unit moves in (its total beats every opposing one, TA9); red:
#   it stops, beaten; amber: it stops on a tie with the best opposing total.
# For the first ROLL_MS after a roll the dice "tumble": the LEDs that will be
# lit run round in white, then the result stays until the next input.
#
# Allocates nothing per frame.  Runs on MicroPython and CPython alike.

from osada_fw import TICKS_MASK

ROLL_MS = 400
TEST_COLORS = ((255, 90, 0), (255, 0, 0), (0, 80, 255), (170, 0, 255), (200, 200, 200))
# per number of mode.FIELDS: its colour; for a collision's numbers
# the side's first position (A 0, B 12) and the unit (0: the count, k: unit k's steadiness)
A_COL = (0, 255, 40)
B_COL = (255, 0, 200)
FIELD_COLORS = ((255, 255, 255), (255, 200, 0), (0, 255, 40), (0, 60, 255),
                (255, 255, 255), (0, 220, 220), A_COL, A_COL, A_COL, A_COL, B_COL, B_COL, B_COL, B_COL)
FIELD_SIDE = (-1, -1, -1, -1, -1, -1, 0, 0, 0, 0, 12, 12, 12, 12)
FIELD_UNIT = (0, 0, 0, 0, 0, 0, 0, 1, 2, 3, 0, 1, 2, 3)
ABSORBED = (0, 60, 255)
DAMAGE = (255, 0, 0)
MISS = (24, 24, 24)
HIT_FACE = (0, 255, 0)
MISS_FACE = (255, 0, 0)
MANY = (255, 255, 255)
MORALE_DUE = (255, 110, 0)
PASS = (0, 255, 0)
FAIL = (255, 0, 0)
TIE = (255, 150, 0)
TUMBLE = (255, 255, 255)
RING = 24


_pos = [0] * RING       # position -> its LED in the layout last drawn with (layout.index
_pos_of = [None]        # checks its arguments: a call per LED took ~0.4 ms on the Pico)


def positions(lay):
    """Map the 24 positions through lay, unless that was the last layout."""
    if _pos_of[0] is not lay:
        for p in range(RING):
            _pos[p] = lay.index(p // 4 + 1, p % 4)
        _pos_of[0] = lay


def px(r, p, c, dim=0):
    """Light position p (0-23) with colour c, divided by 2**dim (positions() first)."""
    r.set_pixel(_pos[p], c[0] >> dim, c[1] >> dim, c[2] >> dim)


def draw(tank, lay, now, r):
    positions(lay)
    r.clear()
    blink = (now // 250) & 1
    if tank.view == 0:
        _edit(tank, blink, r)
        return
    t = tank.rolled
    age = (now - tank.at) & TICKS_MASK    # ticks_ms wraps at 2**30
    if age < ROLL_MS:                  # the tumble
        k = age // 25
        for j in range(3):
            px(r, (k + 8 * j) % RING, TUMBLE)
        return
    if t <= 1:
        if tank.page:
            _faces(tank, blink, r)
        else:
            _outcome(tank, blink, r)
    elif t == 2:
        c = PASS if tank.morale else FAIL
        for q in range(tank.n):
            for k in range(tank.buf[q]):
                px(r, 6 * q + k, c)
    elif t == 3:
        for side in range(2):
            c = PASS if tank.winner == side else FAIL
            for k in range(tank.buf[side]):
                px(r, 12 * side + k, c)
    else:
        _collision(tank, r)


def _collision(tank, r):
    na = tank.na
    for i in range(tank.n):
        best = tank.total_b if i < na else tank.total       # the best opposing total
        tot = tank.totals[i]
        c = PASS if tot > best else (TIE if tot == best else FAIL)
        p = 4 * i if i < na else 12 + 4 * (i - na)
        f = tank.buf[i]
        for k in range(4 if f > 4 else f):
            px(r, p + k, MANY if k < f - 4 else c)


def _edit(tank, blink, r):
    if tank.cursor == 0:
        for t in range(len(TEST_COLORS)):
            if t == tank.test and not blink:
                continue
            c = TEST_COLORS[t]
            for p in range(4 * t, 4 * t + 4):
                px(r, p, c)
        return
    f = tank.test_fields[tank.test][tank.cursor - 1]
    c = FIELD_COLORS[f]
    value = tank.vals[f]
    side = FIELD_SIDE[f]
    if side >= 0 and FIELD_UNIT[f] == 0:            # a side's units: whole sectors
        for p in range(4 * tank.fields[f][2]):
            px(r, side + p, c, 0 if p < 4 * value else 4)
        return
    for p in range(tank.fields[f][2]):
        px(r, p, c, 0 if p < value else 4)
    if side >= 0 and blink:                         # unit k's steadiness: sector 3 + k blinks
        for p in range(8 + 4 * FIELD_UNIT[f], 12 + 4 * FIELD_UNIT[f]):
            px(r, p, c)


def _outcome(tank, blink, r):
    p = 0
    while p < tank.absorbed:
        px(r, p, ABSORBED)
        p += 1
    while p < tank.hits:
        px(r, p, DAMAGE)
        p += 1
    while p < tank.n:
        px(r, p, MISS)
        p += 1
    if tank.morale and blink:
        for p in range(20, 24):
            px(r, p, MORALE_DUE)


def _faces(tank, blink, r):
    count = tank.count
    for f in range(7):
        count[f] = 0
    for i in range(tank.n):
        count[tank.buf[i]] += 1
    for f in range(1, 7):
        c = count[f]
        base = HIT_FACE if f <= tank.hit else MISS_FACE
        for k in range(4 if c > 4 else c):
            if c > 8:
                if blink:
                    px(r, 4 * (f - 1) + k, MANY)
            elif k < c - 4:
                px(r, 4 * (f - 1) + k, MANY)
            else:
                px(r, 4 * (f - 1) + k, base)
