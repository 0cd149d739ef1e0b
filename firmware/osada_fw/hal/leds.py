# The WS2812 (NeoPixel) strip: the part of the hardware layer that also runs
# on CircuitPython.  The renderer hands over a frame already in the strip's
# wire order (render.py), so all a driver does is send those bytes.
#
# MicroPython: the firmware's `neopixel` module; the frame is copied into its
#   .buf (same length, no allocation) and written.
# CircuitPython (no `machine`): its core `neopixel_write`, the module that
#   adafruit-circuitpython-neopixel itself sends with, on board.GP<pin>.


class PicoLeds:
    def __init__(self, pin, count):
        self.count = count
        self.np = None
        self._cp = None
        try:
            import machine
        except ImportError:
            machine = None
        if machine is not None:
            import neopixel
            self.np = neopixel.NeoPixel(machine.Pin(pin, machine.Pin.OUT), count)
            return
        import board  # pyright: ignore[reportMissingImports]  CircuitPython only (no `machine`)
        import digitalio  # pyright: ignore[reportMissingImports]  CircuitPython only
        import neopixel_write  # pyright: ignore[reportMissingImports]  CircuitPython only
        name = "GP%d" % pin
        if not hasattr(board, name):
            raise ValueError("this board has no pin %s for the LEDs (firmware/config.json)" % name)
        self._cp = neopixel_write.neopixel_write
        self._pin = digitalio.DigitalInOut(getattr(board, name))
        self._pin.direction = digitalio.Direction.OUTPUT

    def write(self, buf):
        if self.np is not None:
            self.np.buf[:] = buf                  # same length, no allocation
            self.np.write()
        else:
            self._cp(self._pin, buf)
