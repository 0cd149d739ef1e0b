# Runs INSIDE MicroPython on the .mpy build of shared_rules and osada_fw, with
# the real Pico hardware layer over fake machine/neopixel modules.  Driven by
# the runner's --drive step: each step is a top-level call after a full
# gc.collect() (this VM frees memory only at top level), so gc.mem_alloc() at
# the start of a step is the live heap.  Prints one JSON object.
#
# usage: runner --drive step mpy_fw_bench.py GAMES_FILE heap|time
#
# heap (one import, as a Pico boots):
#   mpy_app_code_bytes       live heap after importing the app: its .mpy code,
#                            copied into RAM on load, and the interned names
#   mpy_app_live_after_boot_bytes   ... plus the booted app and a new game
#   mpy_app_heap_peak_bytes  peak heap over a 300-action game played over the
#                            protocol (live before each request + all it allocates)
#   mpy_app_data_peak_bytes  the same less the code and the data import builds
#   mpy_app_modules          the app's modules (make bench drops it); the RAM
#                            qstr pool is printed as Q(...) lines by
#                            micropython.qstr_info(1)
# time (warmed up, as the calibration is: a cold WebAssembly VM also compiles
# the interpreter itself, which a Pico never does):
#   mpy_app_boot_us          import of the app to its first frame, median of 5
#   mpy_frame_render_us      one frame (board, UI overlay, animations, cap, write), median
#   mpy_frame_alloc_bytes    heap allocated by one frame
#   mpy_calib_us_per_1k_adds

import gc
import sys

sys.path.insert(0, "/fakes")
sys.path.insert(0, "/bench")
# On a Pico `machine` is C and `neopixel` a frozen module: both are firmware,
# in flash.  Their stand-ins here are test code compiled into RAM, so they are
# loaded before the baseline; what the app makes of them (pins, the strip's
# buffer) is still counted.
import machine  # noqa: E402,F401
import neopixel  # noqa: E402,F401

BASE = gc.mem_alloc()
from vmclock import calibrate, now_us  # noqa: E402

MODE = sys.argv[2]
MODULES = ("shared_rules", "osada_fw")
out = {}
phase = "import"
app = None
f = None
peak = 0
boots = []


class BenchSerial:
    """The host side: hands over one request line at a time, reads everything."""

    def __init__(self):
        self.data = b""

    def read(self):
        d = self.data
        self.data = b""
        return d

    def write(self, data):
        return len(data)


serial = BenchSerial()


def boot_app(state_dir):
    from osada_fw import forget
    from osada_fw.app import App
    from osada_fw.config import led_count, validate
    from osada_fw.hal.pico import PicoHardware
    cfg = validate({"state_dir": state_dir})
    hw = PicoHardware(cfg, led_count(cfg), serial=serial)
    del led_count, validate
    forget("osada_fw.config")                   # as main.py does: config is boot-only
    a = App(hw, cfg)
    a.boot()                                    # ends with the first frame
    return a


def forget_modules():
    for name in list(sys.modules):
        if name.split(".")[0] in MODULES:
            del sys.modules[name]


def heap_step():
    global phase, app, f, peak
    if phase == "import":
        __import__("osada_fw.app")
        phase = "code"
        return True
    if phase == "code":
        out["mpy_app_code_bytes"] = gc.mem_alloc() - BASE
        app = boot_app("/state")
        phase = "live"
        return True
    if phase == "live":
        out["mpy_app_live_after_boot_bytes"] = gc.mem_alloc() - BASE
        f = open(sys.argv[1], "rb")
        phase = "play"
        return True
    # one request per step: the first game of the file, started by `new`
    line = f.readline()
    if not line or (b'"setup"' in line and app.siege.game.log.count):
        out["mpy_app_heap_peak_bytes"] = peak - BASE
        out["mpy_app_data_peak_bytes"] = peak - BASE - out["mpy_app_code_bytes"]
        out["mpy_app_game_actions"] = app.siege.game.log.count
        out["mpy_app_modules"] = sorted(n for n in sys.modules if n.split(".")[0] in MODULES)
        import micropython
        micropython.qstr_info(1)
        return done()
    if b'"setup"' in line:
        line = line.replace(b'{"setup": {', b'{"cmd": "new", ', 1)[:-2] + b"\n"
    else:
        line = b'{"cmd": "act", "action": ' + line.rstrip() + b"}\n"
    serial.data = line
    app.tick()
    app.tick()
    used = gc.mem_alloc()
    if used > peak:
        peak = used
    return True


def time_step():
    global phase, app
    if phase == "import":                       # warm-up boot, untimed
        boot_app("/warm")
        forget_modules()
        phase = "boot"
        return True
    if phase == "boot":
        t0 = now_us()
        app = boot_app("/state%d" % len(boots))
        boots.append(now_us() - t0)
        if len(boots) < 5:
            app = None
            forget_modules()
            return True
        boots.sort()
        out["mpy_app_boot_us"] = round(boots[2], 1)
        phase = "frames"
        return True
    now = app.hw.clock.ticks_ms()
    app.draw(now, force=True)
    a0 = gc.mem_alloc()
    app.draw(now + 40, force=True)
    out["mpy_frame_alloc_bytes"] = gc.mem_alloc() - a0
    ts = []
    for k in range(201):
        t0 = now_us()
        app.draw(now + 80 + 40 * k, force=True)
        ts.append(now_us() - t0)
    ts.sort()
    out["mpy_frame_render_us"] = round(ts[100], 1)
    out["mpy_calib_us_per_1k_adds"] = round(calibrate(), 1)
    return done()


def done():
    import json
    print(json.dumps(out))
    return False


step = heap_step if MODE == "heap" else time_step
