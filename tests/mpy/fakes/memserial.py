# The USB serial line in memory, for scripts that drive the app inside the
# MicroPython VM (tests/mpy/tank_fw.py, tests/bench/mpy_tank_bench.py):
# `data` is what the host sends next, `out` what the device wrote.


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
