# The LED palette and the gamma table.
#
# Colours are (r, g, b) 0-255 as the eye should see them, BEFORE brightness
# and gamma (render.Renderer applies both).  The renderer never builds tuples
# while drawing: every colour it uses is a palette entry, a small int, and
# PALETTE holds the three channels of entry n at PALETTE[3n .. 3n+2].
#
# Runs on MicroPython and CPython alike; everything is integer math, so the
# tables are bit-identical on both (the Pico's floats are single precision).

from shared_rules.catalog import KINDS, kind_index

GAMMA_NUM = 5               # gamma = GAMMA_NUM / GAMMA_DEN = 2.5
GAMMA_DEN = 2


def _isqrt(n):
    """floor(sqrt(n)) for an int n >= 0 (Newton's method, integers only)."""
    if n < 2:
        return n
    x = n
    y = (x + 1) // 2
    while y < x:
        x = y
        y = (x + n // x) // 2
    return x


def _gamma_table():
    # out = round(255 * (i / 255) ** 2.5) = round(sqrt(i**5 / 255**3)).
    # round(sqrt(q)) = (m + 1) // 2 with m = isqrt(floor(4q)): the largest
    # odd number whose square is <= 4q is 2*round(sqrt(q)) - 1.
    t = bytearray(256)
    d = 255 ** 3
    for i in range(256):
        m = _isqrt((4 * i ** 5) // d)
        t[i] = (m + 1) // 2
    return bytes(t)


# 256 entries, monotonic, GAMMA[0] = 0, GAMMA[255] = 255.  Computed once at import.
GAMMA = _gamma_table()

# ---------------------------------------------------------------- the palette
# (name, r, g, b).  The index of a row is its palette number (the constants below).
_ROWS = (
    ("off", 0, 0, 0),
    # Empty cells: a dim tint of the sector's colour (red 1-2, green 3-4,
    # blue 5-6).  Dim enough that any enemy stands out, bright enough to read
    # the three colours at brightness 96 (they come out at about 4/255 PWM).
    ("tint_red", 72, 0, 0),
    ("tint_green", 0, 60, 0),
    ("tint_blue", 0, 0, 84),
    # Mixed hues are chosen for how they look AFTER gamma 2.5: a channel at
    # value v drives the LED at (v/255)**2.5, so orange needs g ~150 (25% PWM).
    # Plain tanks (sdkfz, pz3, tiger) by CURRENT armor: a damaged tiger looks
    # like what it now is.  Warm, bright hues: none is a sector tint.
    ("armor1", 255, 215, 0),        # yellow  (PWM about 100% : 65%)
    ("armor2", 255, 150, 0),        # orange  (100% : 26%)
    ("armor3", 255, 0, 0),          # red
    # The four specials: one distinct hue each, whatever their armor.
    ("pz2h", 0, 230, 255),          # cyan
    ("pz4h", 175, 0, 255),          # violet
    ("maus", 255, 0, 190),          # magenta
    ("panther", 175, 255, 0),       # lime
    # Marks
    ("held", 255, 255, 255),        # hedgehog-held enemy: white blink
    # City LEDs (leds.city)
    ("wall", 80, 80, 90),           # a standing wall: dim cool grey
    ("dot", 255, 255, 255),         # a wall with a dot: white
    ("building", 150, 130, 90),     # a standing building: dim warm white
    ("ruin", 50, 10, 0),            # a destroyed building: a faint ember
    # Animations
    ("spin", 255, 255, 255),        # die roll light
    ("plane", 255, 255, 160),       # the He-111
    ("blast", 255, 110, 0),          # what the He-111 destroys
    ("step", 0, 255, 180),          # movement trail head
    ("trail", 0, 60, 40),           # movement trail
    ("flash", 255, 255, 255),       # reveal flash
    ("sector_red", 255, 0, 0),      # die roll result, by sector colour
    ("sector_green", 0, 255, 0),
    ("sector_blue", 0, 40, 255),
)

PALETTE = bytes(bytearray([v for row in _ROWS for v in row[1:]]))
NAMES = tuple(row[0] for row in _ROWS)

OFF = 0
TINT_RED = 1
TINT_GREEN = 2
TINT_BLUE = 3
ARMOR1 = 4
ARMOR2 = 5
ARMOR3 = 6
PZ2H = 7
PZ4H = 8
MAUS = 9
PANTHER = 10
HELD = 11
WALL = 12
DOT = 13
BUILDING = 14
RUIN = 15
SPIN = 16
PLANE = 17
BLAST = 18
STEP = 19
TRAIL = 20
FLASH = 21
SECTOR_RED = 22
SECTOR_GREEN = 23
SECTOR_BLUE = 24

# Sector -> tint palette number (index 0 unused).
SECTOR_TINT = bytes(bytearray([OFF, TINT_RED, TINT_RED, TINT_GREEN, TINT_GREEN,
                               TINT_BLUE, TINT_BLUE]))
# Sector -> bright sector colour (die roll result).
SECTOR_BRIGHT = bytes(bytearray([OFF, SECTOR_RED, SECTOR_RED, SECTOR_GREEN, SECTOR_GREEN,
                                 SECTOR_BLUE, SECTOR_BLUE]))
# Armor (0..3) -> palette number of a plain tank.
ARMOR_PAL = bytes(bytearray([ARMOR1, ARMOR1, ARMOR2, ARMOR3]))


def _kind_pal():
    t = bytearray(len(KINDS))           # 0: colour by armor
    t[kind_index("pz2h")] = PZ2H
    t[kind_index("pz4h")] = PZ4H
    t[kind_index("maus")] = MAUS
    t[kind_index("panther")] = PANTHER
    return bytes(t)


# Kind index -> palette number of a special, 0 for the plain tanks (by armor).
KIND_PAL = _kind_pal()


def enemy_pal(kind, armor):
    """Palette number of an enemy of this kind (catalog index) and armor."""
    p = KIND_PAL[kind]
    if p:
        return p
    if armor > 3:
        armor = 3
    if armor < 0:
        armor = 0
    return ARMOR_PAL[armor]


def rgb(pal):
    """(r, g, b) of palette number pal (allocates a tuple: not for the hot path)."""
    i = pal * 3
    return (PALETTE[i], PALETTE[i + 1], PALETTE[i + 2])


def named(name):
    """(r, g, b) of a palette entry by name ('tiger' colours are 'armor3')."""
    return rgb(NAMES.index(name))
