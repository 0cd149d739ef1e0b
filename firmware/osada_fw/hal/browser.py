# The hardware layer when the board is a web page (issue 63): the firmware's
# app, unchanged, in MicroPython's WebAssembly VM in the page's Web Worker
# (build/site/worker.js).  See hal/__init__.py for the interface.
#
#   serial   the JSON-line protocol as over USB: the worker hands in what the
#            page sends (step(text)) and takes what the app writes (step's
#            return), so the page is a host like any other
#   leds     the last frame, for the page's ring (frame(); ring(): the 24 board
#            LEDs' colours in the ring's order, when they changed)
#   inputs   the page's buttons, queued by the worker (step's presses)
#   clock    the VM's (time.ticks_ms: the browser's clock)
#   journal  the file journal in /state (the app's own, store/journal.py); the
#            worker keeps /state in the browser's storage and lets a reply out
#            only once what it acknowledges is stored there
#   seed     drawn by the worker with crypto.getRandomValues
#
# Runs on MicroPython (the VM) and on CPython (tests).

import json
import time

from osada_fw import TICKS_MASK, elapsed

STATE_DIR = "/state"
TICKS = 4                  # app ticks a step: a request in, its reply and state out


def _ticks():
    """time.ticks_ms (MicroPython's); CPython (tests) has none: its clock, wrapped the same."""
    return int(time.time() * 1000) & TICKS_MASK


_ticks = getattr(time, "ticks_ms", _ticks)


class Serial:
    def __init__(self):
        self.rx = bytearray()
        self.tx = bytearray()

    def read(self):
        data = bytes(self.rx)
        self.rx = bytearray()
        return data

    def wait(self, ms):
        pass

    def write(self, data):
        self.tx.extend(data)
        return len(data)


class Leds:
    def __init__(self):
        self.last = b""

    def write(self, buf):
        self.last = bytes(buf)


class Inputs:
    def __init__(self):
        self.queue = []

    def poll(self, now_ms):
        out = self.queue
        self.queue = []
        return out

    def held(self, name):
        return False


class Clock:
    def ticks_ms(self):
        return _ticks()

    def diff(self, a, b):
        return elapsed(a, b)


class BrowserHardware:
    def __init__(self, seed, state_dir=STATE_DIR):
        self.leds = Leds()
        self.inputs = Inputs()
        self.serial = Serial()
        self.clock = Clock()
        self.state_dir = state_dir
        self.watchdog = None
        self.buzzer = None
        self._seed = seed & TICKS_MASK          # the HAL's promise: 0 <= seed < 2**30, a small int

    def open_journal(self):
        return None                        # the file journal in state_dir

    def free_roll_seed(self):
        return self._seed

    def console_release(self):
        pass


_dev = []                                  # [the app, its hardware] once started


def start(seed, config_text, state_dir=STATE_DIR):
    """Boot the app: seed from the page's crypto.getRandomValues, config_text the
    board's config.json.  Returns what the boot wrote (its boot event)."""
    from osada_fw.app import App
    from osada_fw.config import validate
    try:
        import os
        os.mkdir(state_dir)
    except OSError:
        pass                               # there already: the worker put the saved game in it
    cfg = validate(json.loads(config_text))
    hw = BrowserHardware(seed, state_dir)
    app = App(hw, cfg)
    _dev[:] = [app, hw]
    app.boot()
    return step("")


def step(text, presses=""):
    """What the page sent (text: protocol lines) and its buttons (presses: "action",
    "back", "encoder", "+1", "-1", comma-separated; a leading "!" a long press) in; a
    few ticks; what the app wrote, out."""
    app, hw = _dev
    if text:
        hw.serial.rx.extend(text.encode())
    for p in presses.split(",") if presses else ():
        if p in ("+1", "-1"):
            hw.inputs.queue.append(("turn", int(p)))
        elif p.startswith("!"):
            hw.inputs.queue.append(("long", p[1:]))
        else:
            hw.inputs.queue.append(("press", p))
    for _ in range(TICKS):
        app.tick()
    out = bytes(hw.serial.tx)
    hw.serial.tx = bytearray()
    return out.decode()


def journal_name():
    """The journal's file in /state (store/journal.py's): what the page exports and imports."""
    from osada_fw.store.journal import NAME
    return NAME


def frame():
    """The LEDs' last frame as hex (the strip's wire order), for the page's ring."""
    hw = _dev[1]
    return "".join("%02x" % b for b in hw.leds.last)


_shown = []                                # [the wire bytes ring() last gave the colours of]
_back = []                                 # [the frame's lut, its inverse] (made once a brightness)


def ring(always=False):
    """The 24 board LEDs' colours as the ring runs (sector 1's rear line first, as the
    host's pictures give them), "#rrggbb" comma-separated, back through the frame's
    brightness and gamma to the colours the game drew; unless `always`, "" when the LEDs
    did not change since the last call (the page is sent a ring only when it changed)."""
    app, hw = _dev
    last = hw.leds.last
    if _shown and _shown[0] == last and not always:
        return ""
    _shown[:] = [last]
    f = app.frame
    if not _back or _back[0] != f.lut:
        lut = bytes(f.lut)
        back = bytearray(256)              # a wire byte -> the smallest colour value lit at least as bright
        v = 0
        for b in range(256):
            while v < 255 and lut[v] < b:
                v += 1
            back[b] = v
        _back[:] = [lut, back]
    back = _back[1]
    order = f.order                        # the strip's channel order ("GRB")
    out = []
    for p in range(24):
        i = f.layout.inv[(p // 4) * 6 + p % 4]
        if i == 255 or 3 * i + 2 >= len(last):
            out.append("#000000")
            continue
        px = last[3 * i:3 * i + 3]
        r, g, b = back[px[order.index("R")]], back[px[order.index("G")]], back[px[order.index("B")]]
        out.append("#%02x%02x%02x" % (r, g, b))
    return ",".join(out)
