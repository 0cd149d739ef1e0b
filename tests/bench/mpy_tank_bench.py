# Runs INSIDE MicroPython (the WebAssembly VM) on the .mpy build of
# shared_rules and osada_fw, with the real Pico hardware layer over fake
# machine/neopixel modules: the device in Tank battle answers the `roll`
# request's `bench` (osada_fw/tank/bench.py), timed with the VM's fine clock
# (vmclock) instead of its 1 ms ticks_us.  Prints one JSON object: the
# bench's reply and the VM's calibration (us per 1000 additions), for the
# projection onto a Pico that tests/bench/__main__.py makes.
#
# usage: runner mpy_tank_bench.py ROLLS

import json
import sys

sys.path.insert(0, "/fakes")
sys.path.insert(0, "/bench")

from memserial import Serial  # noqa: E402
from vmclock import calibrate, now_us  # noqa: E402

from osada_fw.app import App  # noqa: E402
from osada_fw.config import led_count, validate  # noqa: E402
from osada_fw.hal.pico import PicoHardware  # noqa: E402


def request(app, serial, req):
    """The reply to req (the events pushed before it are dropped)."""
    serial.data = (json.dumps(req) + "\n").encode()
    for _ in range(4):
        app.tick()
        for line in bytes(serial.out).decode().splitlines():
            m = json.loads(line)
            if m.get("id") == req["id"]:
                serial.out = bytearray()
                if not m["ok"]:
                    raise SystemExit("refused: %r" % (m,))
                return m
    raise SystemExit("no reply to %r" % (req,))


def sub(a, b):
    return a - b


def main():
    rolls = int(sys.argv[1])
    serial = Serial()
    cfg = validate({"state_dir": "/state"})
    app = App(PicoHardware(cfg, led_count(cfg), serial=serial), cfg)
    app.boot()
    request(app, serial, {"id": 1, "cmd": "game", "game": "tank"})
    from osada_fw.tank import bench as tank_bench
    tank_bench.clock(now_us, sub)
    request(app, serial, {"id": 2, "cmd": "roll", "bench": rolls})      # warm-up (the VM's own JIT)
    reply = request(app, serial, {"id": 3, "cmd": "roll", "bench": rolls})
    print(json.dumps({"reply": reply, "calib": calibrate()}))


main()
