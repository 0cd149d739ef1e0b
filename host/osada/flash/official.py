"""The official MicroPython release for the Raspberry Pi Pico, on this machine.

Users install the OFFICIAL MicroPython UF2 for the Pico (RPI_PICO, RP2040),
pinned below.  This module finds that file, or downloads it once into the
user's cache with a progress bar, and checks it before anyone uses it:

    find(path)  a path or None, with no network: `path` if given, else
                $OSADA_FIRMWARE_UF2, else the cached copy
    get(path)   the same, downloading into the cache when nothing is found
    check(data) a well-formed RP2040 UF2 of MicroPython 1.28.0 for the plain
                Pico, all of it below the littlefs filesystem (0x100A0000)

    python -m osada.flash.official [--firmware PATH] [--offline]

prints the path found (or downloaded), or `error: <sentence>` and exits 2.
"""

import argparse
import os
import re
import socket
import sys
import tempfile
import urllib.error
import urllib.request

from osada.flash import boards, uf2

VERSION = "1.28.0"
BOARD = boards.BOARD
FILENAME = "RPI_PICO-20260406-v1.28.0.uf2"
URL = "https://micropython.org/resources/firmware/" + FILENAME
PAGE = "https://micropython.org/download/RPI_PICO/"
ENV = "OSADA_FIRMWARE_UF2"

BOARD_NAME = boards.BOARD_NAME                     # MICROPY_HW_BOARD_NAME " with " MICROPY_HW_MCU_NAME
MAX_BYTES = 8 * 1024 * 1024                         # a UF2 for a 2 MiB flash is 4 MiB at most
_BANNER = re.compile(rb"MicroPython v([0-9][0-9A-Za-z.+_-]*) on ")
_CHUNK = 16 * 1024
_BAR = 30
_RP2350_FAMILIES = (0xE48BFF57, 0xE48BFF59, 0xE48BFF5A, 0xE48BFF5B)   # absolute, ARM-S, RISC-V, ARM-NS
_BOARDS = boards.ONLY


class FirmwareError(RuntimeError):
    """The firmware is missing, unreadable, not the pinned release, or could
    not be downloaded; str() is one sentence for the user."""


def _where():
    """Where to get the pinned firmware by hand, and how to pass it."""
    return ("download %s by hand (listed on %s) and pass it with `make flash FIRMWARE=/path/to/%s` "
            "(make uf2 takes it the same way) or %s=/path/to/%s" % (URL, PAGE, FILENAME, ENV, FILENAME))


def _other_board(blob):
    """What the image says it is for, when that is not the plain Pico."""
    if b"Pico W with RP2040" in blob:
        return "the Raspberry Pi Pico W (RPI_PICO_W)"
    if b"RP2350" in blob:
        return "an RP2350 board (the Raspberry Pi Pico 2)"
    return "another board (it does not name the Raspberry Pi Pico with RP2040)"


def _check(data, what, hint=True):
    """check(), with `what` naming the file in the messages; hint=False
    leaves out where to get the right firmware (the caller says it)."""
    def refuse(message, tail):
        return FirmwareError(message + (": " + tail if hint else ""))

    data = bytes(data)
    boards = "%s, firmware %s from %s" % (_BOARDS, BOARD, PAGE)
    try:
        blocks = uf2.parse(data)
    except uf2.UF2Error as exc:
        if any(f in _RP2350_FAMILIES for f in uf2.families(data)):
            raise refuse("%s is for the RP2350 (the Raspberry Pi Pico 2), not an RP2040 UF2" % what,
                         boards) from None
        raise refuse("%s is not an RP2040 UF2 file (%s)" % (what, exc), boards) from None
    if not blocks:
        raise refuse("%s is an RP2040 UF2 file with nothing to write to flash" % what, _where())
    blocks = sorted(blocks, key=lambda b: b[0])                     # address order
    blob = b"".join(payload for _addr, payload, _family in blocks)
    banner = _BANNER.search(blob)
    if banner is None:
        raise refuse("%s is not MicroPython firmware (no \"MicroPython v...\" banner in it)" % what, _where())
    if BOARD_NAME not in blob:
        raise refuse("%s is MicroPython for %s" % (what, _other_board(blob)), boards)
    found = banner.group(1).decode("ascii")
    if found != VERSION:
        raise refuse("%s is MicroPython %s, but Osada needs MicroPython %s for the Raspberry Pi Pico"
                     % (what, found, VERSION), _where())
    for addr, payload, _family in blocks:
        if addr < uf2.XIP_BASE or addr + len(payload) > uf2.FS_ADDR:
            raise refuse("%s writes at 0x%08x, outside the firmware's 0x%08x..0x%08x (from 0x%08x on is the "
                         "Pico's filesystem)" % (what, addr, uf2.XIP_BASE, uf2.FS_ADDR, uf2.FS_ADDR), _where())
    return found


def check(data):
    """The MicroPython version in a UF2 image (bytes): "1.28.0".  Raises
    FirmwareError unless it is a well-formed RP2040 UF2 of MicroPython 1.28.0
    for the Raspberry Pi Pico (not the Pico W, not the Pico 2; any build date)
    whose blocks all lie in 0x10000000..0x100A0000 (below the filesystem)."""
    return _check(data, "the firmware image")


def _check_file(path, what):
    try:
        size = os.path.getsize(path)
        if size > MAX_BYTES:
            raise FirmwareError("%s is %d bytes: too big for a Pico firmware UF2" % (what, size))
        with open(path, "rb") as f:
            data = f.read()
    except FileNotFoundError:
        raise FirmwareError("%s does not exist: %s" % (what, _where())) from None
    except OSError as exc:
        raise FirmwareError("cannot read %s: %s" % (what, exc.strerror or exc)) from None
    return _check(data, what)


def check_file(path):
    """check() for the file at `path`; a missing or unreadable file is a
    FirmwareError naming the path too."""
    path = os.fspath(path)
    return _check_file(path, "the firmware file %s" % path)


def cache_dir():
    """Where the downloaded firmware is kept: $XDG_CACHE_HOME/osada/firmware,
    else ~/.cache/osada/firmware (the directory may not exist yet)."""
    base = os.environ.get("XDG_CACHE_HOME", "")
    if not os.path.isabs(base):                   # the XDG spec: a relative path is to be ignored
        base = os.path.join(os.path.expanduser("~"), ".cache")
    return os.path.join(base, "osada", "firmware")


def cached():
    """The path of the cached firmware if it is there and passes check(),
    else None."""
    path = os.path.join(cache_dir(), FILENAME)
    if not os.path.isfile(path):
        return None
    try:
        check_file(path)
    except FirmwareError:
        return None
    return path


def find(path=None):
    """The firmware's path, with no network: `path` if given, else
    $OSADA_FIRMWARE_UF2 if set, else the cached copy, else None.  A given
    path or the variable's file that fails check_file() is a FirmwareError."""
    if path is not None:
        path = os.fspath(path)
        check_file(path)
        return path
    env = os.environ.get(ENV)
    if env:
        _check_file(env, "the firmware file %s (from %s)" % (env, ENV))
        return env
    return cached()


class _Progress:
    """A download's progress on `out`: one line redrawn with \\r on a
    terminal, a plain line at every quarter otherwise."""

    def __init__(self, out, name, total):
        self.out, self.name, self.total = out, name, total
        try:
            self.tty = bool(out.isatty())
        except (AttributeError, ValueError, OSError):
            self.tty = False
        self.line = None           # the \\r line last drawn (terminal)
        self.quarter = 0           # the last quarter written (plain)
        self.dirty = False         # a \\r line is waiting for its newline
        if not self.tty:
            self._write("downloading %s%s\n" % (name, " (%d KB)" % _kb(total) if total else ""))

    def _write(self, text):
        self.out.write(text)
        self.out.flush()

    def update(self, done, final=False):
        """`done` bytes so far; final: all of them (the total, if the server
        did not say it)."""
        total = self.total or (done if final else None)
        if total:
            figures = "%3d%%  %d/%d KB" % (100 * done // total, _kb(done), _kb(total))
        else:
            figures = "%d KB" % _kb(done)
        if self.tty:
            bar = ""
            if total:
                filled = _BAR * done // total
                bar = "[%s%s]  " % ("#" * filled, "-" * (_BAR - filled))
            line = "downloading %s  %s%s" % (self.name, bar, figures)
            if line != self.line:
                self._write("\r" + line)
                self.line, self.dirty = line, True
            if final:
                self.end()
        elif total:
            quarter = 4 * done // total
            if quarter > self.quarter:
                self._write("  %s\n" % figures)
                self.quarter = quarter
        elif final:
            self._write("  100%%  %s\n" % figures)

    def end(self):
        """Finish the \\r line (when done, or before an error message)."""
        if self.dirty:
            self._write("\n")
            self.dirty = False


def _kb(n):
    return (n + 1023) // 1024


def _reason(exc):
    """The short reason a download failed, for the sentence."""
    if isinstance(exc, urllib.error.HTTPError):
        return "the server answered HTTP %d %s" % (exc.code, exc.reason)
    if isinstance(exc, urllib.error.URLError):
        if not isinstance(exc.reason, BaseException):
            return str(exc.reason)
        exc = exc.reason
    if isinstance(exc, (socket.timeout, TimeoutError)):
        return "no answer in time"
    if isinstance(exc, KeyboardInterrupt):
        return "interrupted"
    if isinstance(exc, OSError) and exc.strerror:
        return exc.strerror[:1].lower() + exc.strerror[1:]
    return str(exc) or type(exc).__name__


def _fetch(url, f, progress_out, timeout):
    """Download `url` into the open file f; return the bytes."""
    request = urllib.request.Request(url, headers={"User-Agent": "osada"})
    with urllib.request.urlopen(request, timeout=timeout) as answer:
        length = answer.headers.get("Content-Length")
        total = int(length) if length and length.isdigit() else None
        if total is not None and total > MAX_BYTES:
            raise FirmwareError("the server offers %d bytes: too big for a Pico firmware UF2" % total)
        progress = _Progress(progress_out, FILENAME, total)
        data = bytearray()
        try:
            progress.update(0)
            while True:
                piece = answer.read(_CHUNK)
                if not piece:
                    break
                data += piece
                if len(data) > MAX_BYTES:
                    raise FirmwareError("the download is over %d bytes: too big for a Pico firmware UF2" % MAX_BYTES)
                f.write(piece)
                progress.update(len(data))
            if total is not None and len(data) != total:
                raise FirmwareError("the download stopped after %d of %d bytes" % (len(data), total))
            progress.update(len(data), final=True)
        finally:
            progress.end()
    return bytes(data)


def download(url=URL, out=None, timeout=30):
    """Download `url` into the cache (progress on `out`, default stderr),
    check it, and move it into place; returns its path.  On any failure
    (Ctrl-C too) nothing is left in the cache and FirmwareError says why,
    where to get the firmware by hand and how to pass it."""
    out = sys.stderr if out is None else out
    folder = cache_dir()
    target = os.path.join(folder, FILENAME)
    tmp = None
    try:
        os.makedirs(folder, exist_ok=True)
        fd, tmp = tempfile.mkstemp(prefix="." + FILENAME + ".", suffix=".part", dir=folder)
        with os.fdopen(fd, "wb") as f:
            data = _fetch(url, f, out, timeout)
            f.flush()
            os.fsync(f.fileno())
        _check(data, "the file there", hint=False)
        os.replace(tmp, target)
        tmp = None
    except (Exception, KeyboardInterrupt) as exc:
        raise FirmwareError("could not download the MicroPython %s firmware for the Raspberry Pi Pico from %s: %s; %s"
                            % (VERSION, url, _reason(exc), _where())) from exc
    finally:
        if tmp is not None:
            try:
                os.remove(tmp)
            except OSError:
                pass
    return target


def get(path=None, url=URL, out=None, timeout=30, offline=False):
    """Like find(), and when nothing is found, download `url` into the cache
    (see download()), or with offline=True say where to get it; returns the
    firmware's path or raises FirmwareError."""
    found = find(path)
    if found is not None:
        return found
    if offline:
        raise FirmwareError("no MicroPython %s firmware for the Raspberry Pi Pico on this machine (offline): "
                            "run without --offline to download it, or %s" % (VERSION, _where()))
    return download(url, out=out, timeout=timeout)


def main(argv=None):
    parser = argparse.ArgumentParser(
        prog="python -m osada.flash.official",
        description="Print the path of the official MicroPython %s UF2 for the Raspberry Pi Pico (%s), "
                    "downloading it into %s once if needed." % (VERSION, BOARD, cache_dir()))
    parser.add_argument("--firmware", metavar="PATH", help="use (and check) this UF2 file")
    parser.add_argument("--offline", action="store_true", help="never download: only look for the file")
    args = parser.parse_args(argv)
    try:
        path = get(args.firmware, url=URL, offline=args.offline)
    except FirmwareError as exc:
        print("error: %s" % exc, file=sys.stderr)
        return 2
    print(path)
    return 0


if __name__ == "__main__":
    sys.exit(main())
