# A stand-in for MicroPython's `machine` module, for running the Pico
# hardware layer (firmware/osada_fw/hal/pico.py) inside the WebAssembly VM.
# Pins read as released (pulled up); tests may set Pin.levels[n].


class Pin:
    IN = 0
    OUT = 1
    PULL_UP = 1
    IRQ_RISING = 1
    IRQ_FALLING = 2
    levels = {}
    irqs = {}

    def __init__(self, n, mode=0, pull=None):
        self.n = n

    def value(self, v=None):
        if v is None:
            return Pin.levels.get(self.n, 1)
        Pin.levels[self.n] = v

    def irq(self, handler, trigger=0, hard=False):     # rp2's signature: hard runs it in the interrupt
        Pin.irqs[self.n] = handler


def disable_irq():
    return 0


def enable_irq(state):
    pass


class WDT:
    feeds = 0

    def __init__(self, timeout=8000):
        self.timeout = timeout

    def feed(self):
        WDT.feeds += 1


class PWM:
    def __init__(self, pin):
        self.pin = pin

    def freq(self, f):
        pass

    def duty_u16(self, d):
        pass
