# The device loop: requests in on the USB line, the inputs to the running
# game, its frame out to the LEDs, driven by one non-blocking tick() (run()
# loops it).  Which game runs is app.mode, one of the registry's
# (osada_fw/games.py); Siege, the home game, is started at boot and kept in
# app.siege while another plays (siege/mode.py).
# The same code runs on the Pico (hal/pico.py) and in the simulator (hal/fake.py).
#
# A game's object (siege/mode.py Siege, tank/mode.py Tank) answers:
#   id                 its registry id
#   modules            the modules to unload when another game is chosen
#   handle(ev, now)    an input event (hal/__init__.py)
#   draw(now, frame)   its picture into the frame (frame.py)
#   handlers()         the requests it answers itself (before link/commands.py's)
#   acting()           a request that changes something comes: close what
#                      menu it has open; returns the game that takes it

from osada_fw import collect, games
from osada_fw.frame import Frame
from osada_fw.layouts import Layout
from osada_fw.link.protocol import LineReader, Outbox
from osada_fw.siege.mode import Siege
from shared_rules.rng import Rng

FRAME_MS = 33              # ~30 frames a second
IDLE_MS = 4                # between ticks, unless a byte comes in sooner
FRAME_LATE_MS = 100        # while requests come in, a frame waits for them at most this long
WRITE_BUDGET_MS = 10       # outgoing serial may take at most this per tick
LINES_BUDGET_MS = 20       # requests handled per tick, at most this long
LINE_TIMEOUT_MS = 2000     # a partial line this old is dropped

# When flash fails the game goes on in RAM (issue 19; siege/mode.py): the
# sign the ring shows while the game is not saved: the outermost LED of
# every sector flashes amber for FLASH_SIGN_MS every FLASH_SIGN_PERIOD_MS,
# whichever game runs.  The optional buzzer's tones: osada_fw/tones.py.
FLASH_SIGN_PERIOD_MS = 3000
FLASH_SIGN_MS = 250
FLASH_SIGN_RGB = (255, 110, 0)


class App:
    def __init__(self, hw, cfg):
        self.hw = hw                   # cfg is read here and not kept: its dicts leave the heap after the boot
        leds = cfg["leds"]
        self.layout = Layout(leds["layout"], leds["city"])
        self.frame = Frame(self.layout, leds["brightness"], leds["order"],
                           leds["max_ma"], leds["ma_per_channel"])
        self.reader = LineReader(cfg["serial"]["max_line"])
        self.outbox = Outbox()
        self.free_rng = Rng(hw.free_roll_seed())
        self.last_frame = None
        self.lines = []
        self.selftest_led = None
        self.last_rx = 0
        self.release = False
        self.running = True            # run() goes on until {"cmd": "repl"}
        self.heap_peak = -1            # -1: not tracked; else the heap high-water mark (the `mem` command)
        self.memstat = None            # osada_fw/memstat.py while `mem` tracks
        self.requests = None           # link/commands.py once the host has spoken
        self.siege = Siege(self)       # the home game, kept while another plays
        self.mode = self.siege         # the game that runs

    # ------------------------------------------------------------- lifecycle

    def boot(self):
        """Siege's game back from the journal (or a new one), then the game
        chosen last: the game menu (a few seconds) over it."""
        self.siege.boot()
        now = self.hw.clock.ticks_ms()
        if games.remembered(self.hw.state_dir) != games.HOME:
            from osada_fw import gamemenu
            gamemenu.boot(self, now)
        else:
            self.siege.ui.game_menu(now)   # Siege's own menu: nothing more loaded
        self.draw(self.hw.clock.ticks_ms(), force=True)
        self._pump(20)                 # the boot event: the host hears of it with the first frame
        if self.mode is self.siege:
            self.siege.warm()          # collects what the boot left, too
        else:
            collect()

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
        commands = self.requests
        if lines and commands is None:  # the requests' code: loaded when the host first speaks,
            from osada_fw.link import commands  # not before the board's first frame; kept here (an
            self.requests = commands           # import statement run per tick allocates on MicroPython)
        while lines and self.outbox.pending() < self.outbox.limit // 2:
            commands.handle_line(self, lines.pop(0))
            answered = True
            out_ms += self._pump(WRITE_BUDGET_MS - out_ms)
            if hw.clock.diff(hw.clock.ticks_ms(), now) >= LINES_BUDGET_MS:
                break                  # the rest next tick: LEDs and buttons stay live
        for ev in hw.inputs.poll(now):
            self.input(ev, now)
        if not self._frame_may_wait(now, answered):
            self.draw(now)
        self._pump(WRITE_BUDGET_MS - out_ms)
        ms = self.memstat              # loaded by `mem` (link/commands.py)
        if busy and ms is not None and self.heap_peak >= 0:   # tracking
            ms.sample(self)
        if not busy and not self.outbox.pending() and not self.reader.partial():
            self.siege.journal.idle()  # nothing waiting: flash gets ready for the next writes
        if self.release:              # {"cmd": "repl"}: hand the port to the REPL
            self.outbox.pump(hw.serial, hw.clock, 100)
            self.release = False
            self.running = False       # run() returns: main.py ends at the REPL prompt
            self.siege.journal.close()
            hw.console_release()
        if hw.watchdog is not None:
            hw.watchdog.feed()
        if hw.buzzer is not None and hasattr(hw.buzzer, "poll"):
            hw.buzzer.poll(now)

    def input(self, ev, now):
        """An input event, from the hardware or a `press` request: the
        running game's, unless the LED self-test runs (any button ends it)."""
        if self.selftest_led is not None:
            if ev[0] == "press":
                self.selftest_led = None
            return
        self.mode.handle(ev, now)

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
        f = self.frame
        if self.selftest_led is not None:
            from osada_fw import selftest  # loaded only while it runs
            if selftest.draw(self, now, f):
                f.limit()
                self.hw.leds.write(f.buf)
                return
        self.mode.draw(now, f)
        if self.siege.unsaved is not None and now % FLASH_SIGN_PERIOD_MS < FLASH_SIGN_MS:
            lay = self.layout
            for s in range(1, 7):      # not saved: the outer ring flashes amber
                f.set_pixel(lay.index(s, 0), FLASH_SIGN_RGB[0], FLASH_SIGN_RGB[1], FLASH_SIGN_RGB[2])
        f.limit()                      # the power cap, over everything drawn
        self.hw.leds.write(f.buf)

    # ------------------------------------------------- what every game uses

    def push(self, obj):
        """An event for the host (and its tone, if there is a buzzer)."""
        bz = self.hw.buzzer
        if bz is not None:
            from osada_fw.tones import TONES
            tone = TONES.get(obj.get("ev"))
            if tone is not None:
                bz.tone(tone[0], tone[1])
        self.outbox.put(obj)

    def pick_game(self, gid, now):
        """A game's own menu took game gid (None: open the game menu)."""
        from osada_fw import gamemenu  # loaded only for this
        gamemenu.pick(self, gid, now)
