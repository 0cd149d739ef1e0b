"""`make firmware`, `make uf2` and `make flash`: the Pico bundle, and putting it on a board.

The board runs the official MicroPython release for the Raspberry Pi Pico
(RPI_PICO, official.py pins it).  Its flash is the firmware, then a
littlefs filesystem; the app lives on that filesystem:

    main.py              the entry point (stays .py: MicroPython runs main.py)
    config.json          the hardware description
    osada_fw/*.mpy       the firmware app, compiled with mpy-cross
    shared_rules/*.mpy   the rules core, compiled with mpy-cross
    osada/journal.raw, journal.map   the game journal's flash (osada_fw/store/lfsregion.py;
                         made by the board at its first boot, or by make uf2)

build/firmware/ (`make firmware`) is that bundle.  build/osada-pico.uf2 (`make
uf2`) is the one-file install: the official firmware's blocks and a littlefs
image of the whole filesystem region holding the bundle (uf2.py,
fsimage.py).  `make flash` with a Pico in BOOTSEL mode (its RPI-RP2
drive mounted) copies that file onto the drive; with a board already running
MicroPython it copies the bundle over serial with mpremote, keeping the game
saved on the board.
"""

import argparse
import glob
import os
import shutil
import subprocess
import sys
import time

from osada.files import paths
from osada.flash import uf2
from osada.flash.mpybuild import BuildError, compile_tree, mpy_cross_version
from osada.link.ports import PICO_VIDS

BUNDLE = os.path.join(paths.OUTPUT, "firmware")
ONE_UF2 = os.path.join(paths.OUTPUT, "osada-pico.uf2")      # beside BUNDLE
# Host-only modules that never go on the board (tank/odds.py: the exact odds are the
# host's, `osada tank odds/watch`; the device only rolls), and the host-only rules
# packages of the card games (a folder: a trailing slash).
SKIP_RULES = ("autoplay.py", "scenario.py", "odds.py", "combin.py", "exact.py", "line/", "victory/",
              "public.py")
# What of them the page with no host takes all the same (the static site, osada/site/reader.py):
# it says the device's events and Siege's facts in words, a roll with its exact odds, the toss (V8).
BROWSER_RULES = ("odds.py", "combin.py", "exact.py", "public.py", "victory/")
SKIP_FW = ("fake.py", "blinka.py")    # CPython hardware layers: the simulator's and the Raspberry Pi's
BROWSER_HAL = "browser.py"            # the web page's hardware layer: only in the static site (osada/site/)
# The .mpy format mpy-cross emits (see `mpy-cross --version`: v6.3).  Our
# files hold bytecode only, and for those only the major version matters (the
# sub-version concerns native code), so every MicroPython since 1.20 loads them.
MPY_VERSION = 6
MPY_RELEASES = "MicroPython 1.20 or newer"


def build(out=BUNDLE, config=None, quiet=False, browser=False):
    # `out` is wiped first: give it a directory of its own
    """Compile the bundle into `out`; returns the list of files in it.  browser: with the web
    page's hardware layer (the static site's device), which a board never loads."""
    if os.path.isdir(out):
        shutil.rmtree(out)
    os.makedirs(out)
    files = []
    skip = tuple(n for n in SKIP_RULES if n not in BROWSER_RULES) if browser else SKIP_RULES
    files += compile_tree(paths.package_dir("shared_rules"), os.path.join(out, "shared_rules"), exclude=skip)
    files += compile_tree(paths.package_dir("osada_fw"), os.path.join(out, "osada_fw"),
                          exclude=SKIP_FW if browser else SKIP_FW + (BROWSER_HAL,))
    shutil.copy(paths.FIRMWARE_MAIN, os.path.join(out, "main.py"))
    cfg_src = config or paths.DEFAULT_CONFIG
    from osada_fw.config import load
    load(cfg_src)                                   # refuse a bad config before it reaches a board
    shutil.copy(cfg_src, os.path.join(out, "config.json"))
    files += [os.path.join(out, "main.py"), os.path.join(out, "config.json")]
    if not quiet:
        size = sum(os.path.getsize(f) for f in files)
        print("built %s: %d files, %.1f KB (%s)" % (paths.shown(out), len(files), size / 1024,
                                                   mpy_cross_version()))
    return files


def bundle_files(bundle=BUNDLE, config=None):
    """The board's filesystem for a bundle: {"/main.py": bytes, "/osada_fw/app.mpy": ...}.
    config: bytes to use as /config.json instead of the bundle's, or False for none."""
    out = {}
    for dirpath, _dirs, names in os.walk(bundle):
        for n in sorted(names):
            full = os.path.join(dirpath, n)
            rel = "/" + os.path.relpath(full, bundle).replace(os.sep, "/")
            if rel == "/config.json" and config is not None:
                continue
            with open(full, "rb") as f:
                out[rel] = f.read()
    if config:
        out["/config.json"] = config
    return out


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
    from osada.link import ports
    try:
        s = ports.open_serial(port, timeout=0.05)
    except ports.PortError as exc:
        raise BuildError(str(exc))
    try:
        real = os.path.realpath(port)
        is_pty = real.startswith("/dev/pts/") or os.path.basename(real).startswith("pty")
        if ports.sim_owner(port) is not None:
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


def _board_mpy(port):
    """(version, sub) of the .mpy format the board's MicroPython loads."""
    v, sub = _board(port, "import sys; print(sys.implementation._mpy & 0xff, sys.implementation._mpy >> 8 & 3)"
                    ).split()[-2:]
    return int(v), int(sub)


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


def flash(port):
    """Build and copy the app onto the MicroPython board on `port` (its
    filesystem), over serial with mpremote.  The game saved on the board
    (osada/ on its filesystem) stays."""
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


def firmware_uf2(path=None, offline=False):
    """The official MicroPython firmware for the one-file install: `path`,
    else $OSADA_FIRMWARE_UF2, else the per-user cache, else downloaded once
    into that cache (not when offline); checked (official.py)."""
    from osada.flash import official
    try:
        return official.get(path, offline=offline)
    except official.FirmwareError as exc:
        raise BuildError(str(exc))


def make_uf2(out=ONE_UF2, firmware=None, bundle=BUNDLE, quiet=False, config=None):
    """Write the one-file install to `out`: the firmware (a path, else
    firmware_uf2()) and a littlefs image of the whole filesystem region
    holding the bundle (built by build()) and the journal's flash."""
    from osada.flash import fsimage
    firmware = firmware or firmware_uf2()
    with open(firmware, "rb") as f:
        fw = f.read()
    files = bundle_files(bundle, config)
    try:
        data = uf2.combine(fw, fsimage.image(files))
    except (uf2.UF2Error, ValueError) as exc:
        raise BuildError("%s: %s" % (paths.shown(firmware), exc))
    tmp = out + ".tmp"
    with open(tmp, "wb") as f:
        f.write(data)
    os.replace(tmp, out)
    if not quiet:
        print("built %s: %s + the filesystem (%d files, %.1f KB of app), %d KB"
              % (paths.shown(out), os.path.basename(firmware), len(files),
                 sum(len(v) for v in files.values()) / 1024, len(data) // 1024))
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


def flash_bootsel(drive, port=None, wait=30.0, bundle=BUNDLE, firmware=None):
    """The one-file install onto the Pico whose BOOTSEL drive is `drive`:
    the official firmware and a filesystem holding the app, config.json
    included.  The board's old filesystem, and any game saved on it, is
    replaced.  Then waits for its serial port; returns it (or None)."""
    info = bootsel_info(drive)
    if info is None:
        raise BuildError("%s is not a Pico in BOOTSEL mode (no INFO_UF2.TXT there): %s" % (drive, BOOTSEL_HOWTO))
    if "RPI-RP2" not in info:
        raise BuildError("%s is a UF2 drive but not an RP2040 Pico's (RPI-RP2): Osada runs on the "
                         "Raspberry Pi Pico (RP2040)" % drive)
    fw = firmware_uf2(firmware)
    build(out=bundle)
    one = make_uf2(out=os.path.join(os.path.dirname(bundle), os.path.basename(ONE_UF2)), firmware=fw,
                   bundle=bundle)
    try:
        copy_with_progress(one, drive)
    except OSError as exc:
        raise BuildError("cannot write to the Pico's drive %s: %s (unplug it and start again: %s)"
                         % (drive, exc, BOOTSEL_HOWTO))
    print("the Pico restarts into MicroPython and Osada; waiting for its serial port ...")
    port = port or wait_for_port(wait)
    if port is None:
        print("done: MicroPython and the app are on the board, but its serial port did not show up within "
              "%.0f s: unplug the board and plug it in again (no BOOTSEL)." % wait)
        return None
    print("done: the board is up on %s" % port)
    return port


def main(argv=None):
    p = argparse.ArgumentParser(prog="python -m osada.flash.deploy")
    sub = p.add_subparsers(dest="cmd", required=True)
    sub.add_parser("build", help="compile the bundle into build/firmware/")
    u = sub.add_parser("uf2", help="build the one-file install, build/osada-pico.uf2")
    fl = sub.add_parser("flash", help="build and copy to a board (in BOOTSEL mode: the one-file install)")
    for q in (u, fl):
        q.add_argument("--firmware", default=None, help="the official MicroPython UF2 for the Pico "
                       "(default: $OSADA_FIRMWARE_UF2, else the cache, else downloaded once)")
    fl.add_argument("--port", default=None, help="serial port (default: the first Pico found)")
    fl.add_argument("--drive", default=None, help="the folder of a Pico's RPI-RP2 drive (BOOTSEL mode)")
    args = p.parse_args(argv)
    try:
        if getattr(args, "firmware", None):     # a file named on the command line: its fault said first
            from osada.flash import official
            try:
                official.find(args.firmware)
            except official.FirmwareError as exc:
                raise BuildError(str(exc)) from None
        if args.cmd == "build":
            build()
        elif args.cmd == "uf2":
            fw = firmware_uf2(args.firmware)
            build()
            make_uf2(firmware=fw)
        elif args.drive:
            flash_bootsel(args.drive, port=args.port, firmware=args.firmware)
        elif args.port:
            flash(args.port)
        else:
            drive = find_bootsel_drive()
            port = None if drive else find_pico()
            if drive:
                print("a Pico in BOOTSEL mode: %s" % drive)
                flash_bootsel(drive, firmware=args.firmware)
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
