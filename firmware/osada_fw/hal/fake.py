# CPython fakes of the hardware layer (tests and the simulator).
# See hal/__init__.py for the interface.

import os
import select
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

    def wait(self, ms):
        pass                     # tests step the clock themselves

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

    def wait(self, ms):
        try:
            select.select([self.fd], [], [], ms / 1000)
        except (OSError, ValueError):
            time.sleep(ms / 1000)

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
    def __init__(self, led_count, state_dir, serial=None, clock=None, seed=None, journal_flash=None):
        self.leds = FakeLeds(led_count)
        self.inputs = FakeInputs()
        self.serial = serial if serial is not None else MemorySerial()
        self.clock = clock if clock is not None else RealClock()
        self.state_dir = state_dir
        self.watchdog = None
        self.buzzer = None
        self.released = False
        self._seed = seed
        self.journal_flash = journal_flash  # a FakeNorFlash: the raw-flash journal, as on the Pico

    def open_journal(self):
        """The raw-flash journal on journal_flash (all its blocks), or None:
        the app then keeps the littlefs-style file journal in state_dir."""
        if self.journal_flash is None:
            return None
        from osada_fw.store.flashlog import FlashLog
        f = self.journal_flash
        return FlashLog(f, 0, f.blocks, f.BLOCK)

    def free_roll_seed(self):
        if self._seed is not None:
            return self._seed
        return int.from_bytes(os.urandom(4), "little") >> 2     # below 2**30, as the HAL promises

    def console_release(self):
        self.released = True


class PowerCut(BaseException):
    """FakeNorFlash's power cut: raised out of the erase or program it cuts
    short (a BaseException: no `except Exception` in the app swallows it)."""


class FakeNorFlash:
    """NOR flash as a block device, the way rp2.Flash is one (what
    store/flashlog.py writes to): blocks of 4096 bytes; ioctl(6, n) erases
    block n to 0xFF; writeblocks(n, buf, off) programs (ANDs bits in: a
    program only clears bits), like the RP2040's ROM only whole, aligned
    256-byte pages (anything else raises ValueError here, as it would
    program the wrong bytes there); writeblocks(n, buf) erases first.

    path: keep the bytes in that file (loaded if it exists, written after
    every change).  writable=False: erase and program do nothing (flash
    that ignores writes).  block: bytes a block; data: the bytes to work
    on.  cut_after(n): a power cut after n more bytes erased or
    programmed: that operation stops there, half done, and raises
    PowerCut; the flash then stays as it is (read it, or boot on it).
    cut_after(n, tear=rng) (a random.Random): the cut operation is torn
    the way NOR flash tears, not at a byte: with k of its m bytes done,
    each bit it would change (a program: a 1 to clear; an erase: a 0 to
    set) has changed with probability k / m, anywhere in the page or
    sector.  cut_in_program(fraction, tear=rng): the cut falls in the
    next page program (erases before it run whole), that far through."""

    PAGE = 256

    def __init__(self, blocks, path=None, writable=True, block=4096, data=None):
        self.blocks = blocks
        self.BLOCK = block              # 4096 as on the Pico; smaller ones make tests quicker
        self.path = path
        self.writable = writable
        # data: a bytearray of blocks * block bytes to work on in place (e.g. the
        # buffer a littlefs-python filesystem lives in: osada/fsimage.py)
        self.data = data if data is not None else bytearray(b"\xff" * (blocks * self.BLOCK))
        if path is not None and os.path.exists(path):
            with open(path, "rb") as f:
                old = f.read()
            self.data[:len(old)] = old[:len(self.data)]
        self.erases = 0
        self.programs = 0
        self.program_bytes = 0
        self._left = None               # bytes until the power cut; None: no cut armed
        self._tear = None               # a random.Random: bit-level tears (see cut_after)
        self._in_program = None         # cut_in_program's fraction, until that program
        self.cut = False

    def cut_after(self, n, tear=None):
        self._left = n
        self._tear = tear
        self._in_program = None

    def cut_in_program(self, fraction, tear=None):
        self._left = None
        self._tear = tear
        self._in_program = fraction

    def _budget(self, n, program=False):
        """How many of the next n bytes happen before the cut."""
        if self.cut:
            raise PowerCut("the power is off")
        if program and self._in_program is not None:
            self._left = int(n * self._in_program)
            self._in_program = None
        if self._left is None:
            return n
        k = min(n, self._left)
        self._left -= k
        return k

    def _torn(self, a, target, k, m):
        """Bytes data[a:a + m] after an operation that would leave them as
        target (a bytes-like, m long) was cut after k of them: with a tear
        model, each bit it would change changed with probability k / m;
        without, the first k bytes done."""
        if self._tear is None:
            self.data[a:a + k] = target[:k]
            return
        rnd = self._tear.random
        p = k / m
        for i in range(m):
            old = self.data[a + i]
            diff = old ^ target[i]
            if diff:
                keep = 0
                for b in range(8):
                    bit = 1 << b
                    if diff & bit and rnd() >= p:
                        keep |= bit
                self.data[a + i] = (target[i] & ~keep) | (old & keep)

    def _save(self):
        if self.path is not None:
            with open(self.path, "wb") as f:
                f.write(self.data)

    def _check(self, n, off, length):
        if not 0 <= n < self.blocks or off < 0 or off + length > self.BLOCK:
            raise OSError(22, "block %d offset %d length %d is outside the device" % (n, off, length))

    def readblocks(self, n, buf, off=0):
        self._check(n, off, len(buf))
        if self.cut:
            raise PowerCut("the power is off")
        a = n * self.BLOCK + off
        buf[:] = self.data[a:a + len(buf)]

    def writeblocks(self, n, buf, off=None):
        if off is None:
            self.ioctl(6, n)
            off = 0
        if off % self.PAGE or len(buf) % self.PAGE:
            raise ValueError("a program must cover whole 256-byte pages (offset %d, %d bytes)" % (off, len(buf)))
        self._check(n, off, len(buf))
        self.programs += 1
        self.program_bytes += len(buf)
        m = len(buf)
        k = self._budget(m, program=True)
        if self.writable:
            a = n * self.BLOCK + off
            if k == m:
                for i in range(m):
                    self.data[a + i] &= buf[i]
            else:
                self._torn(a, bytes(self.data[a + i] & buf[i] for i in range(m)), k, m)
            self._save()
        if k < len(buf):
            self.cut = True
            raise PowerCut("power cut after %d of %d programmed bytes" % (k, len(buf)))

    def ioctl(self, op, arg):
        if op == 4:
            return self.blocks
        if op == 5:
            return self.BLOCK
        if op == 6:
            self._check(arg, 0, self.BLOCK)
            self.erases += 1
            k = self._budget(self.BLOCK)
            if self.writable:
                a = arg * self.BLOCK
                if k == self.BLOCK:
                    self.data[a:a + k] = b"\xff" * k
                else:
                    self._torn(a, b"\xff" * self.BLOCK, k, self.BLOCK)
                self._save()
            if k < self.BLOCK:
                self.cut = True
                raise PowerCut("power cut after %d of %d erased bytes" % (k, self.BLOCK))
            return 0
        return None

    def power_on(self):
        """After a cut: the same bytes, the power back."""
        self.cut = False
        self._left = None
        self._in_program = None
