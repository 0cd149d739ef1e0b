"""The threat forecast of a live game (F14), for the monitor's panel and the web
view: fed every state the device sends, it keeps one worker process
(forecast_worker.py) on the phase-4 state the table is at, kills it the
moment that state changes, and hands out only answers stamped with the state
they are for.

Only what the table can see goes to the worker (F2): the state's public
fields, the pool's counts worked out as the table does (public.pool_kinds_seen,
FA1) and the setup's mode, variants, players and houses -- never the seed.

    lf = LiveForecast(notify)        notify(): called (from a reader thread) on a new answer
    lf.update(state, setup, actions, in_turn)
                                     every state; actions: the game's action count (the stamp);
                                     in_turn: the actions of this turn, or None (what people read)
    lf.current(state, setup)         the freshest LiveResult for exactly that state, or None
    lf.why                           why there is none: "" while it is being worked out
    lf.stop()

The best answer of each of the last KEEP states is remembered: a state the table comes back
to (an undo, a move taken back) has its forecast at once, in the change's own snapshot, and
a worker only if that answer was not final yet.
"""

import json
import os
import subprocess
import sys
import threading

from osada.siege.forecast import result as fresult
from shared_rules.siege.public import pool_kinds_seen

from .forecast_words import BEST, cell

# the state's fields a forecast may read (F2) and the setup's
PUBLIC_KEYS = ("outcome", "turn", "player", "phase", "patrol", "walls", "dots", "buildings", "enemies", "pool",
               "discard", "trophies", "pending", "out")
SETUP_KEYS = ("mode", "variants", "players", "houses")
MODES = ("standard", "shoulder", "solo")      # F14: a field marshal's game has none (FA5)
NAMES = {"B": "building", "W": "wall", "D": "ДОТ"}
KEEP = 16                       # states whose best answer is remembered (an undo's state has its forecast at once)
SECONDS = 60.0                  # the most a worker works on one state (the game's start: bounds only)
START_DELAY_S = 0.25            # a worker starts this long after its state came, if the state still stands:
                                # the change is drawn first (the monitor, every page) with the CPU to itself,
                                # and a burst of changes (keys held, an undo run) starts no worker at all


def spawn(job, python=None, nice=None):
    """A worker (forecast_worker.py) started on `job`, in a session of its own (a Ctrl-C at
    the terminal is its owner's to handle: the owner kills it); nice: its priority instead
    of the worker's default.  Returns the Popen: its stdout is the answers' lines.
    OSError if it will not start."""
    env = dict(os.environ)
    env["PYTHONPATH"] = os.pathsep.join(p for p in sys.path if p)
    if nice is not None:
        env["OSADA_FORECAST_NICE"] = str(nice)
    proc = subprocess.Popen([python or sys.executable, "-m", "osada.siege.forecast_worker"], stdin=subprocess.PIPE,
                            stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True, env=env,
                            start_new_session=True)
    try:
        proc.stdin.write(json.dumps(job, ensure_ascii=False) + "\n")
        proc.stdin.close()
    except BaseException:                      # OSError, or a Ctrl-C right now: no worker left behind
        proc.kill()
        proc.wait()
        raise
    return proc


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


PANEL_WIDTH = 42                # the monitor's aside inside its border (monitor.tcss: 46 columns), a phone's page
LINE_WIDTH = 36                 # the game panel's one-line form at 80 columns (half the window, inside its border)


def fit(label, value, width, indent=1):
    """`label  value` as lines of at most `width` where it can: the best case
    (F6) goes on a line of its own, under the worst, when both do not fit."""
    line = " " * indent + label + value
    if len(line) <= width or BEST not in value:
        return [line]
    worst, best = value.split(BEST, 1)
    return [" " * indent + label + worst, " " * (indent + len(label)) + BEST.lstrip(" ·") + best]


class LiveResult:
    """One answer: the forecast (result.Forecast), the stamp (turn, actions:
    the game's action count, which the board checks, F13), the actions of
    this turn (in_turn, None when not known: what people read), whether better
    is still to come (`final`)."""

    def __init__(self, forecast, turn, actions, k, final=False, states=None, in_turn=None):
        self.forecast = forecast
        self.turn, self.actions = turn, actions
        self.in_turn = in_turn
        self.k = k
        self.final = final
        self.states = states

    def stamp_text(self):
        """"turn 2, 3 actions into it": the turn and the actions of this turn."""
        if self.in_turn is None:
            return "turn %s" % self.turn
        return "turn %s, %s action%s into it" % (self.turn, self.in_turn, "" if self.in_turn == 1 else "s")

    def how(self):
        """Exact or bounds, the states and the seconds it took (F14's footer)."""
        fc = self.forecast
        took = "%s states, %.2f s" % ("{:,}".format(self.states) if self.states is not None else "?", fc.seconds)
        if fc.exact:
            return "exact · " + took
        return "bounds (%s) · %s" % ("final" if self.final else "exact coming", took)

    def to_json(self):
        """`osada forecast --json`'s object, with the stamp and how far it got."""
        out = self.forecast.to_json()
        out["stamp"] = {"turn": self.turn, "actions": self.actions}
        out["final"] = self.final or self.forecast.exact
        return out

    def rows(self):
        """(label, value) rows: L and E first (always in view), then each building, wall and
        dot standing (the forecast's targets, F4), sector by sector."""
        fc = self.forecast
        out = [("lost", cell(fc, "L")), ("buildings lost", cell(fc, "E", True))]
        order = {"B": 0, "W": 1, "D": 2}
        for letter, s in sorted((t for t in fc.targets if isinstance(t, tuple)), key=lambda t: (t[1], order[t[0]])):
            out.append(("%d %s" % (s, NAMES[letter]), cell(fc, (letter, s))))
        return out

    def lines(self, width=PANEL_WIDTH):
        """The panel's text rows, none wider than `width` where the words allow: head (two
        lines), L and E, the sectors' rows, how exact it is."""
        out = ["Forecast for %s" % self.stamp_text(), " if the turn ended now:"]
        rows = self.rows()
        head = max(len(r[0]) for r in rows[:2])
        out += fit(rows[0][0].ljust(head) + "  ", rows[0][1], width)
        out += fit(rows[1][0].ljust(head) + "  ", rows[1][1], width)
        w = max(len(r[0]) for r in rows[2:]) if len(rows) > 2 else 0
        for label, value in rows[2:]:
            out += fit(label.ljust(w) + "  ", value, width)
        out.append(" " + self.how())
        return out

    def summary(self, width=LINE_WIDTH):
        """A few short lines: the stamp, L and E (a narrow window's game panel)."""
        fc = self.forecast
        out = ["Forecast: %s%s" % (self.stamp_text(), "" if fc.exact else " (bounds)")]
        both = "lost %s · buildings lost %s" % (cell(fc, "L"), cell(fc, "E", True))
        if len(both) <= width:
            return out + [both]
        return out + fit("lost ", cell(fc, "L"), width, 0) + fit("buildings lost ", cell(fc, "E", True), width, 0)


def _rank(res):
    """How good an answer is: exact above all bounds, bounds by their cut (F11: a later cut, closer)."""
    return (1, 0) if res.forecast.exact else (0, res.k or 0)


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
        self.stamp = (None, None, None)
        self.result = None
        self.why = "no game yet"
        self.proc = None
        self.generation = 0
        self.fed = (None, None)         # the state and setup objects update() last keyed (current() skips the work)
        self.kept = {}                  # key -> the best LiveResult its worker gave (the last KEEP keys)

    # ------------------------------------------------------------- the state

    def update(self, state, setup=None, actions=None, in_turn=None):
        key, job = _public(state, setup)
        self.fed = (state, setup)
        with self.lock:
            if key is not None and key == self.key:
                if in_turn is not None and in_turn != self.stamp[2]:     # learnt from the log meanwhile
                    self.stamp = self.stamp[:2] + (in_turn,)
                    if self.result is not None:
                        self.result.in_turn = in_turn
                return
            self._kill()
            self.key, self.result = key, None
            if key is None:
                self.why = job
                return
            self.why = ""
            self.stamp = (state.get("turn"), actions, in_turn)
            self.generation += 1
            was = self.kept.pop(key, None)
            if was is not None:                      # a state seen before: its answer, stamped anew
                self.kept[key] = was
                self.result = LiveResult(was.forecast, self.stamp[0], actions, was.k, final=was.final,
                                         states=was.states, in_turn=in_turn)
                if was.final or was.forecast.exact:
                    return
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
        try:
            proc = spawn(job, self.python)
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
                                      states=msg.get("states"))          # its in_turn: _post's, the freshest
                    self._post(gen, result=last)
                elif "error" in msg:
                    self._post(gen, why="none here: %s" % msg["error"])
                elif "done" in msg and last is not None:
                    last.final = True
                    self._post(gen, result=last, done=True)
            except (ValueError, TypeError, AttributeError):
                continue
        proc.wait()
        if last is None and proc.returncode not in (0, -9):
            self._post(gen, why="the forecast's worker stopped (exit status %s)" % proc.returncode)

    def _post(self, gen, result=None, why=None, done=False):
        with self.lock:
            if gen != self.generation or self.key is None:
                return                               # an answer for a state no longer shown
            changed = False
            if result is not None:
                result.in_turn = self.stamp[2]
                cur = self.result
                if cur is None or _rank(result) >= _rank(cur):
                    self.result, changed = result, True
                elif done and not cur.final:         # a remembered answer better than this worker's last
                    cur.final, changed = True, True
                self.kept.pop(self.key, None)
                self.kept[self.key] = self.result
                while len(self.kept) > KEEP:
                    del self.kept[next(iter(self.kept))]
            if why is not None and why != self.why:
                self.why, changed = why, True
        if changed and self.notify is not None:     # (a rougher answer than the one shown: nothing to redraw)
            self.notify()
