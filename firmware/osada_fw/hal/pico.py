# The hardware layer on a Raspberry Pi Pico (MicroPython 1.2x, rp2 port).
# See hal/__init__.py for the interface.  Pins come from the config file.

import os
import sys
import time

import machine
import micropython

from osada_fw.hal import Inputs
from osada_fw.hal.leds import PicoLeds

# One write: the USB CDC's transmit FIFO (256 bytes on the rp2 port).  poll()
# says writable when the FIFO has any room; a write that does not fit waits
# for the host to take the rest (MicroPython gives up after 500 ms of no
# progress), so a host that stops reading costs one such wait, whatever the
# chunk.  64-byte chunks (one USB packet) made the 600 bytes an action sends
# take 1.8 ms on the emulated Pico, 256-byte ones 0.5 ms.
SERIAL_CHUNK = 256


class Encoder:
    """Quadrature rotary encoder on two pins, decoded in the pin interrupts
    (no allocation in the handler)."""

    # transitions (old AB << 2 | new AB) -> step; invalid ones count 0
    _TABLE = (0, -1, 1, 0, 1, 0, 0, -1, -1, 0, 0, 1, 0, 1, -1, 0)

    def __init__(self, pin_a, pin_b):
        self.a = machine.Pin(pin_a, machine.Pin.IN, machine.Pin.PULL_UP)
        self.b = machine.Pin(pin_b, machine.Pin.IN, machine.Pin.PULL_UP)
        self.state = (self.a.value() << 1) | self.b.value()
        self.count = 0                            # quarter steps
        self._isr_ref = self._isr                 # bound once: no allocation per IRQ
        trig = machine.Pin.IRQ_RISING | machine.Pin.IRQ_FALLING
        # hard: the handler runs in the interrupt itself, not when the VM next
        # gets to it, so a collection or a long C call (json.dumps) between two
        # edges cannot make it read both at once and lose the step
        self.a.irq(self._isr_ref, trig, hard=True)
        self.b.irq(self._isr_ref, trig, hard=True)

    def _isr(self, _pin):
        new = (self.a.value() << 1) | self.b.value()
        self.count += self._TABLE[(self.state << 2) | new]
        self.state = new

    def take(self):
        """Whole detents since the last call (4 quarter steps each)."""
        irq = machine.disable_irq()
        c = self.count
        steps = c // 4 if c >= 0 else -((-c) // 4)
        self.count = c - steps * 4
        machine.enable_irq(irq)
        return steps


class UsbSerial:
    """USB CDC through sys.stdin/sys.stdout, polled so it never blocks."""

    def __init__(self):
        import select
        self.rin = sys.stdin.buffer
        self.wout = sys.stdout.buffer
        self.pin = select.poll()
        self.pin.register(sys.stdin, select.POLLIN)
        self.pout = select.poll()
        self.pout.register(sys.stdout, select.POLLOUT)
        self.buf = bytearray(256)
        self.one = bytearray(1)

    def read(self):
        # stdin's read blocks until it has all it was asked for, and nothing
        # tells how many bytes wait: take them one by one while the poller
        # says so.  ipoll, not poll: poll() builds a list and a tuple on
        # every call, ~50 bytes of garbage a byte read (5 KB a request)
        n = 0
        buf = self.buf
        one = self.one
        ipoll = self.pin.ipoll
        readinto = self.rin.readinto
        while n < 256:
            for _ in ipoll(0):
                break                  # a byte is waiting
            else:
                break                  # none
            if not readinto(one):
                break
            buf[n] = one[0]
            n += 1
        return buf[:n] if n else b""

    def wait(self, ms):
        for _ in self.pin.ipoll(ms):
            break

    def write(self, data):
        for _ in self.pout.ipoll(0):
            break
        else:
            return 0                   # the FIFO is full
        chunk = data if len(data) <= SERIAL_CHUNK else data[:SERIAL_CHUNK]
        n = self.wout.write(chunk)
        return len(chunk) if n is None else n


class Clock:
    def ticks_ms(self):
        return time.ticks_ms()

    def diff(self, a, b):
        return time.ticks_diff(a, b)


class PicoHardware:
    def __init__(self, cfg, led_count, serial=None):
        self.leds = PicoLeds(cfg["leds"]["pin"], led_count)
        Pin = machine.Pin
        self.inputs = Inputs(Encoder(cfg["encoder"]["a"], cfg["encoder"]["b"]), (
            Inputs.Button("action", Pin(cfg["buttons"]["action"], Pin.IN, Pin.PULL_UP)),
            Inputs.Button("back", Pin(cfg["buttons"]["back"], Pin.IN, Pin.PULL_UP)),
            Inputs.Button("encoder", Pin(cfg["encoder"]["switch"], Pin.IN, Pin.PULL_UP)),
        ), time.ticks_diff)
        self.serial = serial if serial is not None else UsbSerial()
        self.clock = Clock()
        self.state_dir = cfg["state_dir"]
        self.watchdog = self.buzzer = None
        if cfg["watchdog"] or cfg["buzzer"]:       # optional parts: their code loads only on a board that has them
            from osada_fw.hal import pico_options
            if cfg["watchdog"]:
                self.watchdog = pico_options.Watchdog()
            if cfg["buzzer"]:
                self.buzzer = pico_options.Buzzer(cfg["buzzer"]["pin"])
        try:
            os.mkdir(self.state_dir)
        except OSError:
            pass                                  # already there
        # A stray 0x03 from the host must not stop the app (KeyboardInterrupt):
        # the protocol's {"cmd": "repl"} gives the REPL back (firmware/README.md).
        micropython.kbd_intr(-1)

    def open_journal(self):
        """The raw-flash journal (store/flashlog.py) in the blocks of a
        littlefs file made for it (store/lfsregion.py), or None (no room
        for that file, or no flash to write): the app then keeps the
        littlefs-file journal."""
        try:
            import rp2
            flash = rp2.Flash()                   # the block device littlefs "/" is mounted on
        except Exception:
            return None
        from osada_fw import forget
        from osada_fw.store import lfsregion
        j = lfsregion.open_region(flash, self.state_dir)
        forget("osada_fw.store.lfsregion")              # boot-only: finding or making the file
        return j

    def free_roll_seed(self):
        try:
            b = os.urandom(4)
            return b[0] | b[1] << 8 | (b[2] & 0x3F) << 16
        except (AttributeError, NotImplementedError):
            return time.ticks_us() & 0x3FFFFF

    def console_release(self):
        """Ctrl-C works again; the app's run() then returns, main.py ends,
        and the REPL takes the port.  (A SystemExit out of main.py would
        soft-reset the rp2 port and start the app again instead.)"""
        micropython.kbd_intr(3)
