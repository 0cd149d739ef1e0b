"""The power budget: every state class and animation drawn by the firmware's
own frame and board painter, measured with frame_ma() before and after its power cap; and
the README's power section."""

from osada_fw import config as fwconfig
from osada_fw.frame import IDLE_MA, Frame
from osada_fw.games import MENU_COLORS
from osada_fw.layouts import LAYOUTS, NONE, Layout, cell_code
from osada_fw.siege import anim as A
from osada_fw.siege.board import Board as SiegeBoard
from osada_fw.siege.ui import CHOSEN, CURSOR
from shared_rules.siege.catalog import C_SPECIAL, C_TANK, KIND_ARMOR, KIND_CLASS, KIND_IDS
from shared_rules.siege.engine import Enemy


class Blink(A.Anim):
    """Blink cells until cancel(): half of each period_ms the board shows
    through, the other half the cells show `color` (default: dark).  The
    power figures play it over every cell (the Pico never needs it, so it is
    not the device's: every class there costs its heap)."""

    def __init__(self, cells, start_ms, period_ms=400, color=None):
        A.Anim.__init__(self, start_ms)
        if not isinstance(period_ms, int) or period_ms < 20:
            raise ValueError("period_ms must be at least 20")
        self.codes = bytes(cell_code(c[0], c[1]) for c in cells)
        self.period_ms = period_ms
        self.duration_ms = None
        color = (0, 0, 0) if color is None else color
        if len(color) != 3 or not all(isinstance(v, int) and 0 <= v <= 255 for v in color):
            raise ValueError("a colour is (r, g, b), each 0-255 (got %r)" % (color,))
        self.color = tuple(color)

    def _draw(self, t, r):
        if t % self.period_ms < self.period_ms // 2:
            return
        inv = r.layout.inv
        for code in self.codes:
            i = inv[code]
            if i != NONE:
                r.frame.set_pixel(i, *self.color)


class Board:
    """What siege/board.py's Board.draw reads of a game, as a hand-made stand-in: enemies,
    walls, dots, buildings, hedgehog, pending.  It can hold what a real game
    never would (every cell full), which is the point."""

    def __init__(self, enemies=(), walls=(1, 2, 3, 4, 5, 6), dots=(), buildings=(1, 2, 3, 4, 5, 6),
                 hedgehog=0, candidates=None):
        self.enemies = []
        for n, (kind, sector, line, armor) in enumerate(enemies):
            self.enemies.append(Enemy(n + 1, kind, sector, line, armor))
        self.walls = [0] * 7
        self.dots = [0] * 7
        self.buildings = [0] * 7
        for s in walls:
            self.walls[s] = 1
        for s in dots:
            self.dots[s] = 1
        for s in buildings:
            self.buildings[s] = 1
        self.hedgehog = hedgehog
        self.pending = None if candidates is None else {"choice": "damage", "candidates": list(candidates)}


CELLS = [(s, line) for s in range(1, 7) for line in range(5)]      # 4 lines + the city cell
ALL_SECTORS = (1, 2, 3, 4, 5, 6)


def enemy_looks():
    """(kind index, armor) for every colour an enemy can show: the plain tanks
    show their current armor (sdkfz 1, pz3 2, tiger 3 cover all three), each
    special its own hue."""
    return [(k, KIND_ARMOR[k]) for k in range(len(KIND_IDS)) if KIND_CLASS[k] in (C_TANK, C_SPECIAL)]


def board_states():
    """Named hand-made boards covering every class of state the renderer draws."""
    looks = enemy_looks()
    out = [("empty board", Board()),
           ("every wall with a dot", Board(dots=ALL_SECTORS)),
           ("no walls, every building ruined", Board(walls=(), buildings=()))]
    for k, a in looks:
        full = [(k, s, line, a) for s, line in CELLS]
        out.append(("every cell: %s armor %d" % (KIND_IDS[k], a), Board(full, dots=ALL_SECTORS)))
        out.append(("every cell: %s, held, candidates" % KIND_IDS[k],
                    Board(full, dots=ALL_SECTORS, hedgehog=1, candidates=range(1, 31, 2))))
    two = []
    for n, (s, line) in enumerate(CELLS):
        for j in range(2):
            k, a = looks[(n + j) % len(looks)]
            two.append((k, s, line, a))
    out.append(("two enemies in every cell, one held", Board(two, dots=ALL_SECTORS, hedgehog=2)))
    many = []
    for n, (k, a) in enumerate(looks):
        for s, line in CELLS[:8]:
            many.append((k, s, line, a))
    out.append(("seven enemies in a cell", Board(many, dots=(1, 3, 5), hedgehog=3, candidates=(1, 9, 17))))
    return out


def anim_sets(start=0):
    """Named lists of animations (each list played together), every kind and
    every sector."""
    white = (255, 255, 255)
    every = [(s, p) for s in range(1, 7) for p in (0, 1, 2, 3, "wall", "city")]
    sweep = [[(s, line) for s in range(1, 7)] for line in range(4)]
    out = []
    for s in ALL_SECTORS:
        out.append(("die roll %d" % s, [A.DieRoll(s, start)]))
    for s in ALL_SECTORS:
        out.append(("reveal in sector %d" % s, [A.Reveal(s, 0, white, start)]))
    out.append(("move steps", [A.MoveSteps(sweep, start)]))
    for s in ALL_SECTORS:
        path = A.he111_path(s)
        out.append(("He-111 from sector %d" % s, [A.He111Flight(s, path, path, start)]))
    out.append(("blink every cell", [_Bounded(Blink(every, start), 1200)]))
    out.append(("blink every cell in the choice colour", [_Bounded(Blink(every, start, color=CHOSEN), 1200)]))
    out.append(("everything at once", [A.DieRoll(6, start), A.Reveal(1, 0, white, start),
                                      A.MoveSteps(sweep, start), A.He111Flight(2, None, A.he111_path(2), start),
                                      _Bounded(Blink(every, start, color=CHOSEN), 1200)]))
    return out


class _Bounded:
    """A Blink (which runs until cancelled) played for duration_ms."""

    def __init__(self, a, duration_ms):
        self.a = a
        self.duration_ms = duration_ms

    def step(self, now, r):
        return self.a.step(now, r)


class _UiOverlay:
    """The device UI's brightest overlays (osada_fw/siege/ui.py): the play menu
    lights every sector in its colour, the cursor white, a chosen candidate."""
    duration_ms = 1000

    def step(self, now, r):
        lay = r.layout
        for i in range(6):
            c = MENU_COLORS[i]
            for line in range(4):
                r.frame.set_pixel(lay.index(i + 1, line), c[0], c[1], c[2])
        for s in ALL_SECTORS:
            i = lay.lookup(s, "city")
            r.frame.set_pixel(i, CURSOR[0], CURSOR[1], CURSOR[2])
            i = lay.lookup(s, "wall")
            r.frame.set_pixel(i, CHOSEN[0], CHOSEN[1], CHOSEN[2])
        return True


def frames(r, step_ms=20):
    """Every frame of the catalogue on renderer r: yields (what, mA before
    the cap, mA after the cap); r.frame.buf holds the capped frame at each yield.
    Boards: every state of board_states() for 2 s; the self-test's frames.
    Animations (and the device UI's menu) run their whole course over two
    boards: the empty one with every wall dotted, and the brightest full one."""
    states = board_states()
    brightest = None
    for name, b in states:
        top = 0
        for now in range(0, 2000, step_ms):
            r.draw(b, now)
            before = r.frame.frame_ma()
            top = max(top, before)
            r.frame.limit()
            yield name, before, r.frame.frame_ma()
        if brightest is None or top > brightest[0]:
            brightest = (top, name, b)
    # the self-test (osada_fw/app.py): the board dark, one LED white
    for i in range(r.count):
        r.frame.clear()
        r.frame.set_pixel(i, 255, 255, 255)
        before = r.frame.frame_ma()
        r.frame.limit()
        yield "self-test", before, r.frame.frame_ma()
    for bname, b in (states[1][:2], brightest[1:]):
        for aname, anims in anim_sets() + [("the device's menu", [_UiOverlay()])]:
            dur = max(a.duration_ms for a in anims)
            for now in range(0, dur + step_ms, step_ms):
                r.draw(b, now)
                for a in anims:
                    a.step(now, r)
                before = r.frame.frame_ma()
                r.frame.limit()
                yield "%s over %s" % (aname, bname), before, r.frame.frame_ma()


def white_ma(layout, leds_cfg, brightness=None):
    """The uncapped worst case: every LED full white, computed from the frame."""
    r = SiegeBoard(Frame(layout, brightness or leds_cfg["brightness"], leds_cfg["order"], 100000,
                         leds_cfg["ma_per_channel"]))
    r.frame.fill(255, 255, 255)
    return r.frame.frame_ma()


def power_budget(cfg, brightness=None):
    """Per layout (with and without city LEDs): figures measured on real
    frames at the config's (or the given) brightness and budget."""
    leds = cfg["leds"]
    bri = brightness or leds["brightness"]
    out = []
    for name in LAYOUTS:
        for city in (False, True):
            L = Layout(name, city)
            r = SiegeBoard(Frame(L, bri, leds["order"], leds["max_ma"], leds["ma_per_channel"]))
            n = 0
            worst_before = worst_after = 0
            worst_what = ""
            limited = 0
            for what, before, after in frames(r):
                n += 1
                if before > worst_before:
                    worst_before, worst_what = before, what
                if after > worst_after:
                    worst_after = after
                if before > leds["max_ma"]:
                    limited += 1
            out.append({"layout": name, "city": city, "leds": L.count, "brightness": bri,
                        "white_uncapped_ma": white_ma(L, leds, bri),
                        "worst_drawn_ma": worst_before, "worst_drawn": worst_what,
                        "worst_shown_ma": worst_after, "frames": n, "frames_capped": limited,
                        "budget_ma": leds["max_ma"]})
    return out


PICO_MA = 50          # the Pico itself, generously
USB2_MA = 500         # what a USB 2.0 port must supply


def power_md(cfg):
    leds = cfg["leds"]
    count = fwconfig.led_count(cfg)
    conf = Layout(leds["layout"], leds["city"])
    at = power_budget(cfg)
    full = power_budget(cfg, 255)
    w_conf = white_ma(conf, leds)
    w_255 = white_ma(conf, leds, 255)
    mine = [p for p in at if p["layout"] == leds["layout"] and p["city"] == leds["city"]][0]
    out = [
        "Figures computed by `make hardware` from the firmware's own renderer and",
        "config: brightness **%d**/255, budget `max_ma` **%d mA**, `ma_per_channel` %d mA"
        % (leds["brightness"], leds["max_ma"], leds["ma_per_channel"]),
        "(one colour channel fully on), %d mA idle per LED. A frame's current is" % IDLE_MA,
        "`%d mA \u00d7 LEDs + sum of every channel byte \u00d7 %d / 255` (`Frame.frame_ma()`);"
        % (IDLE_MA, leds["ma_per_channel"]),
        "the cap (`Frame.limit()`, applied to every frame after the animations and",
        "the UI) scales the whole frame down when it would exceed `max_ma`.",
        "",
        "Your build (layout %s, %d LEDs):" % (leds["layout"] + (" + city" if leds["city"] else ""), count),
        "",
        "- brightest frame of the catalogue below, before the cap: **%d mA** (%s)"
        % (mine["worst_drawn_ma"], mine["worst_drawn"]),
        "- brightest frame it shows, after the cap: **%d mA** \u2264 %d mA budget"
        % (mine["worst_shown_ma"], leds["max_ma"]),
        "- uncapped worst case, all %d LEDs full white at brightness %d: **%d mA**; "
        "at brightness 255: **%d mA** \u2014 the cap holds either to %d mA"
        % (count, leds["brightness"], w_conf, w_255, leds["max_ma"]),
        "",
        "Every layout, every frame of the catalogue (`osada.buildguide.power.frames`: every class of",
        "board state for 2 s at 20 ms steps, on boards fuller and brighter than a real game",
        "gets; every animation for every sector over them; the device's menu; the self-test):",
        "",
        "| layout | LEDs | all white, no cap | brightest drawn | shown (capped) "
        "| brightest drawn at 255 | shown at 255 | frames |",
        "|---|---:|---:|---:|---:|---:|---:|---:|",
    ]
    for p, q in zip(at, full):
        out.append("| %s%s | %d | %d mA | %d mA | %d mA | %d mA | %d mA | %d |"
                   % (p["layout"], " + city" if p["city"] else "", p["leds"], p["white_uncapped_ma"],
                      p["worst_drawn_ma"], p["worst_shown_ma"], q["worst_drawn_ma"], q["worst_shown_ma"],
                      p["frames"]))
    out += ["", "The LED figures are for the LEDs alone; the Pico adds about 20\u201350 mA."]
    if leds["max_ma"] + PICO_MA <= USB2_MA:
        out.append("With a budget of %d mA the whole device stays under the %d mA a USB 2.0 port must supply."
                   % (leds["max_ma"], USB2_MA))
    else:
        out.append("**A budget of %d mA plus the Pico is more than the %d mA a USB 2.0 port must supply:** "
                   "use a 5 V supply rated for at least %d mA." % (leds["max_ma"], USB2_MA,
                                                                  leds["max_ma"] + PICO_MA))
    return "\n".join(out)
