"""The web view's shell: the monitor's own app (osada.monitor.MonitorApp: the
one Session on the link, its reconnect and resync, the game views) with a
WebServer beside it.  Whatever the monitor's mirror changes (the state, the
game, the connection, the log, a view's redraw) is drawn into one snapshot
(render.py) on the app's thread and handed to the server, which sends it to
every page.  A page's key (control.py, checked) runs on the app's thread as
the monitor's key does, through the same link.

`osada web` runs the app headless (no terminal: it only serves pages);
`osada monitor --web` runs it in the terminal as usual, the pages beside it:
one process owns the serial port, so neither loses a line."""

import asyncio
import os
import time

from textual.screen import Screen

from osada.monitor import MonitorApp
from osada.monitor import app as monitor_app
from osada.monitor.screens import AskSimScreen, DamagedSaveScreen

from . import control, render

EVENTS_WAIT_S = 0.03
ANSWER_WAIT_S = 0.25      # a page's key sent to the board: the pages' snapshot waits this long at most for its answer


class WebMonitorApp(MonitorApp):
    """MonitorApp that also serves its mirror to browsers."""

    CSS_PATH = os.path.join(os.path.dirname(os.path.abspath(monitor_app.__file__)), "monitor.tcss")

    def __init__(self, server, headless=False, **kw):
        super().__init__(**kw)
        self.server = server
        self.headless = headless
        # Siege's forecast (a view's aside) for the pages: --no-forecast (osada web, osada monitor) says not;
        # in the terminal the monitor's key f toggles it
        self.web_rev = 0
        self._web_loop = None
        self._web_pending = False
        self._web_later = None
        self._web_held = False            # a page's key is being run, or its request is at the device: changes wait
        self._web_missed = False          # something changed meanwhile: one snapshot when the hold ends
        self._web_release = None          # the timer that ends the hold if the device does not answer
        self.web_note = ""                # in the terminal: where the pages are, and the PIN
        server.on_key = self.key_from_thread

    def get_default_screen(self):
        """Headless, the monitor's widgets are not drawn at all (nobody sees them): an empty screen."""
        if self.headless:
            return Screen()
        return super().get_default_screen()

    def on_mount(self):
        # no super().on_mount(): Textual calls the on_mount of every class of the MRO, so
        # MonitorApp's runs as well (calling it here too started two simulators, issue 59)
        self._web_loop = asyncio.get_running_loop()
        for name in ("state", "stale", "game", "revision", "conn_kind", "conn_text", "status_text"):
            self.watch(self, name, self.web_dirty, init=False)
        if self.headless and self.handle_signals:
            import signal
            try:
                self._web_loop.add_signal_handler(signal.SIGINT, self.action_quit)
            except (NotImplementedError, RuntimeError, ValueError):
                pass
        if self.web_note:
            self.add_log(self.web_note, "bold", session=True)
            self.set_status(self.web_note)
        self.web_dirty()

    # ------------------------------------------------------- to the pages

    def web_dirty(self, *_args):
        """Something a page shows changed: one snapshot after this message is handled -- or,
        while a page's key is held (web_key), with the device's answer (every page redraws once
        for the key, not once for the key's own changes and again for the device's state)."""
        if self._web_held:
            self._web_missed = True
            return
        if self._web_pending or self._web_loop is None:
            return
        self._web_pending = True
        self._web_loop.call_soon(self.web_publish)

    def web_dirty_later(self):
        """A line for the log: the device sends a change's events just before its state,
        so the snapshot waits EVENTS_WAIT_S for it (one snapshot a change, not one an event)."""
        if self._web_pending or self._web_later is not None or self._web_loop is None:
            return
        self._web_later = self._web_loop.call_later(EVENTS_WAIT_S, self.web_dirty)

    def changed_from_thread(self):
        """A view's worker (Siege's forecast) has something new: on the app's thread, a
        new snapshot; in the terminal the monitor redraws too."""
        if self._web_loop is not None:
            self._web_loop.call_soon_threadsafe(self.web_dirty if self.headless else self.changed)

    def web_publish(self):
        self._web_pending = False
        if self._web_later is not None:
            self._web_later.cancel()
            self._web_later = None
        self.web_rev += 1
        at = time.time() * 1000.0                 # when it left the shell (ms): the bench splits host from page
        snaps = render.snapshots(self, self.web_rev, self.server.control)
        for snap in snaps.values():
            snap["at"] = at
        self.server.publish(snaps)

    def add_log(self, line, style=None, session=False):
        super().add_log(line, style, session)
        self.web_dirty_later()

    def push_screen(self, screen, *args, **kw):
        """Headless, the monitor's dialogs have no one to answer them: say so instead."""
        if not self.headless:
            return super().push_screen(screen, *args, **kw)
        if isinstance(screen, DamagedSaveScreen):
            return None                      # the pages' banner shows it, with its Acknowledge
        if isinstance(screen, AskSimScreen):
            self.set_status("no board found: plug one in, or start `osada web --start-sim`; looking every %.1f s"
                            % self.retry)
        else:
            self.set_status("that opens one of the monitor's dialogs: do it in `osada monitor`", refused=True)
        return None

    # ------------------------------------------------------- from the pages

    def key_from_thread(self, req):
        """A checked key from a page (the server's thread): run it on the app's thread."""
        if self._web_loop is not None:
            self._web_loop.call_soon_threadsafe(self.web_key, req)

    def web_key(self, req):
        if req[0] == "switch":
            self.action_switch_game()
            return
        if req[0] == "ack":                   # the damaged save's banner, acknowledged from a page
            if self.damaged is None:
                self.set_status("nothing to acknowledge: the saved game reads back in full")
            else:
                self.send("journal", ack=True)
            return
        if req[0] == "new":
            self.web_new(req[1], req[2])
            return
        if req[0] in ("act", "marshal"):      # a tap on the picture (control.TOUCH), the marshal's play
            if self.game != "siege":
                self.set_status("a tap on Siege's board, but the device runs %s: not sent" % self.game,
                                refused=True)
                return
            self._web_held = True
            if self.send("act", action=req[2]):
                self._hold_answer()
            else:
                self.web_answered()
            return
        _kind, game, action, args = req
        if game != self.game:
            self.set_status("a key of %s, but the device runs %s: not sent" % (game, self.game), refused=True)
            return
        self._web_held = True             # held until the device answers (ANSWER_WAIT_S at most)
        sent = False
        try:
            request = self.view.on_key(action, *args)
            if request is not None:
                cmd, fields = request
                if cmd in control.ALLOWED_CMDS:
                    sent = self.send(cmd, **fields)
                else:
                    self.set_status("%s is not sent from a page" % cmd, refused=True)
        finally:
            if sent:
                self._hold_answer()
            else:
                self.web_answered()          # nothing went to the device: what changed goes now

    def web_new(self, fields, replace):
        """A new game of Siege from a page: over a game in progress only when the page asked
        whether to replace it (its dialog says which game), as the monitor's does."""
        if self.game != "siege":
            self.set_status("a new game of Siege, but the device runs %s: not sent" % self.game, refused=True)
            return
        st = self.state or {}
        if self.seq and st.get("outcome", "playing") == "playing" and not replace:
            self.set_status("a game is in progress (turn %s, %d actions): the page asks before it replaces it"
                            % (st.get("turn", "?"), self.seq), refused=True)
            return
        self._web_held = True
        if self.send("new", **fields):
            self._hold_answer()
        else:
            self.web_answered()

    def _hold_answer(self):
        """A request went to the device: the pages get the change with its answer (ANSWER_WAIT_S at most)."""
        if self._web_loop is None:
            self.web_answered()
            return
        if self._web_release is not None:
            self._web_release.cancel()
        self._web_release = self._web_loop.call_later(ANSWER_WAIT_S, self.web_answered)

    def on_session_reply(self, msg):
        """Textual calls MonitorApp's own handler of the reply too (every class's in the MRO):
        the snapshot goes after both."""
        if self._web_loop is not None:
            self._web_loop.call_soon(self.web_answered)

    def web_answered(self):
        """The hold of a page's key ends: the device answered it (its state came before the
        reply), or did not in ANSWER_WAIT_S, or nothing was sent.  What changed meanwhile goes
        to the pages now."""
        if self._web_release is not None:
            self._web_release.cancel()
            self._web_release = None
        if not self._web_held:
            return
        self._web_held = False
        if self._web_missed:
            self._web_missed = False
            self.web_dirty()

    def shutdown(self):
        super().shutdown()
        self.server.stop()
