"""The threat forecast of a live game (F14), for the monitor's panel and the web
view: fed every state the device sends, it keeps one worker process
(forecast_worker.py) on the phase-4 state the table is at, kills it the
moment that state changes, and hands out only answers stamped with the state
they are for.

Only what the table can see goes to the worker (F2): the state's public
fields, the pool's counts worked out as the table does (public.pool_kinds_seen,
FA1) and the setup's mode, variants, players and houses -- never the seed.

    lf = LiveForecast(notify)        notify(): called (from a reader thread) on a new answer
    lf.update(state, setup, actions) every state; actions: the game's action count (the stamp)
    lf.current(state, setup)         the freshest LiveResult for exactly that state, or None
    lf.why                           why there is none: "" while it is being worked out
    lf.stop()
"""

import json
import os
import subprocess
import sys
import threading

from shared_rules.siege.forecast import result as fresult
from shared_rules.siege.public import pool_kinds_seen

from .forecast_words import cell

# the state's fields a forecast may read (F2) and the setup's
PUBLIC_KEYS = ("outcome", "turn", "player", "phase", "patrol", "walls", "dots", "buildings", "enemies", "pool",
               "discard", "trophies", "pending", "out")
SETUP_KEYS = ("mode", "variants", "players", "houses")
MODES = ("standard", "shoulder", "solo")      # F14: a field marshal's game has none (FA5)
NAMES = {"B": "building", "W": "wall", "D": "ДОТ"}
SECONDS = 60.0                  # the most a worker works on one state (the game's start: bounds only)
START_DELAY_S = 0.25            # a worker starts this long after its state came, if the state still stands:
                                # the change is drawn first (the monitor, every page) with the CPU to itself,
                                # and a burst of changes (keys held, an undo run) starts no worker at all


def _public(state, setup):
    """(key, job) for a state the forecast is for, else (None, why)."""
    if not isinstance(state, dict):
        return None, "no game yet"
    if setup is None:
        return None, "waiting for the game's setup"
    mode = setup.get("mode", "standard")
    if mode not in MODES or "marshal_hand" in state:
        return None, "none in a field marshal's game: his hand is secret (FA5)"
    if state.get("outcome", "playing") != "playing":
        return None, "the game is over"
    if state.get("pending"):
        return None, "after the pending choice"
    if state.get("phase") != 4:
        return None, "in phase 4, before the turn ends (now phase %s)" % state.get("phase")
    pub = {k: state[k] for k in PUBLIC_KEYS if k in state}
    kinds = pool_kinds_seen(state, setup)
    if kinds is None:
        return None, "the pool cannot be told from the board (a scenario's own tokens)"
    pub["pool_kinds"] = kinds
    su = {k: setup[k] for k in SETUP_KEYS if k in setup}
    key = json.dumps([pub, su], sort_keys=True, ensure_ascii=False)
    return key, {"state": pub, "setup": su}


class LiveResult:
    """One answer: the forecast (result.Forecast), the stamp (turn, actions),
    whether better is still to come (`final`)."""

    def __init__(self, forecast, turn, actions, k, final=False, states=None):
        self.forecast = forecast
        self.turn, self.actions = turn, actions
        self.k = k
        self.final = final
        self.states = states

    def stamp_text(self):
        if self.actions is None:
            return "turn %s" % self.turn
        return "turn %s, %s action%s" % (self.turn, self.actions, "" if self.actions == 1 else "s")

    def how(self):
        """Exact or bounds, the states and the seconds it took (F14's footer)."""
        fc = self.forecast
        took = "%s states, %.2f s" % ("{:,}".format(self.states) if self.states is not None else "?", fc.seconds)
        if fc.exact:
            return "exact · " + took
        more = "the exact values were not reached" if self.final else "the exact values are being worked out"
        return "bounds (chains cut at extender %d) · %s · %s" % (self.k + 1, took, more)

    def to_json(self):
        """`osada forecast --json`'s object, with the stamp and how far it got."""
        out = self.forecast.to_json()
        out["stamp"] = {"turn": self.turn, "actions": self.actions}
        out["final"] = self.final or self.forecast.exact
        return out

    def rows(self):
        """(label, value) rows: each building, wall and dot standing (the forecast's targets,
        F4), sector by sector, then L and E."""
        fc = self.forecast
        out = []
        order = {"B": 0, "W": 1, "D": 2}
        for letter, s in sorted((t for t in fc.targets if isinstance(t, tuple)), key=lambda t: (t[1], order[t[0]])):
            out.append(("%d %s" % (s, NAMES[letter]), cell(fc, (letter, s))))
        out.append(("lost", cell(fc, "L")))
        out.append(("buildings lost", cell(fc, "E", True)))
        return out

    def lines(self):
        """The panel's text rows: head (two lines, narrow enough for a phone), the rows, how exact it is."""
        out = ["Forecast for %s" % self.stamp_text(), " if the turn ended now:"]
        rows = self.rows()
        w = max(len(r[0]) for r in rows)
        out += [" %s  %s" % (label.ljust(w), value) for label, value in rows]
        out.append(" " + self.how())
        return out

    def summary(self):
        """One line: L and E (a short window)."""
        fc = self.forecast
        return "Forecast %s: lost %s · buildings lost %s%s" % (
            self.stamp_text(), cell(fc, "L"), cell(fc, "E", True), "" if fc.exact else " (bounds)")


class LiveForecast:
    """The worker on the current phase-4 state, restarted when it changes."""

    def __init__(self, notify=None, seconds=SECONDS, memory=None, python=None, delay=START_DELAY_S):
        self.notify = notify
        self.seconds = seconds
        self.delay = delay
        self.timer = None               # the worker's start, while it waits out `delay`
        self.memory = memory
        self.python = python or sys.executable
        self.lock = threading.Lock()
        self.key = None
        self.stamp = (None, None)
        self.result = None
        self.why = "no game yet"
        self.proc = None
        self.generation = 0
        self.fed = (None, None)         # the state and setup objects update() last keyed (current() skips the work)

    # ------------------------------------------------------------- the state

    def update(self, state, setup=None, actions=None):
        key, job = _public(state, setup)
        self.fed = (state, setup)
        with self.lock:
            if key is not None and key == self.key:
                return
            self._kill()
            self.key, self.result = key, None
            if key is None:
                self.why = job
                return
            self.why = ""
            self.stamp = (state.get("turn"), actions)
            self.generation += 1
            if self.delay > 0:
                self.timer = threading.Timer(self.delay, self._start_later, args=(job, self.generation))
                self.timer.daemon = True
                self.timer.start()
            else:
                self._start(job, self.generation)

    def current(self, state, setup=None):
        """The latest answer if it is for exactly this state, else None."""
        fed_state, fed_setup = self.fed
        if state is fed_state and setup is fed_setup:
            key = self.key                       # the very objects update() keyed: the same state
        else:
            key, _ = _public(state, setup)
        with self.lock:
            if key is None or key != self.key:
                return None
            return self.result

    def stop(self):
        with self.lock:
            self._kill()
            self.key = None

    # ------------------------------------------------------------ the worker

    def _start_later(self, job, gen):
        with self.lock:
            if gen == self.generation and self.key is not None and self.proc is None:
                self.timer = None
                self._start(job, gen)

    def _start(self, job, gen):
        job = dict(job, seconds=self.seconds, memory=self.memory)
        env = dict(os.environ)
        env["PYTHONPATH"] = os.pathsep.join(p for p in sys.path if p)
        try:
            proc = subprocess.Popen([self.python, "-m", "osada.siege.forecast_worker"], stdin=subprocess.PIPE,
                                    stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True, env=env)
            proc.stdin.write(json.dumps(job, ensure_ascii=False) + "\n")
            proc.stdin.close()
        except OSError as exc:
            self.why = "the forecast's worker did not start: %s" % exc
            return
        self.proc = proc
        threading.Thread(target=self._read, args=(proc, gen, self.stamp), daemon=True,
                         name="forecast reader").start()

    def _kill(self):
        if self.timer is not None:
            self.timer.cancel()
            self.timer = None
        if self.proc is not None:
            try:
                self.proc.kill()
            except OSError:
                pass
            self.proc = None

    def _read(self, proc, gen, stamp):
        last = None
        for line in proc.stdout:
            try:
                msg = json.loads(line)
                if "forecast" in msg:
                    last = LiveResult(fresult.from_json(msg["forecast"]), stamp[0], stamp[1], msg.get("k"),
                                      states=msg.get("states"))
                    self._post(gen, result=last)
                elif "error" in msg:
                    self._post(gen, why="none here: %s" % msg["error"])
                elif "done" in msg and last is not None:
                    last.final = True
                    self._post(gen, result=last)
            except (ValueError, TypeError, AttributeError):
                continue
        proc.wait()
        if last is None and proc.returncode not in (0, -9):
            self._post(gen, why="the forecast's worker stopped (exit status %s)" % proc.returncode)

    def _post(self, gen, result=None, why=None):
        with self.lock:
            if gen != self.generation or self.key is None:
                return                               # an answer for a state no longer shown
            if result is not None:
                self.result = result
            if why is not None:
                self.why = why
        if self.notify is not None:
            self.notify()
