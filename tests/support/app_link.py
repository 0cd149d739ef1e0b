"""A Link transport straight into a firmware App on fake hardware: the host's
protocol client against the real app, no port (tests/host/link/test_client.py,
tests/host/tank/test_tank_host.py)."""

import os

from osada_fw.config import load

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
CFG = load(os.path.join(ROOT, "firmware", "config.json"))      # the shipped config


class AppTransport:
    """A Link transport straight into a firmware App on fake hardware."""

    def __init__(self, app, clock, garble=None):
        self.app = app
        self.clock = clock
        self.garble = garble
        self.closed = False

    def read(self, n):
        if self.closed:
            raise OSError("closed")
        self.clock.advance(5)
        self.app.tick()
        data = self.app.hw.serial.host_take()
        return self.garble(data) if self.garble else data

    def write(self, data):
        if self.closed:
            raise OSError("closed")
        self.app.hw.serial.host_send(data)

    def close(self):
        self.closed = True
