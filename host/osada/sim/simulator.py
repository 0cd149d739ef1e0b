"""`osada sim`: the firmware app on CPython with fake hardware.

Its serial side is a pseudo-terminal, symlinked at --link, so pyserial
clients (the monitor, `osada state`, your own scripts) connect to it exactly
as to a Pico.  In a terminal it draws the LEDs where they sit on the board
and maps keys to the encoder and the buttons.

One state directory (the game journal) has at most one simulator, and a
link belongs to the simulator that made it: both are flocks held while it
runs (Simulator); a second one is refused with the holder's pid."""

import os
import pty
import select
import signal
import sys
import termios
import time
import tty

from osada import paths
from osada.config_file import read_config
from osada.link.ports import SIM_LINK
from osada.sim.view import KeyParser, Screen
from osada_fw.app import App
from osada_fw.config import ConfigError, led_count
from osada_fw.config import load as load_config
from osada_fw.hal.fake import FakeHardware, FdSerial

DEFAULT_CONFIG = paths.DEFAULT_CONFIG
DEFAULT_STATE = paths.SIM_STATE


class SimBusy(Exception):
    """Another live simulator has this state directory or this link."""


def _read_pid(fd):
    try:
        return int(os.pread(fd, 64, 0).split()[0])
    except (OSError, ValueError, IndexError):
        return None


def _alive(pid):
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except OSError:
        return True                   # someone else's process: alive
    return True


def take_lock(path, tries=50):
    """An exclusive flock on `path` (created if need be), held as long as the
    returned fd is open: (fd, None), or (None, pid of the holder).  A holder
    that has not written its pid yet, or a client peeking with a shared
    lock (ports.sim_owner), is waited for a little."""
    import fcntl
    pid = None
    for _ in range(tries):
        fd = os.open(path, os.O_RDWR | os.O_CREAT, 0o644)
        try:
            fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except BlockingIOError:
            pid = _read_pid(fd)
            os.close(fd)
            if pid is not None and pid != os.getpid() and _alive(pid):
                return None, pid
            time.sleep(0.02)
            continue
        try:
            same = os.fstat(fd).st_ino == os.stat(path).st_ino
        except FileNotFoundError:
            same = False
        if same:
            return fd, None
        os.close(fd)                   # its owner removed it as it quit: lock the new one
    return None, pid


def _write_lock(fd, text):
    os.ftruncate(fd, 0)
    os.pwrite(fd, text.encode(), 0)


class Simulator:
    """One simulated device: a pty (linked at `link`) and the app on fake
    hardware, its journal in `state_dir`.  One state directory has at most one
    simulator (a flock on state_dir/sim.lock), and a link belongs to the
    simulator that holds the flock on link + ".pid": a second one raises
    SimBusy, saying which process holds it, and never touches the first's
    link or journal."""

    def __init__(self, link=SIM_LINK, state_dir=DEFAULT_STATE, seed=None, config=DEFAULT_CONFIG):
        from osada.link.ports import describe_sim
        # before anything is taken: a bad one leaves nothing.  The default file may be missing, as on the device
        missing_default = config == DEFAULT_CONFIG and not os.path.exists(config)
        self.cfg = load_config(config) if missing_default else read_config(config)
        self.link = link
        self.master = self.slave = None
        self.state_lock = self.link_lock = None
        os.makedirs(state_dir, exist_ok=True)
        self.state_lock, pid = take_lock(os.path.join(state_dir, "sim.lock"))
        if self.state_lock is None:
            other = self._other_link(state_dir)
            raise SimBusy("the state directory %s already has a simulator: pid %s (%s)%s. One state "
                          "directory takes one simulator: use that one%s, stop it, or give this one "
                          "its own --state DIR and --link PATH"
                          % (state_dir, pid, describe_sim(pid) if pid else "starting",
                             ", serial port %s" % other if other else "",
                             " (osada monitor --port %s)" % other if other else ""))
        try:
            if link:
                if os.path.lexists(link) and not os.path.islink(link):
                    raise SimBusy("%s exists and is not a link: give --link a free path" % link)
                self.link_lock, pid = take_lock(link + ".pid")
                if self.link_lock is None:
                    raise SimBusy("%s belongs to another running simulator: pid %s (%s). Stop it, or "
                                  "give this one its own --link PATH" % (link, pid, describe_sim(pid)))
            self.master, self.slave = pty.openpty()
            tty.setraw(self.slave)                 # bytes pass through untouched, like USB CDC
            attrs = termios.tcgetattr(self.slave)
            attrs[3] &= ~termios.ECHO
            termios.tcsetattr(self.slave, termios.TCSANOW, attrs)
            self.port = os.ttyname(self.slave)
            _write_lock(self.state_lock, "%d\n%s\n" % (os.getpid(), link or self.port))
            if link:
                tmp = "%s.new%d" % (link, os.getpid())
                try:
                    os.remove(tmp)
                except FileNotFoundError:
                    pass
                os.symlink(self.port, tmp)
                os.replace(tmp, link)              # re-pointed in one step: never missing
                # clients tell a live link from a stale one by this pid; written once
                # the link is there, so a client that sees the owner can open the link
                _write_lock(self.link_lock, "%d\n" % os.getpid())
        except BaseException:
            self.close()
            raise
        self.hw = FakeHardware(led_count(self.cfg), state_dir, serial=FdSerial(self.master), seed=seed)
        self.app = App(self.hw, self.cfg)
        self.keyparser = KeyParser()

    @staticmethod
    def _other_link(state_dir):
        try:
            with open(os.path.join(state_dir, "sim.lock")) as f:
                lines = f.read().split()
            return lines[1] if len(lines) > 1 else None
        except OSError:
            return None

    def close(self):
        if self.link and self.link_lock is not None:
            # ours while we hold its lock: remove the link only if it still points at our pty
            try:
                if self.master is not None and os.path.islink(self.link) and os.readlink(self.link) == self.port:
                    os.remove(self.link)
            except OSError:
                pass
            try:
                os.remove(self.link + ".pid")
            except OSError:
                pass
        for fd in (self.master, self.slave, self.link_lock, self.state_lock):
            if fd is None:
                continue
            try:
                os.close(fd)
            except OSError:
                pass
        self.master = self.slave = self.link_lock = self.state_lock = None

    def run(self, interactive):
        self.app.boot()
        if not interactive:
            print("osada sim: serial port %s (link %s), state in %s" % (self.port, self.link, self.hw.state_dir),
                  flush=True)
            while True:
                self.app.tick()
                self.hw.serial.wait(4)
        screen = Screen(self.app)
        fd = sys.stdin.fileno()
        old = termios.tcgetattr(fd)
        try:
            tty.setcbreak(fd)
            sys.stdout.write("\x1b[?25l\x1b[2J")
            while True:
                self.app.tick()
                r, _, _ = select.select([fd], [], [], 0.004)
                if r:
                    keys = os.read(fd, 32)
                    if not self.keys(keys):
                        return
                else:
                    self.keyparser.expire()
                screen.draw()
        finally:
            termios.tcsetattr(fd, termios.TCSADRAIN, old)
            sys.stdout.write("\x1b[?25h\n")

    def keys(self, data, now=None):
        """Apply the keys in `data` (bytes read from the terminal); False on quit."""
        inp = self.hw.inputs
        for key in self.keyparser.feed(data, now):
            if key in (b"q", b"\x03"):
                return False
            if key in ("right", b"d"):
                inp.turn(1)
            elif key in ("left", b"a"):
                inp.turn(-1)
            elif key in (b"\r", b"\n", b" "):
                inp.press("action")
            elif key in (b"\x7f", b"\x08", b"b"):
                inp.press("back")
            elif key == b"A":
                inp.press("action", long=True)
            elif key == b"B":
                inp.press("back", long=True)
            elif key == b"r":
                inp.press("encoder")
            elif key == b"n":
                inp.press("encoder", long=True)
            elif key == b"g":
                inp.press_with("action", "back")      # ACTION + BACK held: the game menu
        return True


def main(args):
    try:
        sim = Simulator(link=args.link, state_dir=args.state, seed=args.seed,
                        config=getattr(args, "config", None) or DEFAULT_CONFIG)
    except ConfigError as exc:
        sys.stderr.write("osada sim: %s\n" % exc)
        return 2
    except SimBusy as exc:
        sys.stderr.write("osada sim: %s\n" % exc)
        return 3
    for sig in (signal.SIGTERM, signal.SIGHUP):   # a closed terminal, too: remove the link
        signal.signal(sig, lambda *_: sys.exit(0))
    interactive = sys.stdin.isatty() and sys.stdout.isatty() and not args.headless
    try:
        sim.run(interactive)
    except KeyboardInterrupt:
        pass
    finally:
        sim.close()
    return 0
