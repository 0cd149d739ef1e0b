# Siege's board, painted into the device's LED frame (osada_fw/frame.py).
#
#     f = Frame(Layout("spokes"), brightness=96, order="GRB", max_ma=400, ma_per_channel=20)
#     b = Board(f)
#     b.render(game, time.ticks_ms())      # the board into f.buf (wire order, capped)
#     for a in anims: a.step(now, b)       # optional overlays (siege/anim.py)
#     f.limit()                            # re-apply the power cap after overlays
#     strip.write(f.buf)
#
# What a frame shows (all timings below are constants of this module):
# - a cell with one enemy: its colour (colors.enemy_pal: plain tanks by
#   current armor, each special its own hue), steady;
# - a cell with several: their colours in turn, strongest first (strength =
#   shared_rules.siege.catalog.strength: armor, trophy value, lower id), SLOT_MS
#   each, the last GAP_MS of each slot dark; so a shared cell always flickers,
#   even when its enemies look alike;
# - the hedgehog-held enemy (game.hedgehog): white for the first HELD_ON_MS of
#   every HELD_PERIOD_MS (of its slot, in a shared cell);
# - cells holding a candidate of a pending damage choice (game.pending):
#   blink CAND_PERIOD_MS (half on, half dark);
# - an empty cell: the dim tint of its sector's colour;
# - with the city LEDs: a wall shows DOT, WALL, or dark (no wall); a building
#   LED shows the enemies in that city cell as above, else BUILDING or RUIN.
#   WITHOUT the city LEDs an enemy in the city is drawn on its sector's tank
#   LED (it counts as one more enemy there).
#
# Brightness, gamma, channel order and the power cap are the frame's.
#
# How a frame is built fast (issue 12: one frame <= 4 ms on a Pico): the
# palette is kept ready in wire bytes (wire_pal: the frame's brightness, gamma and
# channel order applied, 3 bytes per palette number), and so is the empty board
# (_base: every LED's tint, wall or building colour).  draw() copies _base
# into buf in one slice assignment (C memcpy) and then paints only the LEDs
# of the cells that hold enemies; _base is rebuilt when the brightness changes
# (rewire(), after the frame's set_brightness) and, with the city LEDs, when
# a wall, dot or building does.
# Between two changes of a game, most of that is the same from frame to frame:
# a cell with one enemy that is neither hedgehog-held nor a candidate shows
# its colour steadily.  So for a shared_rules Game (it has .log) the cells are
# indexed and those steady ones baked into _board once per change of the game,
# and a frame copies _board and paints only the blinking cells.  A change is:
# another game (undo and new games replace it) or another enemies list, a
# longer or shorter log (every action the engine applies is logged; nothing
# else changes a game), another hedgehog or pending choice, a new _base.  The
# renderer holds the enemies list and the pending choice it last indexed (so
# their identity cannot be reused by new objects); anything without .log is
# indexed afresh every frame.
#
# render(), set_pal() and the rest allocate nothing on MicroPython:
# all tables are preallocated here, colours are palette numbers, and all time
# arithmetic stays within small ints as long as now_ms is a time.ticks_ms()
# value (< 2**30).
#
# Runs on MicroPython and CPython alike.

from osada_fw.layouts import NCELLS, NONE, NPARTS, P_CITY, P_WALL
from osada_fw.siege import colors as C
from shared_rules.siege.catalog import strength

SLOT_MS = 500           # shared cell: each enemy's turn
GAP_MS = 100            # ... of which the last GAP_MS are dark
HELD_PERIOD_MS = 1000   # hedgehog mark period for a cell with one enemy
HELD_ON_MS = 150        # white at the start of the period / of its slot
CAND_PERIOD_MS = 250    # pending choice candidates: on, then dark
MAX_ENEMIES = 64        # enemies drawn (the game has at most 31 on the board)

_PAL = C.PALETTE
_ZERO_CELLS = bytes(NCELLS)


class Board:
    """Siege's board in a frame's LEDs; see the module comment."""

    def __init__(self, frame):
        layout = frame.layout
        self.frame = frame
        self.layout = layout
        self.count = frame.count
        self.wire_pal = bytearray(len(_PAL))        # the palette in wire bytes (see the module comment)
        self._base = bytearray(self.count * 3)   # the empty board in wire bytes
        self._board = bytearray(self.count * 3)  # _base and the steady enemy cells (see above)
        self._kenemies = None                    # what _board was built from: the game's enemies list,
        self._klen = -1                          # ... its log's length,
        self._kheld = 0                          # ... its hedgehog
        self._kpend = None                       # ... and its pending choice
        self._walls = self._dots = self._bldg = None
        if layout.city:                          # what the city LEDs of _base show
            self._walls = [-1] * 7
            self._dots = [-1] * 7
            self._bldg = [-1] * 7
        self.rewire()
        # per cell (code = (sector - 1) * 6 + part)
        self._n = bytearray(NCELLS)      # enemies in the cell
        self._cand = bytearray(NCELLS)   # holds a pending-choice candidate
        self._head = bytearray(NCELLS)   # first slot of the cell's chain (if _n)
        self._occ = bytearray(NCELLS)    # the cells holding enemies, _nocc of them; after _bake its
        self._nocc = 0                   # first _ndyn: the blinking ones (painted every frame)
        self._ndyn = 0
        # per enemy drawn, by slot (its position in game.enemies)
        self._rank = bytearray(MAX_ENEMIES)  # the shared cells' slots, strongest first, from _rstart[cell]
        self._rstart = bytearray(NCELLS)
        self._enext = bytearray(MAX_ENEMIES)  # next slot in the same cell (chain)

    # ------------------------------------------------------------ settings

    def rewire(self):
        """The palette in the frame's wire bytes (after its set_brightness)."""
        w = self.wire_pal
        wire = self.frame.wire
        for p in range(0, len(_PAL), 3):
            wire(_PAL[p:p + 3], w, p)
        self._build_base()

    def _build_base(self):
        """_base for the sector LEDs (their tints); the city LEDs' part is
        marked stale, for _city_base to fill in from the game."""
        leds = self.layout.leds
        base = self._base
        w = self.wire_pal
        tint = C.SECTOR_TINT
        for i in range(self.count):
            c = leds[i]
            p = tint[c // NPARTS + 1] * 3 if c % NPARTS < P_CITY else 0
            o = i * 3
            base[o] = w[p]
            base[o + 1] = w[p + 1]
            base[o + 2] = w[p + 2]
        if self._walls is not None:
            self._walls[0] = -1                  # no game's walls look like this: rebuilt at the next draw
        self._kenemies = None                    # _board too

    def _city_base(self, game):
        """The city LEDs of _base from the game's walls, dots and buildings
        (lists indexed by sector, 7 long), when those changed since the last
        draw (compared in C, no allocation)."""
        walls = game.walls
        dots = game.dots
        buildings = game.buildings
        if walls == self._walls and dots == self._dots and buildings == self._bldg:
            return False
        inv = self.layout.inv
        base = self._base
        w = self.wire_pal
        for s in range(1, 7):
            if not walls[s]:
                pal = C.OFF
            elif dots[s]:
                pal = C.DOT
            else:
                pal = C.WALL
            i = inv[(s - 1) * NPARTS + P_WALL]
            for k in range(2):
                if i != NONE:
                    o = i * 3
                    p = pal * 3
                    base[o] = w[p]
                    base[o + 1] = w[p + 1]
                    base[o + 2] = w[p + 2]
                pal = C.BUILDING if buildings[s] else C.RUIN
                i = inv[(s - 1) * NPARTS + P_CITY]
        ws = self._walls                         # element by element: a list slice allocates on MicroPython
        ds = self._dots
        bs = self._bldg
        for s in range(7):
            ws[s] = walls[s]
            ds[s] = dots[s]
            bs[s] = buildings[s]
        return True

    # ------------------------------------------------------------- pixels

    def set_pal(self, i, pal):
        """LED i to palette colour pal (colors.*)."""
        if i < 0 or i >= self.count:
            return
        w = self.wire_pal
        buf = self.frame.buf
        o = i * 3
        p = pal * 3
        buf[o] = w[p]
        buf[o + 1] = w[p + 1]
        buf[o + 2] = w[p + 2]

    def set_cell(self, code, pal):
        """The LED of cell code (layouts.cell_code) to palette colour pal, if
        the layout has that LED."""
        i = self.layout.inv[code]
        if i != NONE:
            self.set_pal(i, pal)

    # ------------------------------------------------------------ the board

    def render(self, game, now_ms):
        """The board of `game` at time now_ms into the frame, power-capped."""
        self.draw(game, now_ms)
        self.frame.limit()

    def draw(self, game, now_ms):
        """The board into the frame without the power cap (render() = draw + limit)."""
        if self._walls is not None and self._city_base(game):
            self._kenemies = None
        if not self._same(game):
            self._index_enemies(game)
            self._bake(game)
        self._paint(game, now_ms)

    def _same(self, game):
        """Is _board still the board of `game`?  (See the module comment.)
        If not, remembers what it is about to be built from."""
        log = getattr(game, "log", None)
        enemies = game.enemies
        if log is not None and enemies is self._kenemies and len(log) == self._klen \
                and game.hedgehog == self._kheld and game.pending is self._kpend:
            return True
        if log is None:
            self._kenemies = None
            self._kpend = None
        else:
            self._kenemies = enemies
            self._klen = len(log)
            self._kheld = game.hedgehog
            self._kpend = game.pending
        return False

    def _index_enemies(self, game):
        """Per cell: how many enemies, the chain of their slots (a slot is an
        enemy's position in game.enemies), whether a candidate of the pending
        choice is there; and the list of cells holding any.  Colours and ranks
        are left to _bake and _paint, which need them only for the enemy a
        cell shows (and ranks only in a shared cell): that keeps this loop short."""
        n = self._n
        cand = self._cand
        head = self._head
        enext = self._enext
        occ = self._occ
        nocc = 0
        n[:] = _ZERO_CELLS
        cand[:] = _ZERO_CELLS
        city = self.layout.city
        cands = None
        p = game.pending
        if p is not None:
            cands = p.get("candidates")
        ne = 0
        top = MAX_ENEMIES                        # module constants as locals: a global is a dict lookup
        np = NPARTS
        for e in game.enemies:
            if ne == top:
                break
            line = e.line
            if line > 3 and not city:
                line = 3                         # no city LEDs: show on the tank LED
            c = e.sector * np - np + line
            m = n[c]
            if m:
                enext[ne] = head[c]
                if m < 255:
                    n[c] = m + 1
            else:
                enext[ne] = ne                   # end of chain: points to itself
                n[c] = 1
                occ[nocc] = c
                nocc += 1
            head[c] = ne
            if cands is not None and e.id in cands:
                cand[c] = 1
            ne += 1
        self._nocc = nocc

    def _bake(self, game):
        """_board: _base with the steady cells painted in (one enemy, not
        held, not a candidate); the others, the blinking ones, are moved to
        the front of _occ (in place: never ahead of the cell being read)."""
        board = self._board
        board[:] = self._base                    # same length: a copy, no allocation
        enemies = game.enemies
        held = game.hedgehog
        n = self._n
        head = self._head
        cand = self._cand
        occ = self._occ
        dyn = occ
        nd = 0
        inv = self.layout.inv
        w = self.wire_pal
        enemy_pal = C.enemy_pal
        none = NONE                              # module constants as locals: a global is a dict lookup
        rstart = self._rstart
        r0 = 0
        for k in range(self._nocc):
            c = occ[k]
            i = inv[c]
            if i == none:
                continue
            m = n[c]
            if m != 1:                           # a shared cell: its turns, ranked once here
                rstart[c] = r0
                self._rank_cell(c, enemies, r0)
                r0 += m
            if m != 1 or cand[c]:
                dyn[nd] = c
                nd += 1
                continue
            e = enemies[head[c]]
            if held and e.id == held:
                dyn[nd] = c
                nd += 1
                continue
            p = enemy_pal(e.kind, e.armor) * 3
            o = i * 3
            board[o] = w[p]
            board[o + 1] = w[p + 1]
            board[o + 2] = w[p + 2]
        self._ndyn = nd

    def _paint(self, game, now_ms):
        """_board, then the LED of each blinking cell as it is now."""
        buf = self.frame.buf
        buf[:] = self._board                     # same length: a copy, no allocation
        nd = self._ndyn
        if not nd:
            return
        enemies = game.enemies
        held = game.hedgehog
        n = self._n
        head = self._head
        cand = self._cand
        dyn = self._occ
        inv = self.layout.inv
        w = self.wire_pal
        enemy_pal = C.enemy_pal
        held_phase = now_ms % HELD_PERIOD_MS
        cand_off = now_ms % CAND_PERIOD_MS >= CAND_PERIOD_MS // 2
        held_on = HELD_ON_MS
        off = C.OFF
        rank = self._rank
        rstart = self._rstart
        slot_phase = now_ms % SLOT_MS
        gap_at = SLOT_MS - GAP_MS
        turn = now_ms // SLOT_MS
        for k in range(nd):
            c = dyn[k]
            m = n[c]
            if m == 1:
                e = enemies[head[c]]
                phase = held_phase
            else:                                # its enemies' turns, SLOT_MS each, the last GAP_MS dark
                phase = slot_phase
                e = None if phase >= gap_at else enemies[rank[rstart[c] + turn % m]]
            if e is None or (cand_off and cand[c]):
                pal = off
            elif held and e.id == held and phase < held_on:
                pal = C.HELD
            else:
                pal = enemy_pal(e.kind, e.armor)
            p = pal * 3
            o = inv[c] * 3
            buf[o] = w[p]
            buf[o + 1] = w[p + 1]
            buf[o + 2] = w[p + 2]

    def _rank_cell(self, c, enemies, r0):
        """_rank[r0:r0 + _n[c]]: the slots of shared cell c in the order of
        their turns: the strongest (shared_rules.siege.catalog.strength; a tie to
        the enemy listed first), then each time the next weaker.  Strengths
        are recomputed as needed rather than kept per slot (a cell holds a
        few enemies; this runs once per change of the game; no table)."""
        enext = self._enext
        rank = self._rank
        h = self._head[c]
        q = h
        j = h
        top = -1
        while True:                              # the strongest: j, its strength top
            e = enemies[q]
            s = strength(e.kind, e.armor, e.id)
            if s >= top:
                top = s
                j = q
            if enext[q] == q:
                break
            q = enext[q]
        rank[r0] = j
        for t in range(r0 + 1, r0 + self._n[c]):
            bs = -1
            q = h
            while True:                          # the strongest below top
                e = enemies[q]
                s = strength(e.kind, e.armor, e.id)
                if s < top and s > bs:
                    bs = s
                    j = q
                if enext[q] == q:
                    break
                q = enext[q]
            if bs >= 0:
                top = bs
            rank[t] = j
