# The `roll` request's `bench` field: `make bench`'s Tank battle figures,
# measured on the board itself.  Loaded by mode.cmd_roll only when a
# request asks for it, which hands it its own module (tm: the Tank class
# and its field numbers; this module imports nothing of mode) (so a board that never measures carries none of it),
# unloaded with the tank mode (mode.MODULES); Siege never imports it.
#
# {"cmd": "roll", "bench": N} (N = 1..MAX_ROLLS, nothing else) rolls on a
# Tank of its own, with its own seeded generator: the player's numbers, last
# roll and view stay as they were, and these rolls are not pushed as events
# (they are no one's).  Each roll is drawn as a roll is shown (app.draw: the
# ring by view.py, the power cap, the NeoPixel write; the result, past the
# tumble).  The reply:
#   roll12_us   [median, max] over N fire rolls of 12 dice (hit 3, protection
#               4), each timed with its display by time.ticks_us
#   dice12_us   the median of the same rolls' dice alone (Tank.roll: the
#               dice and the counts; the rest of roll12_us is the display)
#   bytes       per test: how much gc.mem_alloc() grew over N rolls of it,
#               each with its display, with automatic collection off meanwhile
#               (after one warm-up roll of each): fire 12 dice, suppress at
#               intensity 12 (18 dice), morale 4 dice, counter, collision 3
#               units a side.  null where there is no gc.mem_alloc (CPython).
#   rolls       how many rolls each figure of `bytes` is over (N)
# The event a real roll builds afterwards (a dict and lists) is not part of
# either: it is the one thing a roll allocates, by design (mode.py).

import gc
import time

from osada_fw import later
from osada_fw.link.protocol import CommandError
from osada_fw.tank.view import ROLL_MS
from shared_rules.rng import Rng

MAX_ROLLS = 200         # a few seconds at most on a Pico (the watchdog is fed between rolls)
SEED = 13

if hasattr(time, "ticks_us"):          # MicroPython: small ints, no allocation
    _us = time.ticks_us                # pyright: ignore[reportAttributeAccessIssue]
    _diff = time.ticks_diff            # pyright: ignore[reportAttributeAccessIssue]
else:                                  # CPython (the simulator, tests)
    def _us():
        return time.perf_counter_ns() // 1000   # pyright: ignore[reportAttributeAccessIssue]  CPython only

    def _diff(a, b):
        return a - b


def clock(us, diff):
    """Time with us() and diff(new, old) instead (the WebAssembly VM's bench
    passes a finer clock than its 1 ms ticks_us)."""
    global _us, _diff
    _us = us
    _diff = diff


def bench(app, req, tm):
    n = req.get("bench")
    if not isinstance(n, int) or isinstance(n, bool) or not 1 <= n <= MAX_ROLLS:
        raise CommandError("roll: bench must be 1..%d, the rolls to measure (got %r)" % (MAX_ROLLS, n))
    for k in req:
        if k not in ("cmd", "id", "bench"):
            raise CommandError("roll: bench takes no numbers (its rolls are fixed: see tank_bench.py); not %r" % k)
    t = tm.Tank(app)
    t.rng = Rng(SEED)
    v = t.vals
    v[tm.F_DICE] = 12
    v[tm.F_HIT] = 3
    v[tm.F_AMBUSH] = 0
    v[tm.F_MDICE] = 4
    v[tm.F_STEAD] = 10
    v[tm.F_NA] = 3
    v[tm.F_NB] = 3
    for i in range(3):
        v[tm.F_A1 + i] = 7
        v[tm.F_B1 + i] = 6 + i
    t.view = tm.V_RESULT
    times = [0] * n
    dice = [0] * n
    mem = getattr(gc, "mem_alloc", None)
    grew = {}
    inner = app.mode
    app.mode = t                       # app.draw draws the bench's rolls
    try:
        t.test = tm.T_FIRE
        for i in range(n):
            v[tm.F_PROT] = 4           # a fire roll leaves less for the next (T19): the same shot each time
            now = _show_at(app, t)
            t0 = _us()
            t.roll()
            t1 = _us()
            app.draw(now, force=True)
            times[i] = _diff(_us(), t0)
            dice[i] = _diff(t1, t0)
        for test in range(len(tm.TESTS)):
            t.test = test
            _roll(app, t, 1, tm.F_PROT)           # warm-up
            if mem is None:            # CPython: the rolls all the same, nothing to count
                _roll(app, t, n, tm.F_PROT)
                grew[tm.TESTS[test]] = None
                continue
            gc.collect()
            gc.disable()
            try:
                m0 = mem()
                _roll(app, t, n, tm.F_PROT)
                grew[tm.TESTS[test]] = mem() - m0
            finally:
                gc.enable()
    finally:
        app.mode = inner
    times.sort()
    dice.sort()
    return {"bench": n, "roll12_us": [times[n // 2], times[n - 1]], "dice12_us": dice[n // 2], "bytes": grew,
            "rolls": n}


def _show_at(app, t):
    """Now, and the roll dated so that a frame drawn now shows its result (past the tumble)."""
    wd = app.hw.watchdog
    if wd is not None:
        wd.feed()
    now = app.hw.clock.ticks_ms()
    t.at = later(now, -ROLL_MS)
    return now


def _roll(app, t, n, prot):
    """n rolls of the current test, each drawn; allocates nothing (what `bytes` checks)."""
    v = t.vals
    for _ in range(n):
        v[prot] = 4
        now = _show_at(app, t)
        t.roll()
        app.draw(now, force=True)
