# Siege's LED palette.
#
# Colours are (r, g, b) 0-255 as the eye should see them, BEFORE brightness
# and gamma (the frame's table, osada_fw/frame.py; board.Board keeps the
# palette ready in wire bytes).  The renderer never builds tuples
# while drawing: every colour it uses is a palette entry, a small int, and
# PALETTE holds the three channels of entry n at PALETTE[3n .. 3n+2].
#
# Runs on MicroPython and CPython alike; everything is integer math, so the
# tables are bit-identical on both (the Pico's floats are single precision).

from shared_rules.siege.catalog import KINDS

# ---------------------------------------------------------------- the palette
# The fixed rows, (r, g, b) a row, in _RGB's bytes: one bytes object, where a
# tuple a row took ~32 B of heap each.  A row's index is its palette number
# (the constants below; the comments name them).  The rows' names are the
# tests' (tests/support/fw_extras.py: palette_rgb): the board never needs them.
_RGB = (
    b"\x00\x00\x00"  # off           (0, 0, 0)
    # Empty cells: a dim tint of the sector's colour (red 1-2, green 3-4,
    # blue 5-6).  Dim enough that any enemy stands out, bright enough to read
    # the three colours at brightness 96 (they come out at about 4/255 PWM).
    b"\x48\x00\x00"  # tint_red      (72, 0, 0)
    b"\x00\x3c\x00"  # tint_green    (0, 60, 0)
    b"\x00\x00\x54"  # tint_blue     (0, 0, 84)
    # Mixed hues are chosen for how they look AFTER gamma 2.5: a channel at
    # value v drives the LED at (v/255)**2.5, so orange needs g ~150 (25% PWM).
    # Plain tanks (sdkfz, pz3, tiger) by CURRENT armor: a damaged tiger looks
    # like what it now is.  Warm, bright hues: none is a sector tint.
    b"\xff\xd7\x00"  # armor1        (255, 215, 0)  yellow  (PWM about 100% : 65%)
    b"\xff\x96\x00"  # armor2        (255, 150, 0)  orange  (100% : 26%)
    b"\xff\x00\x00"  # armor3        (255, 0, 0)  red
    # Marks
    b"\xff\xff\xff"  # held          (255, 255, 255)  hedgehog-held enemy: white blink
    # City LEDs (leds.city)
    b"\x50\x50\x5a"  # wall          (80, 80, 90)  a standing wall: dim cool grey
    b"\xff\xff\xff"  # dot           (255, 255, 255)  a wall with a dot: white
    b"\x96\x82\x5a"  # building      (150, 130, 90)  a standing building: dim warm white
    b"\x32\x0a\x00"  # ruin          (50, 10, 0)  a destroyed building: a faint ember
    # Animations
    b"\xff\xff\xff"  # spin          (255, 255, 255)  die roll light
    b"\xff\xff\xa0"  # plane         (255, 255, 160)  the He-111
    b"\xff\x6e\x00"  # blast         (255, 110, 0)  what the He-111 destroys
    b"\x00\xff\xb4"  # step          (0, 255, 180)  movement trail head
    b"\x00\x3c\x28"  # trail         (0, 60, 40)  movement trail
    b"\xff\xff\xff"  # flash         (255, 255, 255)  reveal flash
    b"\xff\x00\x00"  # sector_red    (255, 0, 0)  die roll result, by sector colour
    b"\x00\xff\x00"  # sector_green  (0, 255, 0)
    b"\x00\x28\xff"  # sector_blue   (0, 40, 255)
)


FIXED_ROWS = len(_RGB) // 3


def _looks():
    """One palette row per kind that has a hue of its own (catalog.KINDS'
    look), after the fixed rows: (their colours, kind index -> that row's
    number (0: coloured by armor))."""
    rgb = bytearray()
    pal = bytearray(len(KINDS))
    n = FIXED_ROWS
    for k in range(len(KINDS)):
        look = KINDS[k][5]
        if look is not None:
            pal[k] = n
            n += 1
            rgb.extend(bytes(look))
    return bytes(rgb), bytes(pal)


_rgb, KIND_PAL = _looks()
# KIND_PAL: kind index -> palette number of a special, 0 for the plain tanks (by armor).

PALETTE = _RGB + _rgb
del _rgb

OFF = 0
TINT_RED = 1
TINT_GREEN = 2
TINT_BLUE = 3
ARMOR1 = 4
ARMOR2 = 5
ARMOR3 = 6
HELD = 7
WALL = 8
DOT = 9
BUILDING = 10
RUIN = 11
SPIN = 12
PLANE = 13
BLAST = 14
STEP = 15
TRAIL = 16
FLASH = 17
SECTOR_RED = 18
SECTOR_GREEN = 19
SECTOR_BLUE = 20

# Sector -> tint palette number (index 0 unused).
SECTOR_TINT = bytes(bytearray([OFF, TINT_RED, TINT_RED, TINT_GREEN, TINT_GREEN,
                               TINT_BLUE, TINT_BLUE]))
# Sector -> bright sector colour (die roll result).
SECTOR_BRIGHT = bytes(bytearray([OFF, SECTOR_RED, SECTOR_RED, SECTOR_GREEN, SECTOR_GREEN,
                                 SECTOR_BLUE, SECTOR_BLUE]))
# Armor (0..3) -> palette number of a plain tank.
ARMOR_PAL = bytes(bytearray([ARMOR1, ARMOR1, ARMOR2, ARMOR3]))


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

