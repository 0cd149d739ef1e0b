# CPython fakes of the hardware layer (tests and the simulator).
# See hal/__init__.py for the interface.

import os
import time

from osada_fw.hal import EVENT_LONG, EVENT_PRESS, EVENT_TURN


class FakeLeds:
    def __init__(self, count):
        self.count = count
        self.frame = bytes(count * 3)
        self.writes = 0

    def write(self, buf):
        self.frame = bytes(buf)
        self.writes += 1


class FakeInputs:
    """Inputs injected by tests or the simulator's keyboard."""

    def __init__(self):
        self.queue = []
        self.held_buttons = set()
        self.releasing = set()         # held for one poll's events only (press_with)

    def press_with(self, held, name):
        """A long press of `name` while `held` is held (a button combination)."""
        self.held_buttons.add(held)
        self.releasing.add(held)
        self.queue.append((EVENT_LONG, name))

    def turn(self, d):
        self.queue.append((EVENT_TURN, d))

    def press(self, name, long=False):
        self.queue.append((EVENT_LONG if long else EVENT_PRESS, name))

    def poll(self, now_ms):
        if not self.queue:             # the events of the last poll are handled: let go
            self.held_buttons -= self.releasing
            self.releasing = set()
        q = self.queue
        self.queue = []
        return q

    def held(self, name):
        return name in self.held_buttons


class MemorySerial:
    """A serial line in memory: tests push host bytes in and read device bytes out.
    `capacity` bounds what the host side buffers, to model a host that never reads."""

    def __init__(self, capacity=1 << 20):
        self.inbox = bytearray()
        self.outbox = bytearray()
        self.capacity = capacity

    def host_send(self, data):
        self.inbox.extend(data)

    def host_take(self):
        data = bytes(self.outbox)
        self.outbox = bytearray()
        return data

    def read(self):
        data = bytes(self.inbox[:512])
        del self.inbox[:512]
        return data

    def write(self, data):
        room = self.capacity - len(self.outbox)
        n = min(room, len(data))
        if n > 0:
            self.outbox.extend(data[:n])
        return max(n, 0)


class FdSerial:
    """The serial line over a file descriptor (the simulator's pty master).
    Non-blocking both ways, like the Pico's USB CDC."""

    def __init__(self, fd):
        self.fd = fd
        os.set_blocking(fd, False)

    def read(self):
        try:
            return os.read(self.fd, 512)
        except (BlockingIOError, InterruptedError):
            return b""
        except OSError:          # EIO: no host has the port open
            return b""

    def write(self, data):
        try:
            return os.write(self.fd, data)
        except (BlockingIOError, InterruptedError):
            return 0
        except OSError:
            return 0


class RealClock:
    def __init__(self):
        self.t0 = time.monotonic()

    def ticks_ms(self):
        return int((time.monotonic() - self.t0) * 1000)

    def diff(self, a, b):
        return a - b


class ManualClock:
    """A clock tests move by hand."""

    def __init__(self, start=0):
        self.now = start

    def ticks_ms(self):
        return self.now

    def advance(self, ms):
        self.now += ms

    def diff(self, a, b):
        return a - b


class FakeBuzzer:
    """Records every tone(freq_hz, ms) asked of it."""

    def __init__(self):
        self.tones = []

    def tone(self, freq, ms):
        self.tones.append((freq, ms))


class FakeHardware:
    def __init__(self, led_count, state_dir, serial=None, clock=None, seed=None):
        self.leds = FakeLeds(led_count)
        self.inputs = FakeInputs()
        self.serial = serial if serial is not None else MemorySerial()
        self.clock = clock if clock is not None else RealClock()
        self.state_dir = state_dir
        self.watchdog = None
        self.buzzer = None
        self.released = False
        self._seed = seed

    def free_roll_seed(self):
        if self._seed is not None:
            return self._seed
        return int.from_bytes(os.urandom(4), "little")

    def console_release(self):
        self.released = True
