# Smoke run of the firmware app INSIDE MicroPython: the real Pico hardware
# layer over fake machine/neopixel modules (mounted at /fakes), the app booting,
# answering protocol lines and rendering frames.  Prints the replies and the
# last frame; tests/firmware/test_fw_micropython.py checks them.
#
# usage: fw_smoke.py REQUESTS_FILE    (JSON lines, sent one per tick)

import sys

sys.path.insert(0, "/fakes")

import neopixel

from osada_fw.app import App
from osada_fw.config import led_count, validate
from osada_fw.hal.pico import PicoHardware


class ScriptSerial:
    """Feeds the request lines in, collects what the device writes."""

    def __init__(self, data):
        self.data = data
        self.pos = 0
        self.out = bytearray()

    def read(self):
        chunk = self.data[self.pos:self.pos + 64]
        self.pos += len(chunk)
        return chunk

    def write(self, data):
        self.out.extend(data)
        return len(data)


def main():
    with open(sys.argv[1], "rb") as f:
        data = f.read()
    cfg = validate({"state_dir": "/state", "leds": {"layout": sys.argv[2] if len(sys.argv) > 2 else "spokes"}})
    serial = ScriptSerial(data)
    hw = PicoHardware(cfg, led_count(cfg), serial=serial)
    app = App(hw, cfg)
    app.boot()
    for _ in range(len(data) // 64 + 40):
        app.tick()
    app.draw(hw.clock.ticks_ms(), force=True)
    sys.stdout.write(serial.out.decode())
    np = neopixel.last
    print('{"frame": "%s", "writes": %d}' % ("".join("%02x" % b for b in np.buf), np.writes))


main()
