# A stand-in for MicroPython's `neopixel` module: keeps the last frame written.

last = None


class NeoPixel:
    def __init__(self, pin, n, bpp=3):
        self.pin = pin
        self.n = n
        self.buf = bytearray(n * bpp)
        self.writes = 0

    def write(self):
        global last
        self.writes += 1
        last = self
