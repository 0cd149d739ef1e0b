# «День Победы»'s toss INSIDE MicroPython: the firmware app on the real Pico
# hardware layer over fake machine/neopixel modules (mounted at /fakes).
# Prints one line per check; tests/firmware/victory/test_victory_device_mpy.py
# reads them.
#
#   modules <phase> <names>     the toss's modules (and the host-only rules
#                               core's shared_rules.victory) loaded at each
#                               phase: Siege must load none of them
#   msg <json>                  every message of the protocol script below,
#                               in order (the lot forced to seat B, then A)
#   alloc <what> <bytes>        heap allocated by 40 frames of the ring, after a warm-up
#   heap <phase> <bytes>        the live heap: Siege, Victory Day, Siege again, Tank battle
#   bits <seed> <ones> <n>      the device's free generator (shared_rules.rng.Rng)
#                               seeded: how many of n lots fell to seat B
#   siege <seq> <same>          Siege's game after Victory Day and back

import gc
import json
import sys

sys.path.insert(0, "/fakes")

from memserial import Serial, send  # noqa: E402

from osada_fw.app import App  # noqa: E402
from osada_fw.config import led_count, validate  # noqa: E402
from osada_fw.hal.pico import PicoHardware  # noqa: E402
from shared_rules.rng import Rng  # noqa: E402


def loaded(phase):
    names = sorted(n for n in sys.modules if "victory" in n)
    print("modules", phase, ",".join(names) or "-")


class Bits:
    def __init__(self, bits):
        self.bits = bits

    def below(self, n):
        return self.bits.pop(0)


def frames(app, what, t0):
    game = app.mode
    f = app.frame
    for k in range(40):                # warm-up: first calls may intern names
        game.draw(t0 + 31 * k, f)
    gc.collect()
    m0 = gc.mem_alloc()
    for k in range(40):
        game.draw(t0 + 31 * k, f)
    print("alloc", what, gc.mem_alloc() - m0)


state = {"app": None, "serial": None, "siege": None, "phase": 0}


def step():
    """One phase a call: the runner calls it at top level after a full
    collection (this VM frees memory only there), so gc.mem_alloc() at the
    start of a call is the live heap."""
    phase = state["phase"]
    state["phase"] = phase + 1
    app, serial = state["app"], state["serial"]
    if phase == 0:
        cfg = validate({"state_dir": "/state"})
        serial = Serial()
        app = App(PicoHardware(cfg, led_count(cfg), serial=serial), cfg)
        state["app"], state["serial"] = app, serial
        app.boot()
        loaded("boot")
        send(app, serial, {"id": 1, "cmd": "new", "players": 2, "seed": 5})
        send(app, serial, {"id": 2, "cmd": "act", "action": {"do": "patrol"}})
        loaded("siege")
        state["siege"] = json.dumps(app.siege.game.state())
        return True
    if phase in (1, 3):
        print("heap siege%d" % phase, gc.mem_alloc())
        send(app, serial, {"id": 3, "cmd": "game", "game": "victory" if phase == 1 else "tank"})
        return True
    if phase == 2:
        print("heap victory", gc.mem_alloc())
        loaded("victory")
        play(app, serial)
        send(app, serial, {"id": 4, "cmd": "game", "game": "siege"})
        return True
    if phase == 4:
        print("heap tank", gc.mem_alloc())
        send(app, serial, {"id": 4, "cmd": "game", "game": "siege"})
        return True
    loaded("back")
    print("siege", len(app.siege.game.log), json.dumps(app.siege.game.state()) == state["siege"])
    return False


def play(app, serial):
    game = app.mode
    t0 = app.hw.clock.ticks_ms()
    frames(app, "ready", t0)
    game.rng = Bits([1, 0])
    script = ({"cmd": "state"}, {"cmd": "next"}, {"cmd": "toss"}, {"cmd": "toss"},
              {"cmd": "next"}, {"cmd": "next"}, {"cmd": "press", "button": "encoder"},
              {"cmd": "press", "button": "back"}, {"cmd": "toss", "ussr": "B"},
              {"cmd": "toss", "ussr": "C"}, {"cmd": "next", "back": 1},
              {"cmd": "toss", "again": True}, {"cmd": "state"})
    for k, req in enumerate(script):
        req["id"] = 10 + k
        for m in send(app, serial, req):
            print("msg", json.dumps(m))
    game.shown = 1                     # the toss's flips (view.SHOW_TOSS), from t0
    game.at = t0
    frames(app, "toss", t0)
    game.shown = 2                     # a blink (view.SHOW_BLINK)
    frames(app, "blink", t0)
    frames(app, "steady", t0 + 5000)
    for seed in (1, 30, 12345):
        rng = Rng(seed)
        ones = 0
        for _ in range(1000):
            ones += rng.below(2)
        print("bits", seed, ones, 1000)
