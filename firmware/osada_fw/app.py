# The Osada app: the game, its journal, the lit board, the inputs and the USB
# line, driven by one non-blocking tick() (run() loops it).  The requests
# that come in on the line are osada_fw/commands.py's.
# The same code runs on the Pico (hal/pico.py) and in the simulator (hal/fake.py).

from osada_fw import collect, colors, elapsed, forget, protocol
from osada_fw.layouts import CITY, WALL, Layout
from osada_fw.protocol import CommandError
from osada_fw.render import Renderer
from osada_fw.ui import UI
from shared_rules.engine import Game, parse, replay
from shared_rules.rng import Rng

FRAME_MS = 33              # ~30 frames a second
IDLE_MS = 4                # between ticks, unless a byte comes in sooner
FRAME_LATE_MS = 100        # while requests come in, a frame waits for them at most this long
WRITE_BUDGET_MS = 10       # outgoing serial may take at most this per tick
LINES_BUDGET_MS = 20       # requests handled per tick, at most this long
LINE_TIMEOUT_MS = 2000     # a partial line this old is dropped
MAX_LAG_MS = 4000          # queued animations never start later than this
DEFAULT_SETUP = {"players": 2, "mode": "standard", "variants": []}
_SAVE_ACTION = 0           # what App._save writes
_SAVE_UNDO = 1
_SAVE_START = 2
_SAVE_GAME = 3             # the whole game, rewritten


def _built():
    """A game was just built (boot, new, undo, recover).  What builds one
    (shared_rules/newgame.py: the setup's checks, the start board and pool)
    is needed by no game in progress: it leaves the heap (~3 KB: the code
    is in RAM, loaded from littlefs), and what the building left (that
    code, the old game) is collected before the journal and the replies
    allocate on top of it."""
    forget("shared_rules.newgame")
    collect()


def _selftest_draw(app, now, r):
    from osada_fw import selftest
    return selftest.draw(app, now, r)


def _stop_index(path, sector, part):
    """Where in the bomber's R41 path it stopped."""
    for k in range(len(path)):
        if path[k][0] == sector and path[k][1] == part:
            return k
    return len(path) - 1


def _cell(code):
    """App.positions' sector * 8 + line -> the cell (sector, line 0-3 or
    CITY) the animations take."""
    line = code & 7
    return (code >> 3, line if line < 4 else CITY)


# what stopped the bomber -> the part of the path it stands on
_STOP_PART = {"wall": WALL, "dot": WALL, "building": CITY}


# When flash fails the game goes on in RAM (issue 19): the journal's status
# in words, and the sign the ring shows while the game is not saved: the
# outermost LED of every sector flashes amber for FLASH_SIGN_MS every
# FLASH_SIGN_PERIOD_MS.
# The optional buzzer's tones: osada_fw/tones.py.

FLASH_SIGN_PERIOD_MS = 3000
FLASH_SIGN_MS = 250
FLASH_SIGN_RGB = (255, 110, 0)
_ERRNO_WORDS = {28: "flash full", 30: "flash not writable", 13: "flash not writable",
                1: "flash not writable", 19: "no filesystem", 5: "flash I/O error"}


def flash_words(exc):
    """What an OSError from the file system means to a player, in words."""
    code = exc.args[0] if exc.args else None
    return _ERRNO_WORDS.get(code, "flash error")


SETTING = "/game"          # in the state dir: the game chosen last (osada_fw/games.py)


def _open_journal(hw):
    """The HAL's journal if it has one (the Pico's raw-flash log), else the
    littlefs file journal in hw.state_dir: only one backend is imported."""
    opener = getattr(hw, "open_journal", None)
    j = opener() if opener is not None else None
    if j is None:
        from osada_fw.journal import Journal
        j = Journal(hw.state_dir)
    return j


class App:
    def __init__(self, hw, cfg):
        self.hw = hw
        self.cfg = cfg
        leds = cfg["leds"]
        self.layout = Layout(leds["layout"], leds["city"])
        self.renderer = Renderer(self.layout, leds["brightness"], leds["order"],
                                 leds["max_ma"], leds["ma_per_channel"])
        self.journal = _open_journal(hw)
        self.reader = protocol.LineReader(cfg["serial"]["max_line"])
        self.outbox = protocol.Outbox()
        self.free_rng = Rng(hw.free_roll_seed() & 0x3FFFFFFF)
        self.game = None
        self.anims = []
        self.anim_end = 0
        self.positions = {}
        self.last_frame = None
        self.lines = []
        self.selftest_led = None
        self.last_rx = 0
        self.release = False
        self.running = True            # run() goes on until {"cmd": "repl"}
        self.unsaved = None            # None: the journal holds the game; else why not (words)
        self.heap_peak = -1            # -1: not tracked; else the heap high-water mark (the `mem` command)
        self.ui = UI(self)
        self.mode = None               # the game when it is not Siege (osada_fw/games.py)
        self.replaced = None           # the game a new game replaced: (setup, its actions encoded), for undo

    # ------------------------------------------------------------- lifecycle

    def boot(self):
        """Restore the game in progress from the journal, or start one.  No
        file system trouble (missing, full, read-only, a corrupt journal)
        stops the boot: the board comes up with a game and says what happened."""
        clock = self.hw.clock
        t0 = clock.ticks_ms()
        try:
            self.game = self.journal.restore()
        except Exception as exc:       # OSError, MemoryError: play on without it
            self.game = None
            self.journal.last_error = "journal unreadable: %r" % (exc,)
        restore_ms = clock.diff(clock.ticks_ms(), t0)
        lost = self.journal.last_error   # a saved game could not be read back
        if self.game is None:
            setup = dict(DEFAULT_SETUP)
            setup["seed"] = self.hw.free_roll_seed() & 0x3FFFFFFF
            self._start(setup)
            restored = False
        else:
            restored = True
        _built()
        self.ui.reset()
        self.positions = self._positions()
        ev = {"ev": "boot", "restored": restored, "seq": len(self.game.log), "restore_ms": restore_ms}
        if self.unsaved is not None:
            ev["journal"] = self.unsaved
        if lost is not None:
            ev["lost"] = lost
        self.push(ev)
        try:                           # the game chosen last (none, or no flash: Siege)
            with open(self.hw.state_dir + SETTING) as f:
                other = f.read(9) != "siege"
        except Exception:
            other = False
        if other:
            from osada_fw import games
            games.boot(self, self.hw.clock.ticks_ms())
        else:
            self.ui.game_menu(self.hw.clock.ticks_ms())   # the game menu (ui.py), nothing more loaded
        self.draw(self.hw.clock.ticks_ms(), force=True)

    def tick(self):
        hw = self.hw
        now = hw.clock.ticks_ms()
        lines = self.lines
        # Back-pressure: while the host has not taken half the outbox, its
        # further requests wait in the USB buffer instead of being answered
        # into an outbox that would overflow.
        if not lines and self.outbox.pending() < self.outbox.limit // 2:
            data = hw.serial.read()
            if data:
                self.last_rx = now
                self.reader.feed(data, lines)
            elif self.reader.partial() and hw.clock.diff(now, self.last_rx) >= LINE_TIMEOUT_MS:
                # a host that left mid-line must not glue its half line onto
                # the next host's first request; a host that forgot the line
                # end is told why nothing happened
                held = self.reader.pending()
                self.reader.reset()
                if held:
                    self.push({"ev": "line_timeout", "bytes": held,
                               "error": "an unfinished request (%d bytes, no line end for %d s) was dropped: "
                                        "end each request with a newline" % (held, LINE_TIMEOUT_MS // 1000)})
        out_ms = 0                     # time spent writing this tick, all told
        busy = bool(lines)
        answered = False
        if lines:                      # the requests' code: loaded when the host first speaks,
            from osada_fw import commands  # not before the board's first frame
        while lines and self.outbox.pending() < self.outbox.limit // 2:
            commands.handle_line(self, lines.pop(0))
            answered = True
            out_ms += self._pump(WRITE_BUDGET_MS - out_ms)
            if hw.clock.diff(hw.clock.ticks_ms(), now) >= LINES_BUDGET_MS:
                break                  # the rest next tick: LEDs and buttons stay live
        for ev in hw.inputs.poll(now):
            (self.ui if self.mode is None else self.mode).handle(ev, now)
        if not self._frame_may_wait(now, answered):
            self.draw(now)
        self._pump(WRITE_BUDGET_MS - out_ms)
        if busy and self.heap_peak >= 0:
            from osada_fw import memstat
            memstat.sample(self)
        if not busy and not self.outbox.pending() and not self.reader.partial():
            self.journal.idle()        # nothing waiting: flash gets ready for the next writes
        if self.release:              # {"cmd": "repl"}: hand the port to the REPL
            self.outbox.pump(hw.serial, hw.clock, 100)
            self.release = False
            self.running = False       # run() returns: main.py ends at the REPL prompt
            self.journal.close()
            hw.console_release()
        if hw.watchdog is not None:
            hw.watchdog.feed()
        if hw.buzzer is not None and hasattr(hw.buzzer, "poll"):
            hw.buzzer.poll(now)

    def _frame_may_wait(self, now, answered):
        """The host comes first: a frame that is due waits while a request
        is coming in or queued (unless a host that does not read holds it
        back), and for one idle wait after requests were answered (the host
        may send the next at once), but never past FRAME_LATE_MS."""
        if self.last_frame is None:
            return False
        if not (answered or self.reader.partial()
                or (self.lines and self.outbox.pending() < self.outbox.limit // 2)):
            return False
        return self.hw.clock.diff(now, self.last_frame) < FRAME_LATE_MS

    def _pump(self, budget_ms):
        """Write what the host takes within budget_ms; returns the ms spent."""
        if budget_ms <= 0 or not self.outbox.pending():
            return 0
        clock = self.hw.clock
        t0 = clock.ticks_ms()
        self.outbox.pump(self.hw.serial, clock, budget_ms)
        return clock.diff(clock.ticks_ms(), t0)

    def run(self, booted=False):
        """Tick until {"cmd": "repl"}; between ticks, sleep until a byte
        comes in, at most IDLE_MS (the buttons and the encoder are polled
        each tick)."""
        if not booted:
            self.boot()
        wait = self.hw.serial.wait
        while self.running:
            self.tick()
            wait(IDLE_MS)

    # -------------------------------------------------------------- drawing

    def draw(self, now, force=False):
        last = self.last_frame
        if not force and last is not None and self.hw.clock.diff(now, last) < FRAME_MS:
            return
        self.last_frame = now
        r = self.renderer
        if self.selftest_led is not None and _selftest_draw(self, now, r):
            r.limit()
            self.hw.leds.write(r.buf)
            return
        if self.mode is not None:
            self.mode.draw(now, r)
        else:
            r.draw(self.game, now)
            self.ui.overlay(now, r)
            if self.anims:             # osada_fw/anim.py: loaded with the first animation, not at boot
                from osada_fw import anim
                anim.run(self.anims, now, r)
        if self.unsaved is not None and now % FLASH_SIGN_PERIOD_MS < FLASH_SIGN_MS:
            lay = self.layout
            for s in range(1, 7):      # not saved: the outer ring flashes amber
                r.set_pixel(lay.index(s, 0), FLASH_SIGN_RGB[0], FLASH_SIGN_RGB[1], FLASH_SIGN_RGB[2])
        r.limit()                      # the power cap, over everything drawn
        self.hw.leds.write(r.buf)

    def animate(self, a, now):
        """Queue an animation after the ones already playing.  One that would
        start more than MAX_LAG_MS late is skipped: the board never lags the
        game by more than that (a cascade of reveals stays watchable)."""
        if len(self.anims) >= 8:
            return
        start = now
        if self.anims and elapsed(self.anim_end, now) > 0:
            if elapsed(self.anim_end, now) > MAX_LAG_MS:
                return
            start = self.anim_end
        a.start_ms = start
        self.anim_end = (start + a.duration_ms) & 0x3FFFFFFF
        self.anims.append(a)

    # ------------------------------------------------------------ self-test

    def start_selftest(self, now):
        """Light each LED in turn (osada_fw/selftest.py, loaded only when asked)."""
        from osada_fw import selftest
        selftest.start(self, now)

    def make_roll_anim(self, value, now):
        from osada_fw import anim
        self.anims = []                # a die roll takes the board at once
        self.animate(anim.DieRoll(value, now), now)

    def animate_events(self, events, now):
        """Turn what the engine reports into light: reveals flash where the
        enemy lands, moves sweep inwards, the bomber flies its R41 path."""
        from osada_fw import anim
        before = self.positions
        for ev in events:
            name = ev["ev"]
            if name == "reveal" and "sector" in ev:
                # the die spins and lands on the sector (tanks, He-111), then
                # the enemy flashes where it lands; the bomber's flight follows
                self.animate(anim.DieRoll(ev["sector"], now, spins=1), now)
                e = self.game.enemy(ev["enemy"]) if "enemy" in ev else None
                if e is not None:
                    color = colors.rgb(colors.enemy_pal(e.kind, e.armor))
                    self.animate(anim.Reveal(ev["sector"], 0, color, now), now)
            elif name == "move" and ev["count"]:
                steps = self._moved_cells(before)
                if steps:
                    self.animate(anim.MoveSteps(steps, now), now)
            elif name == "he111":
                path = anim.he111_path(ev["sector"])
                if ev["stop"] is not None:
                    path = path[:_stop_index(path, ev["at"], _STOP_PART[ev["stop"]]) + 1]
                hit = [_cell(before[i]) for i in ev["destroyed"] if i in before]
                self.animate(anim.He111Flight(ev["sector"], path, hit, now), now)
        self.positions = self._positions()

    def _moved_cells(self, before):
        """Where the enemies that moved stand now, grouped by line from the
        rear inwards: the movement phase lit step by step, as it happened."""
        groups = [[] for _ in range(5)]
        for e in self.game.enemies:
            was = before.get(e.id)
            code = e.sector * 8 + e.line
            if was is not None and was != code:
                groups[e.line].append(_cell(code))
        return [g for g in groups if g]

    def _positions(self):
        # where every enemy stands (sector * 8 + line: a small int, no tuple
        # kept per enemy), for animating what an action destroys
        pos = {}
        for e in self.game.enemies:
            pos[e.id] = e.sector * 8 + e.line
        return pos

    # ------------------------------------------------------------- the game

    def _start(self, setup):
        game = Game.from_setup(setup)
        self.game = game
        self._save(_SAVE_START, game.setup_dict())

    def _save(self, what, arg=None):
        """Write the change just made to self.game into the journal.  When
        flash fails (full, read-only, I/O error: any OSError) the game goes
        on in RAM: the failure is pushed as a `journal` event once, the ring
        shows FLASH_SIGN, and every later change retries by rewriting the
        whole game from RAM; the first that works clears it.  Returns True
        if the game is saved."""
        j = self.journal
        try:
            if self.unsaved is not None or what == _SAVE_GAME:
                j.compact(self.game.setup_dict(), self.game.log.tuples())
            elif what == _SAVE_ACTION:
                j.append(arg)
            elif what == _SAVE_UNDO:
                j.undo()
            else:
                j.start(arg)
        except OSError as exc:
            words = flash_words(exc)
            if words != self.unsaved:
                self.unsaved = words
                self.push({"ev": "journal", "saved": False, "status": words})
            return False
        if self.unsaved is not None:
            self.unsaved = None
            self.push({"ev": "journal", "saved": True, "status": "ok"})
        return True

    def journal_status(self):
        return "ok" if self.unsaved is None else self.unsaved

    def apply(self, action):
        """Apply one action (dict) from the protocol or the buttons; journal it
        before anything is acknowledged.  Returns the events; raises
        RuleError (nothing changed).  A flash that fails does not refuse the
        action (see _save): self.unsaved says so."""
        t = parse(action)
        events = self.game.apply_tuple(t)
        self._save(_SAVE_ACTION, t)
        self.after_change(events, now=self.hw.clock.ticks_ms())
        return events

    def undo(self):
        """Take back the last action; in a new game with none yet, bring
        back the game it replaced (CommandError if there is neither)."""
        log = self.game.log.tuples()
        if log:
            self.game = replay(self.game.setup_dict(), log[:-1])
            ev = {"ev": "undo", "seq": len(log) - 1}
        else:
            if self.replaced is None:
                raise CommandError("nothing to undo")
            from osada_fw import replaced
            self.game = replaced.back(self.replaced)
            forget("osada_fw.replaced")
            self.replaced = None
            self.ui.reset()
            ev = {"ev": "undo", "seq": len(self.game.log), "game_back": True}
        _built()
        self._save(_SAVE_UNDO if log else _SAVE_GAME)
        self.after_change([ev], now=self.hw.clock.ticks_ms())

    def after_change(self, events, now):
        for ev in events:
            self.push(ev)
        self.push_state()
        self.ui.on_events(events, now)

    def push(self, obj):
        bz = self.hw.buzzer
        if bz is not None:
            from osada_fw.tones import TONES
            tone = TONES.get(obj.get("ev"))
            if tone is not None:
                bz.tone(tone[0], tone[1])
        self.outbox.put(obj)

    def push_state(self):
        st = self.game.state()
        del st["events"]
        self.outbox.put({"ev": "state", "seq": len(self.game.log), "state": st})

    def free_roll(self):
        return self.free_rng.die()

    def new_game(self, setup):
        """Start a new game from setup (players, mode, variants, seed: each
        optional; a free seed if none).  RuleError('format') if it is bad,
        nothing changed then.  Returns True if the journal saved it."""
        setup = dict(setup)
        if "seed" not in setup:
            setup["seed"] = self.hw.free_roll_seed() & 0x3FFFFFFF
        old = self.game
        try:
            game = Game.from_setup(setup)
        finally:                       # a refused setup too
            _built()
        if old is not None and len(old.log):   # kept for undo (osada_fw/replaced.py)
            from osada_fw import replaced
            self.replaced = replaced.keep(old)
            forget("osada_fw.replaced")
        self.game = game
        saved = self._save(_SAVE_START, game.setup_dict())
        self.ui.reset()
        self.after_change(game.events, now=self.hw.clock.ticks_ms())
        return saved

    def recover(self):
        """After an unexpected error the game in memory may be half-changed:
        rebuild it from its setup and log (an action is logged only once it
        is applied in full), which the journal holds too when it is saved."""
        try:
            self.game = replay(self.game.setup_dict(), self.game.log.tuples())
        except Exception:
            game = self.journal.restore() if self.unsaved is None else None
            if game is not None:
                self.game = game
        _built()
        self.push_state()

