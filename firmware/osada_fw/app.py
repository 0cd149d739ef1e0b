# The Osada app: the game, its journal, the lit board, the inputs and the USB
# protocol, driven by one non-blocking tick() on the asyncio loop.
# The same code runs on the Pico (hal/pico.py) and in the simulator (hal/fake.py).

from osada_fw import anim, colors, protocol
from osada_fw.config import led_count
from osada_fw.journal import Journal
from osada_fw.layouts import Layout
from osada_fw.render import Renderer
from osada_fw.ui import UI
from shared_rules import actions as A
from shared_rules.catalog import LINES
from shared_rules.engine import Game, RuleError, parse, replay
from shared_rules.rng import Rng

FIRMWARE_VERSION = "0.1.0"
FRAME_MS = 33              # ~30 frames a second
WRITE_BUDGET_MS = 10       # outgoing serial may take at most this per tick
LINES_BUDGET_MS = 20       # requests handled per tick, at most this long
LINE_TIMEOUT_MS = 2000     # a partial line this old is dropped
MAX_LAG_MS = 4000          # queued animations never start later than this
SELFTEST_MS = 700          # each LED lit this long in the self-test
LOG_PAGE = 40              # actions per `log` reply: a reply stays well inside the outbox
DEFAULT_SETUP = {"players": 2, "mode": "standard", "variants": []}
_SAVE_ACTION = 0           # what App._save writes
_SAVE_UNDO = 1
_SAVE_START = 2


def _stop_index(path, sector, part):
    """Where in the bomber's R41 path it stopped."""
    for k in range(len(path)):
        if path[k][0] == sector and path[k][1] == part:
            return k
    return len(path) - 1


# what stopped the bomber -> the part of the path it stands on
_STOP_PART = {"wall": anim.WALL, "dot": anim.WALL, "building": anim.CITY}


# When flash fails the game goes on in RAM (issue 19): the journal's status
# in words, and the sign the ring shows while the game is not saved: the
# outermost LED of every sector flashes amber for FLASH_SIGN_MS every
# FLASH_SIGN_PERIOD_MS.
FLASH_SIGN_PERIOD_MS = 3000
FLASH_SIGN_MS = 250
FLASH_SIGN_RGB = (255, 110, 0)
_ERRNO_WORDS = {28: "flash full", 30: "flash not writable", 13: "flash not writable",
                1: "flash not writable", 19: "no filesystem", 5: "flash I/O error"}


def flash_words(exc):
    """What an OSError from the file system means to a player, in words."""
    code = exc.args[0] if exc.args else None
    return _ERRNO_WORDS.get(code, "flash error")


class CommandError(Exception):
    pass


class App:
    def __init__(self, hw, cfg):
        self.hw = hw
        self.cfg = cfg
        leds = cfg["leds"]
        self.layout = Layout(leds["layout"], leds["city"])
        self.renderer = Renderer(self.layout, leds["brightness"], leds["order"],
                                 leds["max_ma"], leds["ma_per_channel"])
        self.journal = Journal(hw.state_dir)
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
        self.selftest_at = 0
        self.last_rx = 0
        self.release = False
        self.unsaved = None            # None: the journal holds the game; else why not (words)
        self.ui = UI(self)
        self.handlers = {
            "hello": self.cmd_hello, "state": self.cmd_state, "new": self.cmd_new,
            "act": self.cmd_act, "undo": self.cmd_undo, "roll": self.cmd_roll,
            "leds": self.cmd_leds, "press": self.cmd_press, "repl": self.cmd_repl,
            "log": self.cmd_log, "selftest": self.cmd_selftest,
        }

    # ------------------------------------------------------------- lifecycle

    def boot(self):
        """Restore the game in progress from the journal, or start one.  No
        file system trouble (missing, full, read-only, a corrupt journal)
        stops the boot: the board comes up with a game and says what happened."""
        try:
            self.game = self.journal.restore()
        except Exception as exc:       # OSError, MemoryError: play on without it
            self.game = None
            self.journal.last_error = "journal unreadable: %r" % (exc,)
        lost = self.journal.last_error   # a saved game could not be read back
        if self.game is None:
            setup = dict(DEFAULT_SETUP)
            setup["seed"] = self.hw.free_roll_seed() & 0x3FFFFFFF
            self._start(setup)
            restored = False
        else:
            restored = True
        self.ui.reset()
        self.positions = self._positions()
        ev = {"ev": "boot", "restored": restored, "seq": len(self.game.log)}
        if self.unsaved is not None:
            ev["journal"] = self.unsaved
        if lost is not None:
            ev["lost"] = lost
        self.push(ev)
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
        while lines and self.outbox.pending() < self.outbox.limit // 2:
            self.handle_line(lines.pop(0))
            out_ms += self._pump(WRITE_BUDGET_MS - out_ms)
            if hw.clock.diff(hw.clock.ticks_ms(), now) >= LINES_BUDGET_MS:
                break                  # the rest next tick: LEDs and buttons stay live
        for ev in hw.inputs.poll(now):
            self.ui.handle(ev, now)
        self.draw(now)
        self._pump(WRITE_BUDGET_MS - out_ms)
        if self.release:              # {"cmd": "repl"}: hand the port to the REPL
            self.outbox.pump(hw.serial, hw.clock, 100)
            self.release = False
            hw.console_release()
        if hw.watchdog is not None:
            hw.watchdog.feed()
        if hw.buzzer is not None and hasattr(hw.buzzer, "poll"):
            hw.buzzer.poll(now)

    def _pump(self, budget_ms):
        """Write what the host takes within budget_ms; returns the ms spent."""
        if budget_ms <= 0 or not self.outbox.pending():
            return 0
        clock = self.hw.clock
        t0 = clock.ticks_ms()
        self.outbox.pump(self.hw.serial, clock, budget_ms)
        return clock.diff(clock.ticks_ms(), t0)

    async def run(self, booted=False):
        import asyncio
        sleep_ms = getattr(asyncio, "sleep_ms", None)
        if not booted:
            self.boot()
        while True:
            self.tick()
            if sleep_ms is not None:
                await sleep_ms(5)
            else:
                await asyncio.sleep(0.005)

    # -------------------------------------------------------------- drawing

    def draw(self, now, force=False):
        if not force and self.last_frame is not None and self.hw.clock.diff(now, self.last_frame) < FRAME_MS:
            return
        self.last_frame = now
        r = self.renderer
        if self.selftest_led is not None and self._selftest_draw(now, r):
            r.limit()
            self.hw.leds.write(r.buf)
            return
        r.draw(self.game, now)
        self.ui.overlay(now, r)
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
        if self.anims and anim.elapsed(self.anim_end, now) > 0:
            if anim.elapsed(self.anim_end, now) > MAX_LAG_MS:
                return
            start = self.anim_end
        a.start_ms = start
        self.anim_end = (start + a.duration_ms) & 0x3FFFFFFF
        self.anims.append(a)

    # ------------------------------------------------------------ self-test

    def start_selftest(self, now):
        """Light each LED in turn, white, and name its cell on the serial line,
        so a builder can check the layout against the board (hardware/README.md)."""
        self.selftest_led = -1
        self.selftest_at = now
        self._selftest_next(now)

    def _selftest_next(self, now):
        self.selftest_led += 1
        self.selftest_at = now
        i = self.selftest_led
        if i >= self.layout.count:
            self.selftest_led = None
            self.push({"ev": "selftest", "done": True, "leds": self.layout.count})
            return
        sector, part = self.layout.cell_of(i)
        name = part if isinstance(part, str) else LINES[part]
        self.push({"ev": "selftest", "led": i, "sector": sector, "line": name})

    def _selftest_draw(self, now, r):
        if self.hw.clock.diff(now, self.selftest_at) >= SELFTEST_MS:
            self._selftest_next(now)
            if self.selftest_led is None:
                return False
        r.clear()
        r.set_pixel(self.selftest_led, 255, 255, 255)
        return True

    def make_roll_anim(self, value, now):
        self.anims = []                # a die roll takes the board at once
        self.animate(anim.DieRoll(value, now), now)

    def animate_events(self, events, now):
        """Turn what the engine reports into light: reveals flash where the
        enemy lands, moves sweep inwards, the bomber flies its R41 path."""
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
                hit = [before[i] for i in ev["destroyed"] if i in before]
                self.animate(anim.He111Flight(ev["sector"], path, hit, now), now)
        self.positions = self._positions()

    def _moved_cells(self, before):
        """Where the enemies that moved stand now, grouped by line from the
        rear inwards: the movement phase lit step by step, as it happened."""
        groups = [[] for _ in range(5)]
        for e in self.game.enemies:
            was = before.get(e.id)
            cell = (e.sector, e.line if e.line < 4 else anim.CITY)
            if was is not None and was != cell:
                groups[e.line].append(cell)
        return [g for g in groups if g]

    def _positions(self):
        # where every enemy stands, for animating what an action destroys
        pos = {}
        for e in self.game.enemies:
            pos[e.id] = (e.sector, e.line if e.line < 4 else anim.CITY)
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
            if self.unsaved is not None:
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
        log = self.game.log.tuples()
        if not log:
            raise CommandError("nothing to undo")
        setup = self.game.setup_dict()
        self.game = replay(setup, log[:-1])
        self._save(_SAVE_UNDO)
        self.after_change([{"ev": "undo", "seq": len(log) - 1}], now=self.hw.clock.ticks_ms())

    def after_change(self, events, now):
        for ev in events:
            self.push(ev)
        self.push_state()
        self.ui.on_events(events, now)

    def push(self, obj):
        self.outbox.put(obj)

    def push_state(self):
        st = self.game.state()
        del st["events"]
        self.outbox.put({"ev": "state", "seq": len(self.game.log), "state": st})

    def free_roll(self):
        return self.free_rng.die()

    # ------------------------------------------------------------- protocol

    def reply(self, rid, fields):
        fields["id"] = rid
        fields["ok"] = True
        self.outbox.put(fields)

    def reply_error(self, rid, message, rule=None):
        obj = {"id": rid, "ok": False, "error": message}
        if rule is not None:
            obj["rule"] = rule
        self.outbox.put(obj)

    def handle_line(self, line):
        if line is None:
            self.reply_error(None, "line too long (max %d bytes)" % self.reader.max)
            return
        rid = None
        try:
            rid, req = protocol.parse_request(line)
            fn = self.handlers.get(req["cmd"])
            if fn is None:
                raise CommandError("unknown command %r; known: %s"
                                   % (req["cmd"], ", ".join(sorted(self.handlers))))
            self.reply(rid, fn(req))
        except protocol.RequestError as exc:
            self.reply_error(exc.rid, str(exc))
        except RuleError as exc:
            self.reply_error(rid, exc.message, exc.rule)
        except CommandError as exc:
            self.reply_error(rid, str(exc))
        except SystemExit:
            raise
        except Exception as exc:          # never let a request stop the device
            self.reply_error(rid, "internal error: %r" % (exc,))
            self._recover()

    def _recover(self):
        """After an unexpected error the game in memory may be half-changed:
        rebuild it from its setup and log (an action is logged only once it
        is applied in full), which the journal holds too when it is saved."""
        try:
            self.game = replay(self.game.setup_dict(), self.game.log.tuples())
        except Exception:
            game = self.journal.restore() if self.unsaved is None else None
            if game is not None:
                self.game = game
        self.push_state()

    def cmd_hello(self, req):
        return {"protocol": protocol.PROTOCOL_VERSION, "firmware": FIRMWARE_VERSION,
                "game": "siege", "leds": led_count(self.cfg), "layout": self.layout.name,
                "seq": len(self.game.log), "journal": self.journal_status()}

    def cmd_state(self, req):
        st = self.game.state()
        del st["events"]
        return {"state": st, "seq": len(self.game.log), "journal": self.journal_status()}

    def cmd_log(self, req):
        """The game so far as a scenario, in pages: LOG_PAGE actions from
        `from` (default 0); `next` is where the next page starts, or null."""
        start = req.get("from", 0)
        total = len(self.game.log)
        if not isinstance(start, int) or isinstance(start, bool) or start < 0 or start > total:
            raise CommandError("from must be an integer from 0 to %d" % total)
        page = []
        i = 0
        for t in self.game.log:
            if i >= start + LOG_PAGE:
                break
            if i >= start:
                page.append(A.to_dict(t))
            i += 1
        end = start + len(page)
        return {"setup": self.game.setup_dict(), "actions": page, "from": start,
                "total": total, "next": end if end < total else None}

    def cmd_new(self, req):
        setup = {}
        for k in ("players", "mode", "variants", "seed"):
            if k in req:
                setup[k] = req[k]
        if "seed" not in setup:
            setup["seed"] = self.hw.free_roll_seed() & 0x3FFFFFFF
        game = Game.from_setup(setup)            # RuleError('format') if bad
        self.game = game
        saved = self._save(_SAVE_START, game.setup_dict())
        self.ui.reset()
        self.after_change(game.events, now=self.hw.clock.ticks_ms())
        return self._saved({"seq": 0}, saved)

    def cmd_act(self, req):
        action = req.get("action")
        if not isinstance(action, dict):
            raise CommandError("act needs 'action', a spec action object")
        events = self.apply(action)
        return self._saved({"seq": len(self.game.log), "events": len(events)}, self.unsaved is None)

    def cmd_undo(self, req):
        self.undo()
        return self._saved({"seq": len(self.game.log)}, self.unsaved is None)

    def _saved(self, reply, saved):
        """A reply to a change says `"saved": false` when flash failed it."""
        if not saved:
            reply["saved"] = False
            reply["journal"] = self.unsaved
        return reply

    def cmd_roll(self, req):
        value = self.free_roll()
        self.ui.show_roll(value, self.hw.clock.ticks_ms())
        self.push({"ev": "roll", "value": value})
        return {"value": value}

    def cmd_leds(self, req):
        return {"leds": self.renderer.rgb_list()}

    def cmd_press(self, req):
        now = self.hw.clock.ticks_ms()
        if "turn" in req:
            d = req["turn"]
            if not isinstance(d, int) or isinstance(d, bool) or d not in (1, -1):
                raise CommandError("turn must be 1 or -1")
            self.ui.handle(("turn", d), now)
        else:
            name = req.get("button")
            if name not in ("action", "back", "encoder"):
                raise CommandError("button must be action, back or encoder (or give turn)")
            self.ui.handle(("long" if req.get("long") else "press", name), now)
        return {}

    def cmd_selftest(self, req):
        self.start_selftest(self.hw.clock.ticks_ms())
        return {"leds": self.layout.count, "ms_per_led": SELFTEST_MS}

    def cmd_repl(self, req):
        self.release = True           # after this reply has gone out (tick)
        return {"bye": True}
