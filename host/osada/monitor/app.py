"""The monitor's textual app: the mirror of the device (reactive attributes
the widgets watch), the serial session in a thread worker, and the actions
the keys (keymap.KEYMAP, bound on the MainScreen) run."""

from textual import work
from textual.app import App
from textual.reactive import var

from osada import client, texts
from osada.game_names import game_name
from osada.simproc import SIM_LINK, SIM_STATE, SimProcess
from shared_rules.catalog import LINES

from .board import board_cells, candidates, render_board, strongest
from .keymap import action_game, keys_for
from .panel import info_text
from .screens import AskSimScreen, HelpScreen, MarshalScreen, NewGameScreen
from .session import RETRY_S, NoDevice, Session
from .tank_board import render_tank
from .tank_panel import TankSetup, panel_text
from .widgets import EventLog, MainScreen


class MonitorApp(App):
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

    def __init__(self, port="auto", start_sim=False, sim_link=SIM_LINK, sim_state=SIM_STATE, retry=RETRY_S,
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
        if self.auto and client.find_device() is None:
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
        dev = client.find_device()
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
        elif port and port in text:           # a sentence of its own (client.PortError): busy, stale link…
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
            what = _action_text(fields.get("action") or {})
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

    # ------------------------------------------------------------ selection

    def cell_enemies(self, sector=None, line=None):
        if self.state is None:
            return []
        s = self.cursor[0] if sector is None else sector
        ln = LINES[self.cursor[1]] if line is None else line
        return board_cells(self.state).get((s, ln), [])

    def selected_enemy(self):
        es = self.cell_enemies()
        for e in es:
            if e["id"] == self.sel_id:
                return e
        return strongest(es)

    def selected_id(self):
        if candidates(self.state):
            return None
        e = self.selected_enemy()
        return e["id"] if e else None

    def _follow_pending(self):
        """A new pending choice: select its first candidate, put the cursor on it."""
        cands = candidates(self.state)
        if cands != self.last_cands:
            self.last_cands = cands
            self.cand_i = 0
            if cands:
                self._cursor_to(cands[0])
        elif cands and self.cand_i >= len(cands):
            self.cand_i = 0

    def _cursor_to(self, eid):
        for e in (self.state or {}).get("enemies", ()):
            if e["id"] == eid:
                self.cursor = (e["sector"], LINES.index(e["line"]))
                self.sel_id = eid

    def action_cursor(self, dl, ds):
        s, li = self.cursor
        s = (s - 1 + ds) % 6 + 1
        li = min(4, max(0, li + dl))
        self.sel_id = None
        self.cursor = (s, li)

    # -------------------------------------------------------------- actions

    def send_action(self, action):
        if self.session is None:
            return
        if self.conn_kind != "connected":
            self.set_status("not connected: %s not sent" % _action_text(action), refused=True)
            return
        self.session.submit("act", action=action)

    def _target(self, what):
        e = self.selected_enemy()
        if e is None:
            s, li = self.cursor
            self.set_status("%s: no enemy in sector %d %s" % (what, s, LINES[li]), refused=True)
        return e

    def action_next_enemy(self):
        cands = candidates(self.state)
        if cands:
            self.cand_i = (self.cand_i + 1) % len(cands)
            self._cursor_to(cands[self.cand_i])
        else:
            es = self.cell_enemies()
            if es:
                cur = self.selected_enemy()
                ids = [e["id"] for e in es]
                self.sel_id = ids[(ids.index(cur["id"]) + 1) % len(ids)]

    def action_digit(self, n):
        """Choose candidate n while a choice is pending, else jump to sector n."""
        if candidates(self.state):
            self.action_choose(n - 1)
        elif n <= 6:
            self.sel_id = None
            self.cursor = (n, self.cursor[1])

    def _on_target(self, do):
        """Send `do` for the selected enemy (default: the strongest in the cell)."""
        e = self._target(do.replace("_", " "))
        if e:
            self.send_action({"do": do, "enemy": e["id"]})

    def action_hit(self):
        self._on_target("hit")

    def action_kill(self):
        self._on_target("kill")

    def action_hedgehog(self):
        self._on_target("hedgehog")

    def action_push_back(self):
        self._on_target("push_back")

    def action_dot(self):
        self.send_action({"do": "dot", "sector": self.cursor[0]})

    def action_rebuild(self):
        self.send_action({"do": "rebuild", "sector": self.cursor[0]})

    def action_patrol(self):
        self.send_action({"do": "patrol"})

    def action_move(self):
        self.send_action({"do": "move"})

    def action_reveal(self):
        self.send_action({"do": "reveal"})

    def action_end_turn(self):
        """End the turn.  In marshal mode (R60, R17) the engine's end_turn from
        phase 4 moves the enemies and stops in phase 7 for the marshal, who has
        drawn and must play (marshal_play, possibly nothing); after a patrol it
        only moves them and the next turn starts.  In phase 7 itself, or with
        his extra play pending, e opens his play: the turn ends with it."""
        st = self.state or {}
        pend = st.get("pending") or {}
        if "marshal_hand" in st and st.get("outcome") == "playing":
            if pend.get("choice") == "marshal_extra" or (st.get("phase") == 7 and not pend and not st.get("patrol")):
                self.action_marshal()
                return
        self.send_action({"do": "end_turn"})     # the game panel then shows his turn (phase 7), if any

    def action_choose(self, index=None):
        st = self.state or {}
        pend = st.get("pending") or {}
        if pend.get("choice") == "marshal_extra":
            self.action_marshal()
            return
        cands = candidates(st)
        if not cands:
            self.set_status("nothing to choose: no pending choice", refused=True)
            return
        i = self.cand_i if index is None else index
        if not 0 <= i < len(cands):
            self.set_status("there are %d candidates" % len(cands), refused=True)
            return
        self.send_action({"do": "choose", "enemy": cands[i]})

    def action_marshal(self):
        st = self.state or {}
        if "marshal_hand" not in st:
            self.set_status("marshal_play is for mode marshal (n: new game)", refused=True)
            return
        pend = st.get("pending") or {}
        extra = pend.get("count", 0) if pend.get("choice") == "marshal_extra" else 0
        if not extra and st.get("phase") != 7:
            self.set_status("the field marshal plays in phase 7, after the defenders' turn: "
                            "%s (or %s) moves the enemies and hands over to him"
                            % (keys_for("end_turn"), keys_for("move")), refused=True)
            return

        def done(action):
            if action is not None:
                self.send_action(action)
        self.push_screen(MarshalScreen(st["marshal_hand"], extra, bool(st.get("patrol")) and not extra), done)

    def action_undo(self):
        if self.conn_kind == "connected":
            self.session.submit("undo")

    def action_roll(self):
        if self.conn_kind == "connected":
            self.session.submit("roll")

    def action_new_game(self):
        st = self.state or {}
        setup = self.setup or {}
        players = setup.get("players") or len(st.get("trophies") or {}) or 2

        def done(fields):
            if fields is None:
                return
            if self.conn_kind != "connected":
                self.set_status("not connected: new game not sent", refused=True)
                return
            self.session.submit("new", **fields)
        in_progress = None
        if self.seq and st.get("outcome", "playing") == "playing":   # a game under way: Start asks first
            in_progress = "turn %s, %d action%s" % (st.get("turn", "?"), self.seq, "" if self.seq == 1 else "s")
        self.push_screen(NewGameScreen(players, setup.get("mode", "standard"), setup.get("variants") or (),
                                       in_progress), done)

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


def _action_text(action):
    what = action.get("do", "?").replace("_", " ")
    for k in ("enemy", "sector"):
        if k in action:
            what += " %s %s" % (k, action[k])
    return what

