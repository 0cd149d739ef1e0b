# LED layouts: which LED of the strip shows which cell of the board.
#
# Vocabulary (spec): sectors 1-6 clockwise; lines rear, air, artillery, tank
# (0..3, as in shared_rules.siege.catalog.LINES), then the city.  With leds.city on,
# 12 more LEDs follow the 24 board LEDs: the 6 walls (sectors 1..6), then the
# 6 buildings (sectors 1..6).
#
# A *cell code* is one small int for a board position:
#     code = (sector - 1) * 6 + part
# with part 0..3 = the lines rear..tank, 4 = CITY (the sector's city cell, where
# its building stands; same number as catalog.CITY) and 5 = WALL (the wall
# position between the tank cell and the city cell).  36 codes in all.
#
# Each layout is two compact tables:
#     Layout.leds  bytes(count): LED index -> cell code
#     Layout.inv   bytes(36):    cell code -> LED index, 255 (NONE) if no LED
#
# Where each LED sits on the board (angle, radius: the placement templates,
# the simulator's window) is the host's: osada/buildguide/geometry.py.
#
# Runs on MicroPython and CPython alike.

LAYOUTS = ("spokes", "rings", "ring24")

SECTOR_LEDS = 24            # 6 sectors x 4 lines
CITY_LEDS = 12              # 6 walls + 6 buildings, chained after the 24

NPARTS = 6                  # parts of a sector: 4 lines, city, wall
NCELLS = 36                 # 6 sectors x NPARTS
P_CITY = 4                  # the city cell / building LED (== catalog.CITY)
P_WALL = 5                  # the wall position
NONE = 255                  # "no LED" in Layout.inv

# Names accepted for a part (besides the ints 0..5).
WALL = "wall"
CITY = "city"
PART_NAMES = ("rear", "air", "artillery", "tank", "city", "wall")


class LayoutError(ValueError):
    pass


def part_code(part):
    """0..5 for a part given as an int (0..3 lines, 4 city, 5 wall) or a name
    ('rear' .. 'tank', 'city', 'wall')."""
    if isinstance(part, str):
        if part in PART_NAMES:
            return PART_NAMES.index(part)
        raise LayoutError("unknown board part %r; one of %s" % (part, ", ".join(PART_NAMES)))
    if isinstance(part, int) and not isinstance(part, bool) and 0 <= part < NPARTS:
        return part
    raise LayoutError("a board part is 0-3 (a line), 4 (city), 5 (wall) or a name (got %r)" % (part,))


def cell_code(sector, part):
    """The cell code of (sector, part); see part_code for part."""
    if not isinstance(sector, int) or isinstance(sector, bool) or sector < 1 or sector > 6:
        raise LayoutError("sector must be 1-6 (got %r)" % (sector,))
    return (sector - 1) * NPARTS + part_code(part)


def _spokes():
    # Serpentine: sector 1's spoke from the centre outwards (tank -> rear),
    # sector 2's from the outside inwards (rear -> tank), alternating.
    t = bytearray(SECTOR_LEDS)
    i = 0
    for s in range(6):
        for k in range(4):
            line = 3 - k if s % 2 == 0 else k
            t[i] = s * NPARTS + line
            i += 1
    return t


def _rings():
    # Four rings of 6, wired outermost first: rear ring, air, artillery, tank;
    # each ring runs clockwise from sector 1.
    t = bytearray(SECTOR_LEDS)
    i = 0
    for line in range(4):
        for s in range(6):
            t[i] = s * NPARTS + line
            i += 1
    return t


def _ring24():
    # One 24-LED ring running clockwise; sector s's 60-degree arc holds rear,
    # air, artillery, tank in clockwise order.  LED 0 = sector 1 rear.
    t = bytearray(SECTOR_LEDS)
    i = 0
    for s in range(6):
        for line in range(4):
            t[i] = s * NPARTS + line
            i += 1
    return t


_BUILDERS = {"spokes": _spokes, "rings": _rings, "ring24": _ring24}


class Layout:
    """The LED map of one shipped layout.

    Layout(name, city=False): name one of LAYOUTS; city adds the 12 wall and
    building LEDs after the 24.  Attributes: name, city, count, leds (LED ->
    cell code), inv (cell code -> LED or NONE)."""

    def __init__(self, name, city=False):
        if name not in LAYOUTS:
            raise LayoutError("unknown LED layout %r; the layouts are %s"
                              % (name, ", ".join(LAYOUTS)))
        if city is not True and city is not False:
            raise LayoutError("city must be True or False (got %r)" % (city,))
        self.name = name
        self.city = city
        t = _BUILDERS[name]()
        if city:
            t.extend(bytes(CITY_LEDS))
            for s in range(6):
                t[SECTOR_LEDS + s] = s * NPARTS + P_WALL
                t[SECTOR_LEDS + 6 + s] = s * NPARTS + P_CITY
        self.count = len(t)
        self.leds = bytes(t)
        inv = bytearray(NCELLS)
        for c in range(NCELLS):
            inv[c] = NONE
        for i in range(self.count):
            inv[t[i]] = i
        self.inv = bytes(inv)

    def __repr__(self):
        return "Layout(%r, city=%r)" % (self.name, self.city)

    # -- cell -> LED

    def index(self, sector, line):
        """LED of the cell (sector 1..6, line 0..3)."""
        if not isinstance(line, int) or isinstance(line, bool) or line < 0 or line > 3:
            raise LayoutError("line must be 0-3 (rear, air, artillery, tank), got %r" % (line,))
        return self.inv[cell_code(sector, line)]

    def lookup(self, sector, part):
        """LED of (sector, part) for any part (0..3, 'city'/4, 'wall'/5 or a
        line name); -1 if this layout has no LED there."""
        i = self.inv[cell_code(sector, part)]
        return -1 if i == NONE else i

    # -- LED -> cell

    def _check(self, i):
        if not isinstance(i, int) or isinstance(i, bool) or i < 0 or i >= self.count:
            raise LayoutError("LED index must be 0-%d (got %r)" % (self.count - 1, i))
        return self.leds[i]

    def cell_of(self, i):
        """(sector, part) shown by LED i: part 0..3 for a line, 'wall' or 'city'
        (the building) for the city LEDs."""
        c = self._check(i)
        p = c % NPARTS
        if p == P_WALL:
            p = WALL
        elif p == P_CITY:
            p = CITY
        return (c // NPARTS + 1, p)
