"""The monitor's textual app: the mirror of the device (reactive attributes
the widgets watch), the serial session in a thread worker, and the actions
the keys (keymap.KEYMAP, bound on the MainScreen) run."""

from textual import work
from textual.app import App
from textual.reactive import var

from osada.link import ports
from osada.link.simproc import SimProcess
from osada.paths import SIM_STATE
from osada.words import texts
from osada.words.game_names import game_name

from .board import render_board
from .keymap import action_game
from .panel import info_text
from .screens import AskSimScreen, HelpScreen
from .session import RETRY_S, NoDevice, Session
from .siege_keys import SiegeKeys, action_text
from .tank_board import render_tank
from .tank_panel import TankSetup, panel_text
from .widgets import EventLog, MainScreen


class MonitorApp(SiegeKeys, App):
    TITLE = "Osada monitor"
    CSS_PATH = "monitor.tcss"
    # the window's size as classes of the screen, for monitor.tcss: below 80×24
    # (-tiny-w / -tiny-h) only a note, below 120 columns (-narrow) the board
    # across the window, below 30 rows (-short) a compact board
    HORIZONTAL_BREAKPOINTS = [(0, "-tiny-w"), (80, "-narrow"), (120, "-wide")]
    VERTICAL_BREAKPOINTS = [(0, "-tiny-h"), (24, "-short"), (30, "-tall")]
    ENABLE_COMMAND_PALETTE = False      # every key the footer shows is in the help (KEYMAP)

    # the mirror, as the UI sees it: the widgets watch these and redraw themselves
    state = var(None)             # the device's state (dict), None before the first
    seq = var(None)
    stale = var(True)             # the connection is lost: `state` is the last one seen
    setup = var(None)             # players, mode, variants, seed (the reply to `log`)
    game = var("siege")           # the game the device runs (hello, `game` events): "siege" or "tank"
    tank_roll = var(None)         # Tank battle: the last roll event (the board area shows it), None before one
    tank = var(TankSetup())       # Tank battle: the test and numbers the roll key sends (tank_panel.TankSetup)
    conn_kind = var("starting")   # Session.Status kinds, or "starting"
    conn_text = var("starting…")
    status_text = var("")         # what the last key did, or why it was refused
    status_refused = var(False)
    cursor = var((1, 1))          # (sector 1..6, line index 0..4: rear .. city)
    sel_id = var(None)            # the enemy Tab picked in the cursor cell
    cand_i = var(0)               # the marked candidate of a pending damage choice

    def __init__(self, port="auto", start_sim=False, sim_link=ports.SIM_LINK, sim_state=SIM_STATE, retry=RETRY_S,
                 handle_signals=False, session=Session):
        super().__init__()
        self.session_factory = session    # Session, or a stand-in with its interface (tests)
        self.handle_signals = handle_signals
        self.port_arg = port or "auto"
        self.auto = self.port_arg == "auto"
        self.forced_port = None if self.auto else self.port_arg
        self.start_sim = start_sim
        self.sim = SimProcess(sim_link, sim_state)
        self.sim_started = False
        self.retry = retry
        self.session = None
        self.main = None
        self.hello = None
        self.log_entries = []         # the event log: (line, style), newest last (at most 2000)
        self.events = []              # the events as pushed, newest last (at most 2000)
        self.last_cands = None
        self._down = False

    def get_default_screen(self):
        self.main = MainScreen()
        return self.main

    # ------------------------------------------------------------ lifecycle

    def on_mount(self):
        self.session = self.session_factory(self._resolve, retry=self.retry, post=self.post_message)
        self.run_link()
        self.set_interval(RETRY_S, self._check_sim)
        if self.handle_signals:                # SIGTERM / SIGHUP: quit cleanly (and stop our simulator)
            import asyncio
            import signal
            loop = asyncio.get_running_loop()
            for sig in (signal.SIGTERM, signal.SIGHUP):
                try:
                    loop.add_signal_handler(sig, self.action_quit)
                except (NotImplementedError, RuntimeError, ValueError):
                    pass
        if self.auto and ports.find_device() is None:
            if self.start_sim:
                self.start_simulator()
            else:
                self.push_screen(AskSimScreen(), self._asked_sim)

    @work(thread=True, exclusive=True, group="link", name="serial link")
    def run_link(self):
        """The serial session's loop, in a thread worker: it posts Session.* messages."""
        self.session.run()  # pyright: ignore[reportOptionalMemberAccess]  set just before

    def _asked_sim(self, yes):
        if yes:
            self.start_simulator()
        else:
            self.set_status("no simulator started: plug in a Pico or run `osada sim`; the monitor keeps looking")

    def start_simulator(self):
        try:
            pid = self.sim.start()
        except OSError as exc:
            self.set_status("could not start the simulator: %s" % exc, refused=True)
            return
        self.sim_started = True
        self.forced_port = self.sim.link
        self.add_log("Started the simulator (pid %d) at %s, game journal in %s" % (pid, self.sim.link,
                                                                                     self.sim.state), "dim")

    def _resolve(self):
        if self.forced_port:
            return self.forced_port
        dev = ports.find_device()
        if dev is None:
            raise NoDevice("no device found")
        return dev

    def shutdown(self):
        if self._down:
            return
        self._down = True
        if self.session is not None:
            self.session.stop()
        self.sim.stop()

    def on_unmount(self):
        self.shutdown()

    def action_quit(self):
        self.shutdown()
        self.exit()

    # ------------------------------------------------------- from the link

    def _check_sim(self):
        """A simulator we started that died says why (while not connected)."""
        if self.sim_started and self.conn_kind != "connected":
            why = self.sim.died()
            if why and why != self.status_text:
                self.set_status(why, refused=True)

    def on_session_state_changed(self, msg):
        self.seq, self.state, self.stale = msg.seq, msg.state, False

    def on_session_pushed(self, msg):
        self._on_event(msg.msg)

    def on_session_reply(self, msg):
        self._on_reply(msg.cmd, msg.fields, msg.msg)

    def on_session_status(self, msg):
        self._on_status(msg.kind, msg.text, msg.port, msg.hello)

    def watch_state(self):
        self._follow_pending()

    def _on_status(self, kind, text, port, hello):
        was = self.conn_kind
        self.conn_kind = kind
        if kind == "connected":
            self.hello = hello or {}
            self.game = self.hello.get("game", "siege")
            self.conn_text = "connected to %s (firmware %s, protocol %s)" % (
                port, self.hello.get("firmware", "?"), self.hello.get("protocol", "?"))
            self.add_log("— " + self.conn_text + " —", "dim")
            if was == "lost":
                self.set_status("reconnected: the board is live again")
            if self.game == "tank":
                self.session.submit("state")                   # the device's last roll, if any
            else:
                self.session.submit("log", **{"from": 0})      # the setup: players, mode, variants
            return
        self.stale = True
        if kind == "lost":
            self.conn_text = "connection lost — showing the last board (stale), reconnecting…"
            if was != "lost":
                self.add_log("— connection lost (%s) —" % text, "bold #d0a000")
        elif kind == "mismatch":
            self.conn_text = "protocol mismatch at %s: %s" % (port, text)
            self.add_log(self.conn_text, "bold red")
        elif kind == "noanswer":
            self.conn_text = text + " — retrying"
        elif self.sim_started:
            self.conn_text = "starting the simulator at %s…" % self.sim.link
        elif kind == "nodevice":
            self.conn_text = ("no device — plug in a Pico or start the simulator (osada sim); "
                              "looking every %.1f s" % self.retry)
        elif port and port in text:           # a sentence of its own (ports.PortError): busy, stale link…
            self.conn_text = "%s — retrying every %.1f s" % (text, self.retry)
        else:
            self.conn_text = "no device at %s (%s) — retrying every %.1f s" % (port, text, self.retry)

    def _on_event(self, ev):
        name = ev.get("ev")
        self.events.append(ev)
        if len(self.events) > 2000:
            del self.events[:500]
        style = {"reveal": "#7fd7ff", "he111": "bold #ff8040", "destroyed": "#ff7070",
                 "building_destroyed": "bold #ff4040", "wall_destroyed": "#ff9f40", "dot_destroyed": "#ff9f40",
                 "won": "bold #40ff60", "lost": "bold #ff4040", "turn": "bold", "refused": "#ffd24a",
                 "error": "#ffd24a", "overflow": "#ffd24a", "line_timeout": "#ffd24a", "boot": "dim", "undo": "#c0a0ff",
                 "roll": "#c0a0ff", "phase": "dim", "end_turn": "dim", "move": "#a0c0ff"}.get(name)
        self.add_log(texts.describe(ev, self.state), style)
        if name == "setup":
            self.session.submit("log", **{"from": 0})
        if name == "game":
            self._game_is(ev.get("game", "siege"))
        if name == "roll" and "test" in ev:
            self.tank_roll = ev
            if ev.get("source") == "buttons" and self.conn_kind == "connected":
                self.session.submit("state")      # rolled with the device's knob: its numbers here too
        if name == "roll":
            self.set_status("die roll: %s" % ev.get("value") if "test" not in ev else texts.describe(ev))

    def _on_reply(self, cmd, fields, msg):
        if msg.get("ok"):
            if cmd == "log":
                self.setup = msg.get("setup")
            elif cmd == "roll":
                if "test" not in msg:              # Tank battle's roll: its event said it already
                    self.set_status("die roll: %s" % msg.get("value"))
                else:
                    self.session.submit("state")  # what the roll left (T16: the protection) for the next
            elif cmd == "state" and isinstance(msg.get("tank"), dict):
                self.tank_roll = msg["tank"].get("last") or self.tank_roll
                self.tank = self.tank.from_device(msg["tank"])     # the device's numbers (T16's protection left)
            elif cmd == "game" and fields.get("game"):
                self._game_is(fields["game"])
                self.set_status("the device now runs %s" % game_name(self.game))
            elif cmd in ("act", "undo", "new"):
                self.set_status("")
            return
        what = cmd
        if cmd == "act":
            what = action_text(fields.get("action") or {})
        rule = msg.get("rule")
        text = "%s refused%s: %s" % (what, " (%s)" % rule if rule else "", msg.get("error", "?"))
        self.set_status(text, refused=True)
        self.add_log("✗ " + text, "bold #ffd24a")

    def _game_is(self, game):
        """The device runs `game` now; on a switch its state is asked for anew (Tank battle's
        last roll, Siege's board), and Siege's setup if the monitor has not seen it yet
        (Tank battle refuses `log`)."""
        if game != self.game:
            self.tank_roll = None
            if self.session is not None and self.conn_kind == "connected":
                self.session.submit("state")                   # Tank battle's last roll; Siege's board
                if game == "siege" and self.setup is None:     # connected while Tank battle ran
                    self.session.submit("log", **{"from": 0})
        self.game = game

    def watch_game(self):
        self.refresh_bindings()                 # the footer: the game's own keys

    def check_action(self, action, parameters):
        """A game's keys are live only while the device runs it: never send a
        game's action to another game (keymap.action_game)."""
        game = action_game(action)
        return game is None or game == self.game

    # ------------------------------------------------------------- drawing

    @property
    def log_lines(self):
        """The event log as plain text."""
        return [line for line, _style in self.log_entries]

    def add_log(self, line, style=None):
        self.log_entries.append((line, style))
        if len(self.log_entries) > 2000:
            del self.log_entries[:500]
        if self.main is not None and self.main.is_mounted:
            self.main.query_one(EventLog).add(line, style)

    def set_status(self, text, refused=False):
        self.status_refused = refused
        self.status_text = text

    def board_picture(self, width, compact=False):
        """The board at `width` cells (BoardView draws it); in Tank battle the ring of the last roll."""
        if self.game == "tank":
            return render_tank(self.tank_roll, width, compact, self.stale)
        return render_board(self.state, width, self.cursor, self.selected_id(), self.stale, compact)

    def info_text(self, compact=False):
        """The game panel (GamePanel draws it); compact in a short window."""
        if self.game == "tank":
            return panel_text(self.tank, self.stale, compact)
        return info_text(self.state, self.setup, self.stale, self.cand_i, self.cursor, self.selected_enemy(),
                         compact)

    def action_switch_game(self):
        """Siege <-> Tank battle on the device ({"cmd": "game"}); Siege's game in progress is kept."""
        if self.conn_kind != "connected":
            self.set_status("not connected: no game to switch", refused=True)
            return
        self.session.submit("game", game="tank" if self.game == "siege" else "siege")

    def action_help(self):
        self.push_screen(HelpScreen(self.game))

    # ---------------------------------------------------- Tank battle's keys

    def action_tank_test(self, d):
        self.tank = self.tank.next_test(d)

    def action_tank_field(self, d):
        self.tank = self.tank.next_field(d)

    def action_tank_change(self, d):
        new = self.tank.change(d)
        if new is None:
            self.set_status("a counter-attack has no numbers: one die each side", refused=True)
            return
        self.tank = new

    def action_tank_new_turn(self):
        self.tank = self.tank.new_turn()
        self.set_status("a new game turn: protection %d again (T17)" % self.tank.turn_protection)

    def action_tank_defaults(self):
        self.tank = self.tank.reset()

    def action_tank_roll(self):
        if self.conn_kind != "connected":
            self.set_status("not connected: no roll sent", refused=True)
            return
        self.session.submit("roll", **self.tank.request())
