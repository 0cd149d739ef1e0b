# Runs INSIDE MicroPython (the official WebAssembly VM), on the .mpy build of
# shared_rules, as the Pico would load it.  Driven by the runner's --drive
# step: every call of step() is a top-level call made after a full
# gc.collect(), because this VM frees memory only at top level.  So
# gc.mem_alloc() at the start of a step is the live heap, and its value after
# the action is an upper bound of the heap in use at any moment of the action
# (nothing is collected during a call).
#
# usage: runner --drive step mpy_core_bench.py GAMES_FILE
# GAMES_FILE: JSON lines; {"setup": {...}} starts a game, every other line is
# one accepted action.  The first game (300 actions) gives the heap figures;
# every game gives the per-action times.  Prints one JSON object at the end.

import gc
import json
import sys

sys.path.insert(0, "/bench")
from vmclock import calibrate, now_us  # noqa: E402

BASE = gc.mem_alloc()
from shared_rules.rng import Rng  # noqa: E402
from shared_rules.siege.engine import Game  # noqa: E402  (measured import)

out = {}
phase = "import"
f = None
game = None
game_no = 0
peak = 0
times = []


def rolls_alloc():
    rng = Rng(12345)
    rng.die()
    a0 = gc.mem_alloc()
    i = 0
    while i < 1000:
        rng.die()
        i += 1
    return gc.mem_alloc() - a0


def step():
    global phase, f, game, game_no, peak
    if phase == "import":
        out["mpy_core_import_bytes"] = gc.mem_alloc() - BASE
        phase = "rolls"
        return True
    if phase == "rolls":
        n = rolls_alloc()
        out["mpy_alloc_1000_rolls_bytes"] = n
        out["mpy_alloc_per_roll_bytes"] = n // 1000
        phase = "calib"
        return True
    if phase == "calib":
        out["mpy_calib_us_per_1k_adds"] = round(calibrate(), 1)
        f = open(sys.argv[1])
        phase = "play"
        return True
    # play: one action per step.  The runner has just collected, so this is
    # the live heap left by the previous action.
    live = gc.mem_alloc()
    line = f.readline()
    if not line:
        return finish()
    obj = json.loads(line)
    if "setup" in obj:
        if game_no == 1:
            out["mpy_heap_game_actions"] = len(game.log)
            out["mpy_heap_peak_bytes"] = peak - BASE
            out["mpy_heap_live_max_bytes"] = live_max - BASE
        game = None
        game = Game.from_setup(obj["setup"])
        game_no += 1
        return True
    if game_no == 1:                     # the heap game: nothing else allocated
        note_live(live)
        game.apply(obj)
        used = gc.mem_alloc()
        if used > peak:
            peak = used
    else:                                # the timed games
        t0 = now_us()
        game.apply(obj)
        times.append(now_us() - t0)
    return True


live_max = 0


def note_live(live):
    global live_max
    if live > live_max:
        live_max = live


def finish():
    f.close()
    times.sort()
    n = len(times)
    out["mpy_actions_timed"] = n
    out["mpy_action_us_p50"] = round(times[n // 2], 1)
    out["mpy_action_us_p95"] = round(times[(n * 95) // 100], 1)
    out["mpy_action_us_max"] = round(times[-1], 1)
    print(json.dumps(out))
    return False
