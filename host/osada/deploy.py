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
"""

import argparse
import os
import shutil
import subprocess
import sys
import time

from osada import paths
from osada.client import PICO_VIDS
from osada.mpybuild import BuildError, compile_tree, mpy_cross_version

BUNDLE = os.path.join(paths.OUTPUT, "firmware")
ROMFS_IMAGE = os.path.join(paths.OUTPUT, "firmware.romfs")
# Host-only modules that never go on the board.
SKIP_RULES = ("autoplay.py", "scenario.py")
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
ROMFS_PARTITION = 192 * 1024


def romfs_room(partition=ROMFS_PARTITION):
    """Bytes a code image may take in a ROMFS partition of this size."""
    from osada_fw.flashlog import RAW_BLOCKS, SECTOR
    return partition - RAW_BLOCKS * SECTOR


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


def flash(port):
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
    if _board_has_romfs(port):
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


def main(argv=None):
    p = argparse.ArgumentParser(prog="python -m osada.deploy")
    sub = p.add_subparsers(dest="cmd", required=True)
    sub.add_parser("build", help="compile the bundle into build/firmware/")
    fl = sub.add_parser("flash", help="build and copy to a board")
    fl.add_argument("--port", default=None, help="serial port (default: the first Pico found)")
    args = p.parse_args(argv)
    try:
        if args.cmd == "build":
            build()
        else:
            port = args.port or find_pico()
            if port is None:
                sys.stderr.write("no Pico found: plug one in or give PORT=/dev/ttyACM0\n")
                return 2
            flash(port)
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
