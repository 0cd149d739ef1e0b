"""The monitor's textual app, a shell over the games' views: the mirror of the
device (reactive attributes the widgets watch), the serial session in a thread
worker, the event log, the status line, the game switch and the reconnection.
What is one game's (its board or ring, its panel, its keys, its dialogs) is its
view's (osada.gameview; osada/<game>/view.py), picked from the game the device
says it runs."""

import os
import sys
import time

from textual import work
from textual.app import App
from textual.binding import Binding
from textual.reactive import var

from osada.files.paths import SIM_STATE
from osada.gameview import view_class
from osada.link import ports
from osada.link.simproc import SimProcess
from osada.words import texts
from osada.words.game_names import game_name
from osada_fw.games import GAMES, HOME

from .keymap import key_game
from .logfile import LogFile
from .screens import AskSimScreen, DamagedSaveScreen, HelpScreen
from .session import RETRY_S, NoDevice, Session
from .widgets import EventLog, MainScreen


def _terminal():
    """The terminal the monitor draws on (textual's driver writes to stderr): its file
    descriptor, or None."""
    try:
        fd = sys.__stderr__.fileno()
    except (AttributeError, ValueError, OSError):
        return None
    return fd if os.isatty(fd) else None


SIM_RESTARTS = 3              # a simulator that died is started again up to this many times
SIM_RESTART_WINDOW_S = 30.0   # … in this long
LOG_SHOWN = 500              # the entries of earlier sessions the log shows at the start
SIM_ERROR_LINES = 12          # its last words (stderr) the log shows when it is not

# the log's colours for what every game's events share; a game's own are its view's EVENT_STYLES
EVENT_STYLES = {"refused": "#ffd24a", "error": "#ffd24a", "overflow": "#ffd24a", "line_timeout": "#ffd24a",
                "boot": "dim", "game": "bold", "roll": "#c0a0ff"}


class MonitorApp(App):
    TITLE = "Osada monitor"
    CSS_PATH = "monitor.tcss"
    # Ctrl-C quits as q does, from anywhere, dialogs included (the game is kept either way)
    BINDINGS = [Binding("ctrl+c", "quit", "quit", show=False, priority=True)]
    # the window's size as classes of the screen, for monitor.tcss: below 80×24
    # (-tiny-w / -tiny-h) only a note, below 120 columns (-narrow) the board
    # across the window, below 30 rows (-short) a compact board
    HORIZONTAL_BREAKPOINTS = [(0, "-tiny-w"), (80, "-narrow"), (120, "-wide")]
    VERTICAL_BREAKPOINTS = [(0, "-tiny-h"), (24, "-short"), (30, "-tall")]
    ENABLE_COMMAND_PALETTE = False      # every key the footer shows is in the help (KEYMAP)

    # the mirror, as the UI sees it: the widgets watch these and redraw themselves
    state = var(None)             # the device's Siege state (dict; kept while another game runs), None before
    seq = var(None)
    stale = var(True)             # the connection is lost: what is shown is the last seen
    game = var(HOME)              # the game the device runs (hello, `game` events): a games.GAMES id
    revision = var(0)             # the running game's view changed: the widgets redraw
    conn_kind = var("starting")   # Session.Status kinds, or "starting"
    conn_text = var("starting…")
    status_text = var("")         # what the last key did, or why it was refused
    status_refused = var(False)

    def __init__(self, port="auto", start_sim=False, sim_link=ports.SIM_LINK, sim_state=SIM_STATE, retry=RETRY_S,
                 handle_signals=False, session=Session, forecast=False, log_file=None):
        super().__init__()
        self.forecast = forecast          # Siege's threat forecast panel shown (its key toggles it)
        self.log_file = LogFile(log_file) if log_file else None   # the log kept between sessions (logfile.py)
        self.session_factory = session    # Session, or a stand-in with its interface (tests)
        self.handle_signals = handle_signals
        self.port_arg = port or "auto"
        self.auto = self.port_arg == "auto"
        self.forced_port = None if self.auto else self.port_arg
        self.start_sim = start_sim
        self.sim = SimProcess(sim_link, sim_state)
        self.sim_started = False
        self.sim_deaths = []          # when the simulator we started died (monotonic s), lately
        self.retry = retry
        self.session = None
        self.main = None
        self.hello = None
        self.damaged = None           # the device's damaged save: (what was lost, where kept), until acknowledged
        self.pressing = 0             # `press` requests (a key for a board's button) not answered yet
        self.local_note = ""          # for this terminal alone (the web view's PINs): never in the log or a page
        self.log_entries = []         # the event log: (line, style), newest last (at most 2000)
        if self.log_file is not None:
            if not self.log_file.claim():
                self.log_entries = [("— another monitor keeps the event log's file (%s): this one's log is not "
                                     "kept —" % os.path.basename(self.log_file.path), "dim")]
            kept = self.log_file.load()[-LOG_SHOWN:]
            if kept:
                self.log_entries = kept + [("— the log of earlier sessions is above —", "dim")]
        self.events = []              # the events as pushed, newest last (at most 2000)
        self.views = {}               # game -> its view, made when the device first runs it
        self._down = False
        self._tty = None              # the terminal drawn on (handle_signals: a hang-up without SIGHUP quits too)

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
            self._tty = _terminal()
            if self._tty is not None:
                self.set_interval(RETRY_S, self._check_terminal)
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
                                                                                     self.sim.state), "dim",
                     session=True)

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
        for view in self.views.values():
            view.on_quit()
        self.sim.stop()
        if self.log_file is not None:
            self.log_file.release()

    def on_unmount(self):
        self.shutdown()

    def action_quit(self):
        self.shutdown()
        self.exit()

    def _check_terminal(self):
        """The terminal hung up (its window closed, the ssh link dropped) and no SIGHUP came:
        under `make run`, make takes it and waits for the monitor.  Quit as on SIGHUP, or the
        monitor runs on unseen, holding the board's port and its simulator."""
        if not os.isatty(self._tty):
            self.action_quit()

    # ------------------------------------------------------- from the link

    def _check_sim(self):
        """A simulator we started that died: started again, its game coming back from its
        journal; one refused its config or its link, or dying as soon as it starts
        (SIM_RESTARTS times in SIM_RESTART_WINDOW_S), is not: the whole reason goes to
        the log, and the connection line says in one line what to do."""
        if not self.sim_started:
            if (self.start_sim and self.auto and self.conn_kind == "nodevice" and self.session is not None
                    and ports.find_device() is None):
                # the simulator this monitor followed (another's) has quit: one of its own now
                self.add_log("— no simulator runs any more: starting one; the game comes back from its journal —",
                             "dim")
                self.start_simulator()
            return
        why = self.sim.died()
        if why is None:
            return
        if self.sim.busy():
            # another simulator holds this journal (a second `make run`, an `osada sim` in a
            # terminal): it is the one to show, not a failure; ours is not needed
            self.sim_started = False
            self.forced_port = None if self.auto else self.forced_port
            self.add_log("— another simulator already runs this game's journal: showing that one —", "dim",
                         session=True)
            return
        now = time.monotonic()
        self.sim_deaths = [t for t in self.sim_deaths if now - t < SIM_RESTART_WINDOW_S] + [now]
        if self.sim.mendable() and len(self.sim_deaths) <= SIM_RESTARTS:
            self.add_log("— %s; starting it again: the game comes back from its journal —" % why, "bold #d0a000")
            self.sim.stop()
            self.start_simulator()
            return
        self.sim_started = False                      # nothing to wait for: the session stops looking
        if self.session is not None:
            self.session.halt()
        lines = self.sim.errors()
        self.add_log("— %s —" % why.split(": ", 1)[0], "bold red")
        for line in lines[-SIM_ERROR_LINES:]:
            self.add_log(line, "#ffd24a")
        if self.sim.mendable():
            todo = "it keeps exiting: run `osada sim` in a terminal to see why"
        else:
            todo = "see the log; mend it, then start the monitor again"
        self.stale = True
        self.conn_kind = "simfailed"
        self.conn_text = "the simulator stopped — %s" % todo
        self.set_status("%s: the reason is in the event log" % why.split(": ", 1)[0], refused=True)

    def on_session_state_changed(self, msg):
        self.seq, self.state, self.stale = msg.seq, msg.state, False
        self.view_for(HOME).on_state(msg.state, msg.seq)      # the device's state is Siege's game
        self.changed()

    def on_session_pushed(self, msg):
        self._on_event(msg.msg)

    def on_session_reply(self, msg):
        self._on_reply(msg.cmd, msg.fields, msg.msg)

    def on_session_status(self, msg):
        if self.conn_kind == "simfailed":       # said once, in full (_check_sim); the session is halting
            return
        self._on_status(msg.kind, msg.text, msg.port, msg.hello)

    # ------------------------------------------------------------ the views

    def view_for(self, game):
        """The view of `game` (osada/<game>/view.py), made once and kept (a cursor survives a switch)."""
        view = self.views.get(game)
        if view is None:
            view = self.views[game] = view_class(game)(self)
        return view

    @property
    def view(self):
        """The view of the game the device runs."""
        return self.view_for(self.game)

    def changed(self):
        """A view changed what it shows: the board and the panel redraw."""
        self.revision += 1

    def changed_from_thread(self):
        """changed(), asked from another thread (a view's worker)."""
        if not self._down:
            try:
                self.call_from_thread(self.changed)
            except RuntimeError:              # the app is not running (any more)
                pass

    def send(self, cmd, **fields):
        """Send a request for a view, or say why not (not connected)."""
        if self.session is None:
            return False
        if self.conn_kind != "connected":
            self.set_status("not connected: %s not sent" % self.view.request_words(cmd, fields), refused=True)
            return False
        self.session.submit(cmd, **fields)
        if cmd == "press":
            self.pressing += 1        # what it sets off comes back as the buttons' (the device cannot tell)
        return True

    def _connect_view(self):
        """Ask the device what the running game's view needs (its state; Siege's setup)."""
        for cmd, fields in self.view.on_connect():
            self.session.submit(cmd, **fields)

    # ------------------------------------------------------- from the link

    def _on_status(self, kind, text, port, hello):
        was = self.conn_kind
        self.conn_kind = kind
        if kind == "connected":
            self.pressing = 0                 # a new link: nothing of the old one is answered on it
            self.hello = hello or {}
            game = self.hello.get("game", HOME)
            self.game = game if game in GAMES else HOME
            self.conn_text = "connected to %s (firmware %s, protocol %s)" % (
                port, self.hello.get("firmware", "?"), self.hello.get("protocol", "?"))
            self.add_log("— " + self.conn_text + " —", "dim", session=True)
            if self.hello.get("journal") == "damaged":
                self.send("journal")          # what was lost and where its bytes are: the reply says
            elif self.damaged is not None:
                self.damaged = None
            if was == "lost":
                self.set_status("reconnected: the board is live again")
            if self.game != HOME:
                self.stale = False            # live; Siege's state (the connect's full state) clears it there
            self._connect_view()
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
        if self.pressing and ev.get("source") == "buttons":
            ev = dict(ev, source="keys")          # a key here pressed the button, before its reply
        self.events.append(ev)
        if len(self.events) > 2000:
            del self.events[:500]
        style = self.view.EVENT_STYLES.get(name) or EVENT_STYLES.get(name)
        self.add_log(texts.describe(ev, self.state), style)
        if name == "boot" and ev.get("lost"):
            self.send("journal")                  # damage, or a cut's torn record: the reply says which
        if name == "game":
            self._game_is(ev.get("game", HOME))
            return
        self.view.on_event(ev)

    def _damaged(self, lost, kept):
        """The device says its saved game was damaged: shown (a dialog here, a
        banner on the pages) until the table acknowledges it."""
        if self.damaged is not None and self.damaged[0] == lost:
            return
        self.damaged = (lost, kept)
        self.set_status("the saved game was damaged: %s" % lost, refused=True)
        self.changed()
        self.push_screen(DamagedSaveScreen(lost, kept), self._ack_damaged)

    def _ack_damaged(self, ack):
        if ack:
            self.send("journal", ack=True)

    def _on_reply(self, cmd, fields, msg):
        if cmd == "press" and self.pressing:
            self.pressing -= 1
        if cmd == "journal" and msg.get("ok"):
            if msg.get("damaged") and not fields.get("read"):
                self._damaged(msg.get("lost") or "the saved game could not be read back", msg.get("kept"))
            if fields.get("ack") and not msg.get("damaged"):
                self.damaged = None
                self.set_status("acknowledged: the damaged save is no longer shown")
                self.add_log("— the damaged save was acknowledged —", "dim")
                self.changed()
            return
        if msg.get("ok") and cmd == "game" and fields.get("game"):
            self._game_is(fields["game"])
            self.set_status("the device now runs %s" % game_name(self.game))
            return
        self.view.on_reply(cmd, fields, msg)
        if msg.get("ok"):
            return
        what = self.view.request_words(cmd, fields)
        rule = msg.get("rule")
        text = "%s refused%s: %s" % (what, " (%s)" % rule if rule else "", texts.named_enemies(msg.get("error", "?"),
                                                                                               self.state))
        self.set_status(text, refused=True)
        self.add_log("✗ " + text, "bold #ffd24a")

    def _game_is(self, game):
        """The device runs `game` now (an id of games.GAMES; an unknown one is said, not shown);
        on a switch its view asks for what it shows."""
        if game not in GAMES:
            self.add_log("the device runs a game this monitor does not know: %r" % (game,), "bold #ffd24a")
            return
        switched = game != self.game
        self.game = game
        if switched and self.session is not None and self.conn_kind == "connected":
            self._connect_view()

    def watch_game(self):
        self.refresh_bindings()                 # the footer: the game's own keys
        self.changed()

    def check_action(self, action, parameters):
        """A game's keys are live only while the device runs it: never send a
        game's action to another game (keymap.key_game)."""
        game = key_game(action, parameters)
        return game is None or game == self.game

    def action_key(self, game, action, arg1=None, arg2=None):
        """A key of `game`'s view, with up to two arguments (textual passes an action as many
        parameters as its method names): the view does what it does and may return a request to send."""
        if game != self.game:
            return
        request = self.view.on_key(action, *[a for a in (arg1, arg2) if a is not None])
        if request is not None:
            cmd, fields = request
            self.send(cmd, **fields)

    # ------------------------------------------------------------- drawing

    @property
    def log_lines(self):
        """The event log as plain text."""
        return [line for line, _style in self.log_entries]

    def add_log(self, line, style=None, session=False):
        """A line of the event log; session: the session's own (connected, the simulator
        started), shown and not kept for the next session."""
        self.log_entries.append((line, style))
        if self.log_file is not None and not session:
            self.log_file.append(line, style)
        if len(self.log_entries) > 2000:
            del self.log_entries[:500]
        if self.main is not None and self.main.is_mounted:
            self.main.query_one(EventLog).add(line, style)

    def set_status(self, text, refused=False):
        self.status_refused = refused
        self.status_text = text

    def board_picture(self, width, compact=False):
        """The running game's board or ring at `width` cells (BoardView draws it)."""
        return self.view.render(width, compact, self.stale)

    def info_text(self, compact=False):
        """The running game's panel (GamePanel draws it); compact in a short window."""
        t = self.view.panel(compact, self.stale)
        line = None if self.main is not None and self.main.has_class("-wide") else self.view.aside_line()
        if line is not None:                  # no room for the aside: its one line under the panel
            t = t.copy()
            t.rstrip()
            t.append("\n")
            t.append_text(line)
        return t

    def action_switch_game(self):
        """The device's next game (games.GAMES' menu order); Siege's game in progress is kept."""
        if self.conn_kind != "connected":
            self.set_status("not connected: no game to switch", refused=True)
            return
        nxt = GAMES[(GAMES.index(self.game) + 1) % len(GAMES)] if self.game in GAMES else GAMES[0]
        self.session.submit("game", game=nxt)

    def action_log_scroll(self, pages):
        """PgUp / PgDn: the event log a page back (-1) or on (1)."""
        if self.main is None or not self.main.is_mounted:
            return
        log = self.main.query_one(EventLog)
        if pages < 0:
            log.scroll_page_up(animate=False)
        else:
            log.scroll_page_down(animate=False)

    def action_help(self):
        self.push_screen(HelpScreen(self.view))
