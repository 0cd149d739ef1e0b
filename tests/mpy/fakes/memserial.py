# The USB serial line in memory, for scripts that drive the app inside the
# MicroPython VM (tests/mpy/tank_fw.py, victory_fw.py, tests/firmware/warchest/warchest_fw.py,
# tests/bench/mpy_tank_bench.py): `data` is what the host sends next, `out` what
# the device wrote; send() one request and what the app wrote for it.

import json


class Serial:
    def __init__(self):
        self.data = b""
        self.out = bytearray()

    def read(self):
        d = self.data
        self.data = b""
        return d

    def write(self, data):
        self.out.extend(data)
        return len(data)

    def wait(self, ms):
        pass


def send(app, serial, req):
    """Every line (reply and events) the app writes in the two ticks after the request `req`."""
    serial.data = (json.dumps(req) + "\n").encode()
    app.tick()
    app.tick()
    out = bytes(serial.out).decode().splitlines()
    serial.out = bytearray()
    return [json.loads(x) for x in out]
