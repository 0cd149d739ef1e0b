"""The real firmware on an emulated Raspberry Pi Pico (rp2040js, Node.js).

    EmulatedPico   starts pico.mjs with a MicroPython UF2 and our app in its
                   flash; drives its pins, collects its LED frames and flash
                   writes, and gives a transport for `client.Link`
    flash_files    the files of the Pico's filesystem for a build (main.py,
                   config.json, and the code when the firmware has no ROMFS)
    littlefs_image a littlefs image of those files for the filesystem region

See README.md beside this file.  Used by tests/pico/ (pytest -m pico)."""

import base64
import bisect
import json
import os
import queue
import subprocess
import threading
import time

from osada import paths
from osada.deploy import ROMFS_PARTITION

HERE = os.path.dirname(os.path.abspath(__file__))
SCRIPT = os.path.join(HERE, "pico.mjs")
BOOTROM = os.path.join(HERE, "rp2040-bootrom-b1.bin")
UF2_STOCK = "micropython-1.28.0-rpi_pico.uf2"
UF2_ROMFS = "micropython-1.28.0-rpi_pico-romfs192k.uf2"

FS_OFFSET = 0xA0000           # littlefs "/" in both images (firmware/micropython/README.md)
FS_BLOCK = 4096
FS_BLOCKS = 352
ROMFS_OFFSET = 0x70000        # the ROMFS image's partition (192 KiB)
ROMFS_BYTES = ROMFS_PARTITION    # the ROMFS image's partition size (osada.deploy)


def uf2_path(name):
    return os.path.join(_repo_root(), "firmware", "micropython", name)


def _repo_root():
    """The checkout (osada.paths.REPO): the emulated Pico needs its UF2s and
    node_modules/, which an installed package does not carry."""
    if paths.REPO is None:
        raise RuntimeError("the emulated Pico runs from a checkout of the repository (make setup), "
                           "not from an installed osada")
    return paths.REPO


def node_modules():
    return os.path.join(_repo_root(), "node_modules")


def littlefs_image(files, free_blocks=None):
    """files: {"/main.py": bytes, "/osada_fw/app.mpy": bytes, ...} -> the
    region's bytes (352 blocks of 4096), as MicroPython's littlefs v2 mounts it.
    free_blocks: fill the rest with a junk file, /fill.bin, leaving about that
    many blocks free (a full flash: the tests of issue 19)."""
    from littlefs import LittleFS
    fs = LittleFS(block_size=FS_BLOCK, block_count=FS_BLOCKS, read_size=32, prog_size=32,
                  lookahead_size=32)
    made = set()
    for path in sorted(files):
        parts = path.strip("/").split("/")
        for k in range(1, len(parts)):
            d = "/" + "/".join(parts[:k])
            if d not in made:
                fs.mkdir(d)
                made.add(d)
        with fs.open(path, "wb") as f:
            f.write(files[path])
    if free_blocks is not None:
        with fs.open("/fill.bin", "wb") as f:
            while FS_BLOCKS - fs.used_block_count > free_blocks:
                f.write(b"\xa5" * FS_BLOCK)
                f.flush()
    return bytes(fs.context.buffer)


def flash_files(bundle, with_code, config=None):
    """The filesystem's files for the bundle that `make firmware` builds
    (build/firmware/): main.py and config.json, plus the code (.mpy) when the
    firmware has no ROMFS partition.  config: bytes to use as /config.json
    instead of the bundle's, or False for no config file at all."""
    out = {}
    with open(os.path.join(bundle, "main.py"), "rb") as f:
        out["/main.py"] = f.read()
    if config is None:
        with open(os.path.join(bundle, "config.json"), "rb") as f:
            out["/config.json"] = f.read()
    elif config is not False:
        out["/config.json"] = config
    if with_code:
        for top in ("osada_fw", "shared_rules"):
            for dirpath, _dirs, names in os.walk(os.path.join(bundle, top)):
                for n in names:
                    full = os.path.join(dirpath, n)
                    rel = os.path.relpath(full, bundle).replace(os.sep, "/")
                    with open(full, "rb") as f:
                        out["/" + rel] = f.read()
    return out


class EmulatorError(RuntimeError):
    pass


class EmulatedPico:
    """One emulated Pico, running until stop().

    uf2: the MicroPython firmware; romfs, fs: images for the ROMFS partition
    and the filesystem (paths); flash: a whole saved flash image instead (a
    reboot after a power cut); high/low: input pins' levels before boot
    (pull-ups are not modelled); flash_writes: False keeps flash read-only."""

    def __init__(self, uf2=None, romfs=None, fs=None, flash=None, high=(), low=(),
                 led_pin=2, flash_writes=True, flash_timing=True, stderr=None):
        cmd = ["node", SCRIPT, "--bootrom", BOOTROM, "--led-pin", str(led_pin)]
        if flash:
            cmd += ["--flash", flash]
        else:
            cmd += ["--uf2", uf2 or uf2_path(UF2_ROMFS)]
            if romfs:
                cmd += ["--romfs", romfs]
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
        """An object for client.Link: read(n), write(data), close()."""
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

    def cut_power_in_flash(self, op_number, path):
        """Arm a power cut halfway through the op_number-th flash erase or
        program from now (1: the next): half its bytes are done, the flash
        then goes to path and the emulator exits.  wait_off() waits for it."""
        self._send({"op": "cut_in_flash", "op_number": op_number, "path": os.path.abspath(path)})

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
