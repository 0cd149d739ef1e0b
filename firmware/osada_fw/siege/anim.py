# Non-blocking LED animations drawn over the board frame.
#
#     anims.append(DieRoll(4, now))
#     ...each frame:
#     b.draw(game, now); run(anims, now, b); b.frame.limit(); strip.write(b.frame.buf)
#
# An animation is an object with step(now_ms, board) -> bool (board.Board): it
# draws its overlay into the board's frame (after Board.draw) and returns True
# while it runs, False once it has ended (then it draws nothing).  Every
# animation ends by itself, after .duration_ms at the latest (one with
# duration_ms None runs until cancel()); any animation can be cancelled.
#
# Times are time.ticks_ms() values; differences are taken modulo 2**30 like
# time.ticks_diff, so the wrap-around of the Pico's tick counter is harmless.
# A step() before start_ms draws nothing and returns True.
#
# step() allocates nothing on MicroPython: cells are turned into cell codes
# (layouts.cell_code) and all timings into small ints in __init__; the LED of a
# cell is looked up in board.layout.inv at each step, so one animation works
# with any layout.
#
# Cells are (sector, part): part 0..3 for rear, air, artillery, tank (or those
# names), 4 or 'city' for the city cell / building LED, 'wall' for the wall LED.
# The wall and city LEDs exist only with leds.city; without them those cells
# are skipped.
#
# Siege's events in light (events(), roll()): what the engine reports turned
# into these animations, queued on the Siege object (siege/mode.py keeps the
# queue and draws it).  Loaded with the game's first change, not at boot.
#
# Runs on MicroPython and CPython alike.

from osada_fw import TICKS_HALF as _HALF
from osada_fw import TICKS_MASK as _MASK
from osada_fw import elapsed, later
from osada_fw.layouts import CITY, NCELLS, NONE, NPARTS, WALL, cell_code
from osada_fw.siege import colors as C


def he111_path(sector):
    """R41: the He-111's path from sector s, in order, as (sector, part):
    s rear, air, artillery, tank, s wall, s city, o city, o wall, o tank,
    artillery, air, rear; o = the opposite sector ((s + 2) % 6) + 1."""
    if not isinstance(sector, int) or isinstance(sector, bool) or sector < 1 or sector > 6:
        raise ValueError("sector must be 1-6 (got %r)" % (sector,))
    o = (sector + 2) % 6 + 1
    return [(sector, 0), (sector, 1), (sector, 2), (sector, 3), (sector, WALL),
            (sector, CITY), (o, CITY), (o, WALL), (o, 3), (o, 2), (o, 1), (o, 0)]


def _codes(cells):
    t = bytearray(len(cells))
    for k in range(len(cells)):
        cell = cells[k]
        t[k] = cell_code(cell[0], cell[1])
    return t


def _rgb(color):
    if not isinstance(color, (tuple, list)) or len(color) != 3:
        raise ValueError("a colour is (r, g, b) (got %r)" % (color,))
    for v in color:
        if not isinstance(v, int) or v < 0 or v > 255:
            raise ValueError("colour channels are 0-255 (got %r)" % (color,))
    return color[0], color[1], color[2]


class Anim:
    """Base: start_ms, duration_ms (None: until cancelled), done, cancel()."""

    duration_ms = 0

    def __init__(self, start_ms):
        self.start_ms = start_ms
        self.done = False

    def cancel(self):
        self.done = True

    def step(self, now_ms, r):
        if self.done:
            return False
        t = (now_ms - self.start_ms) & _MASK     # elapsed(), inlined: a step runs every frame
        if t >= _HALF:
            return True                          # before start_ms
        d = self._length(r)
        if d is not None and t >= d:
            self.done = True
            return False
        self._draw(t, r)
        return True

    def _length(self, r):
        """How long it runs on this board's layout (None: until cancelled)."""
        return self.duration_ms

    def _draw(self, t, r):
        pass


def _sector(r, s0, pal):
    """All LEDs of sector s0 + 1 (lines, wall, building) to palette pal
    (r.set_pal for each, inlined: the wire palette straight into the frame)."""
    inv = r.layout.inv
    buf = r.frame.buf
    w = r.wire_pal
    pal *= 3
    base = s0 * NPARTS
    for p in range(base, base + NPARTS):
        i = inv[p]
        if i != NONE:
            i *= 3
            buf[i] = w[pal]
            buf[i + 1] = w[pal + 1]
            buf[i + 2] = w[pal + 2]


class DieRoll(Anim):
    """A light runs clockwise round the six sectors, slowing down, at least
    `spins` full turns, and lands on result_sector, which then shows its
    colour for HOLD_MS.  duration_ms <= MAX_MS."""

    HOLD_MS = 1200
    FIRST_MS = 40             # the first step; step k lasts FIRST_MS + (18k/N)^2
    MAX_MS = 4000

    def __init__(self, result_sector, start_ms, spins=2):
        Anim.__init__(self, start_ms)
        if not isinstance(result_sector, int) or result_sector < 1 or result_sector > 6:
            raise ValueError("result_sector must be 1-6 (got %r)" % (result_sector,))
        if not isinstance(spins, int) or spins < 1 or spins > 3:
            raise ValueError("spins must be 1-3")
        self.result = result_sector
        n = 6 * spins + result_sector   # step k lights sector k % 6 + 1; the last is the result
        self._n = n
        self._ends = [0] * n            # end of each step, ms after start
        t = 0
        for k in range(n):
            q = 18 * k // n
            t += self.FIRST_MS + q * q
            self._ends[k] = t
        self._spin_ms = t
        self.duration_ms = t + self.HOLD_MS
        self._k = 0                     # _draw's last step (the search starts there)

    def _draw(self, t, r):
        if t >= self._spin_ms:
            _sector(r, self.result - 1, C.SECTOR_BRIGHT[self.result])
            return
        ends = self._ends
        k = self._k                              # resume the search where the last frame found its step
        if k and ends[k - 1] > t:
            k = 0                                # (asked for an earlier time: from the start)
        while ends[k] <= t:
            k += 1
        self._k = k
        _sector(r, k % 6, C.SPIN)


class Reveal(Anim):
    """Flash where a revealed enemy lands: FLASHES x (white, colour) of
    FLASH_MS each, then the colour steady for HOLD_MS."""

    FLASH_MS = 120
    FLASHES = 4
    HOLD_MS = 400

    def __init__(self, sector, line, color, start_ms):
        Anim.__init__(self, start_ms)
        self._code = cell_code(sector, line)
        self._r, self._g, self._b = _rgb(color)
        self.duration_ms = 2 * self.FLASHES * self.FLASH_MS + self.HOLD_MS

    def _draw(self, t, r):
        i = r.layout.inv[self._code]
        if i == NONE:
            return
        if t < 2 * self.FLASHES * self.FLASH_MS and (t // self.FLASH_MS) % 2 == 0:
            r.set_pal(i, C.FLASH)
        else:
            r.frame.set_pixel(i, self._r, self._g, self._b)


class MoveSteps(Anim):
    """The movement phase step by step: cells[k] is lit during step k
    (step_ms each), the previous step dimmer as a trail.  An item of cells
    is one cell (sector, part) or a list of cells lit together."""

    def __init__(self, cells, start_ms, step_ms=250):
        Anim.__init__(self, start_ms)
        if not isinstance(step_ms, int) or step_ms < 20 or step_ms > 5000:
            raise ValueError("step_ms must be 20-5000")
        flat = []
        starts = [0]
        for item in cells:
            if len(item) and isinstance(item[0], (tuple, list)):
                for cell in item:
                    flat.append(cell)
            else:
                flat.append(item)
            starts.append(len(flat))
        self._codes = _codes(flat)
        self._starts = starts
        self._groups = len(starts) - 1
        self.step_ms = step_ms
        self.duration_ms = self._groups * step_ms

    def _group(self, r, g, pal):
        inv = r.layout.inv
        codes = self._codes
        for k in range(self._starts[g], self._starts[g + 1]):
            i = inv[codes[k]]
            if i != NONE:
                r.set_pal(i, pal)

    def _draw(self, t, r):
        g = t // self.step_ms
        if g > 0:
            self._group(r, g - 1, C.TRAIL)
        self._group(r, g, C.STEP)


class He111Flight(Anim):
    """The bomber flies path_cells (default: the whole R41 path from sector,
    he111_path(sector); give the part it actually flew) one cell per step_ms;
    each cell of destroyed_cells flashes from the moment the bomber passes it
    until the end.  Cells without an LED in the layout (wall and city without
    leds.city) are skipped and take no time.  Ends TAIL_MS after the last
    cell; duration_ms is the bound with every cell present."""

    TAIL_MS = 600
    BLAST_MS = 100

    def __init__(self, sector, path_cells=None, destroyed_cells=(), start_ms=0, step_ms=160):
        Anim.__init__(self, start_ms)
        if path_cells is None:
            path_cells = he111_path(sector)
        if not isinstance(step_ms, int) or step_ms < 20 or step_ms > 5000:
            raise ValueError("step_ms must be 20-5000")
        self.sector = sector
        self._path = _codes(path_cells)
        self._hit = bytearray(NCELLS)
        for cell in destroyed_cells:
            self._hit[cell_code(cell[0], cell[1])] = 1
        self.step_ms = step_ms
        self.duration_ms = len(self._path) * step_ms + self.TAIL_MS
        self._len_inv = None                     # _length's cache: the layout's inv it was counted for
        self._len = 0

    def _length(self, r):
        # only the cells this layout has an LED for take time (counted once
        # per layout: step() asks at every frame)
        inv = r.layout.inv
        if inv is self._len_inv:
            return self._len
        path = self._path
        m = 0
        for k in range(len(path)):
            if inv[path[k]] != NONE:
                m += 1
        self._len = m * self.step_ms + self.TAIL_MS
        self._len_inv = inv
        return self._len

    def _draw(self, t, r):
        inv = r.layout.inv
        path = self._path
        hit = self._hit
        v = t // self.step_ms
        blast = C.BLAST if (t // self.BLAST_MS) % 2 == 0 else C.OFF
        q = 0
        for k in range(len(path)):
            c = path[k]
            i = inv[c]
            if i == NONE:
                continue
            if q == v:
                r.set_pal(i, C.PLANE)
            elif q < v and hit[c]:
                r.set_pal(i, blast)
            elif q > v:
                break                            # the cells ahead of the bomber: nothing to draw
            q += 1


def run(anims, now_ms, r):
    """Step every animation of the list over the board's frame, in order, and remove the
    finished ones (in place).  Returns how many still run."""
    k = 0
    while k < len(anims):
        if anims[k].step(now_ms, r):
            k += 1
        else:
            del anims[k]
    return len(anims)


# ---------------------------------------------------- Siege's events in light

MAX_LAG_MS = 4000          # queued animations never start later than this
# what stopped the bomber -> the part of the path it stands on
_STOP_PART = {"wall": WALL, "dot": WALL, "building": CITY}


def queue(siege, a, now):
    """Queue animation a after the ones already playing on siege.  One that
    would start more than MAX_LAG_MS late is skipped: the board never lags
    the game by more than that (a cascade of reveals stays watchable)."""
    anims = siege.anims
    if len(anims) >= 8:
        return
    start = now
    if anims and elapsed(siege.anim_end, now) > 0:
        if elapsed(siege.anim_end, now) > MAX_LAG_MS:
            return
        start = siege.anim_end
    a.start_ms = start
    siege.anim_end = later(start, a.duration_ms)
    anims.append(a)


def roll(siege, value, now):
    """The free die: it takes the board at once."""
    siege.anims = []
    queue(siege, DieRoll(value, now), now)


def events(siege, evs, now):
    """Turn what the engine reports into light: reveals flash where the
    enemy lands, moves sweep inwards, the bomber flies its R41 path."""
    before = siege.positions
    for ev in evs:
        name = ev["ev"]
        if name == "reveal" and "sector" in ev:
            # the die spins and lands on the sector (tanks, He-111), then
            # the enemy flashes where it lands; the bomber's flight follows
            queue(siege, DieRoll(ev["sector"], now, spins=1), now)
            e = siege.game.enemy(ev["enemy"]) if "enemy" in ev else None
            if e is not None:
                queue(siege, Reveal(ev["sector"], 0, C.rgb(C.enemy_pal(e.kind, e.armor)), now), now)
        elif name == "move" and ev["count"]:
            steps = moved_cells(siege, before)
            if steps:
                queue(siege, MoveSteps(steps, now), now)
        elif name == "he111":
            path = he111_path(ev["sector"])
            if ev["stop"] is not None:
                path = path[:_stop_index(path, ev["at"], _STOP_PART[ev["stop"]]) + 1]
            hit = [cell(before[i]) for i in ev["destroyed"] if i in before]
            queue(siege, He111Flight(ev["sector"], path, hit, now), now)
    siege.positions = siege.where_enemies()


def moved_cells(siege, before):
    """Where the enemies that moved stand now (before: siege.positions),
    grouped by line from the rear inwards: the movement phase lit step by
    step, as it happened."""
    groups = [[] for _ in range(5)]
    for e in siege.game.enemies:
        was = before.get(e.id)
        code = e.sector * 8 + e.line
        if was is not None and was != code:
            groups[e.line].append(cell(code))
    return [g for g in groups if g]


def _stop_index(path, sector, part):
    """Where in the bomber's R41 path it stopped."""
    for k in range(len(path)):
        if path[k][0] == sector and path[k][1] == part:
            return k
    return len(path) - 1


def cell(code):
    """Siege.positions' sector * 8 + line -> the cell (sector, line 0-3 or
    CITY) the animations take."""
    line = code & 7
    return (code >> 3, line if line < 4 else CITY)
