# The LED palette and the gamma table.
#
# Colours are (r, g, b) 0-255 as the eye should see them, BEFORE brightness
# and gamma (render.Renderer applies both).  The renderer never builds tuples
# while drawing: every colour it uses is a palette entry, a small int, and
# PALETTE holds the three channels of entry n at PALETTE[3n .. 3n+2].
#
# Runs on MicroPython and CPython alike; everything is integer math, so the
# tables are bit-identical on both (the Pico's floats are single precision).

from shared_rules.catalog import KINDS

# 256 entries, monotonic, GAMMA[0] = 0, GAMMA[255] = 255:
# GAMMA[i] = round(255 * (i / 255) ** 2.5).  A literal, not computed at boot:
# the formula needs integers up to 10**12, big ints on the Pico (slow, and
# they allocate).  tests/firmware/test_leds.py recomputes it from the formula.
GAMMA = (
    b"\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00"
    b"\x00\x00\x00\x00\x00\x00\x01\x01\x01\x01\x01\x01\x01\x01\x01\x01"
    b"\x01\x02\x02\x02\x02\x02\x02\x02\x02\x03\x03\x03\x03\x03\x04\x04"
    b"\x04\x04\x04\x05\x05\x05\x05\x06\x06\x06\x06\x07\x07\x07\x07\x08"
    b"\x08\x08\x09\x09\x09\x0a\x0a\x0a\x0b\x0b\x0c\x0c\x0c\x0d\x0d\x0e"
    b"\x0e\x0f\x0f\x0f\x10\x10\x11\x11\x12\x12\x13\x13\x14\x14\x15\x16"
    b"\x16\x17\x17\x18\x19\x19\x1a\x1a\x1b\x1c\x1c\x1d\x1e\x1e\x1f\x20"
    b"\x21\x21\x22\x23\x24\x24\x25\x26\x27\x28\x28\x29\x2a\x2b\x2c\x2d"
    b"\x2e\x2e\x2f\x30\x31\x32\x33\x34\x35\x36\x37\x38\x39\x3a\x3b\x3c"
    b"\x3d\x3e\x3f\x40\x41\x43\x44\x45\x46\x47\x48\x49\x4b\x4c\x4d\x4e"
    b"\x50\x51\x52\x53\x55\x56\x57\x59\x5a\x5b\x5d\x5e\x5f\x61\x62\x63"
    b"\x65\x66\x68\x69\x6b\x6c\x6e\x6f\x71\x72\x74\x75\x77\x79\x7a\x7c"
    b"\x7d\x7f\x81\x82\x84\x86\x87\x89\x8b\x8d\x8e\x90\x92\x94\x96\x97"
    b"\x99\x9b\x9d\x9f\xa1\xa3\xa5\xa6\xa8\xaa\xac\xae\xb0\xb2\xb4\xb6"
    b"\xb8\xba\xbd\xbf\xc1\xc3\xc5\xc7\xc9\xcc\xce\xd0\xd2\xd4\xd7\xd9"
    b"\xdb\xdd\xe0\xe2\xe4\xe7\xe9\xeb\xee\xf0\xf3\xf5\xf8\xfa\xfd\xff"
)

# ---------------------------------------------------------------- the palette
# The fixed rows' names; the index of a row is its palette number (the
# constants below).  Their colours, (r, g, b) a row, are _RGB's bytes: one
# bytes object, where a tuple a row took ~32 B of heap each.
_FIXED = ("off", "tint_red", "tint_green", "tint_blue", "armor1", "armor2", "armor3",
          "held", "wall", "dot", "building", "ruin", "spin", "plane",
          "blast", "step", "trail", "flash", "sector_red", "sector_green", "sector_blue")
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


def _looks():
    """One palette row per kind that has a hue of its own (catalog.KINDS'
    look), named by the kind's id, after the fixed rows: (their names, their
    colours, kind index -> that row's number (0: coloured by armor))."""
    names = []
    rgb = bytearray()
    pal = bytearray(len(KINDS))
    for k in range(len(KINDS)):
        look = KINDS[k][5]
        if look is not None:
            pal[k] = len(_FIXED) + len(names)
            names.append(KINDS[k][0])
            rgb.extend(bytes(look))
    return tuple(names), bytes(rgb), bytes(pal)


_names, _rgb, KIND_PAL = _looks()
# KIND_PAL: kind index -> palette number of a special, 0 for the plain tanks (by armor).

PALETTE = _RGB + _rgb
NAMES = _FIXED + _names
del _names, _rgb

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


def named(name):
    """(r, g, b) of a palette entry by name ('tiger' colours are 'armor3')."""
    return rgb(NAMES.index(name))
