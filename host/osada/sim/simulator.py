"""`osada sim`: the firmware app on CPython with fake hardware.

Its serial side is a pseudo-terminal, symlinked at --link, so pyserial
clients (the monitor, `osada state`, your own scripts) connect to it exactly
as to a Pico.  In a terminal it draws the LEDs where they sit on the board
and maps keys to the encoder and the buttons.

One state directory (the game journal) has at most one simulator, and a
link belongs to the simulator that made it: both are flocks held while it
runs (ptylink.PtyLink, which `osada device` shares); a second one is refused
with the holder's pid."""

import os
import select
import signal
import sys
import termios
import time
import tty

from osada.files import paths
from osada.files.config_file import read_config
from osada.link.ports import SIM_LINK
from osada.link.simproc import PARENT_ENV
from osada.sim.ptylink import PtyLink, SimBusy  # noqa: F401  (SimBusy: raised through Simulator)
from osada.sim.view import Screen
from osada.terminal import gamekeys
from osada.terminal.termkeys import KeyParser
from osada_fw.app import App
from osada_fw.config import ConfigError, led_count
from osada_fw.config import load as load_config
from osada_fw.hal.fake import FakeHardware, FdSerial

DEFAULT_CONFIG = paths.DEFAULT_CONFIG
DEFAULT_STATE = paths.SIM_STATE


class ParentWatch:
    """A headless simulator started by a tool (simproc.SimProcess: its pid in
    PARENT_ENV) leaves when that tool is gone, however it went (kill -9 too):
    its parent is then another process.  Asked each round, it looks every
    `every` s; started by hand (no PARENT_ENV) it never says gone."""

    def __init__(self, environ=None, every=0.5):
        pid = (os.environ if environ is None else environ).get(PARENT_ENV, "")
        self.parent = int(pid) if pid.isdigit() else None
        self.every = every
        self.next = 0.0

    def gone(self):
        if self.parent is None:
            return False
        now = time.monotonic()
        if now < self.next:
            return False
        self.next = now + self.every
        return os.getppid() != self.parent


class Simulator:
    """One simulated device: a pty (linked at `link`) and the app on fake
    hardware, its journal in `state_dir`.  One state directory has at most one
    simulator (a flock on state_dir/sim.lock), and a link belongs to the
    simulator that holds the flock on link + ".pid": a second one raises
    SimBusy, saying which process holds it, and never touches the first's
    link or journal.  `game`: a game of the device's registry to run once it
    has booted (`osada victory sim`), not remembered as the players' choice."""

    def __init__(self, link=SIM_LINK, state_dir=DEFAULT_STATE, seed=None, config=DEFAULT_CONFIG, game=None):
        # before anything is taken: a bad one leaves nothing.  The default file may be missing, as on the device
        missing_default = config == DEFAULT_CONFIG and not os.path.exists(config)
        self.cfg = load_config(config) if missing_default else read_config(config)
        self.pty = PtyLink(link, state_dir)        # SimBusy if another has the directory or the link
        self.hw = FakeHardware(led_count(self.cfg), state_dir, serial=FdSerial(self.pty.master), seed=seed)
        self.app = App(self.hw, self.cfg)
        self.keyparser = KeyParser()
        self.game = game

    # the pty's ends and names (ptylink.PtyLink): None once closed
    link = property(lambda self: self.pty.link)
    port = property(lambda self: self.pty.port)
    master = property(lambda self: self.pty.master)
    slave = property(lambda self: self.pty.slave)

    def close(self):
        self.pty.close()

    def start(self):
        """Boot the app; then the game asked for, if any."""
        self.app.boot()
        if self.game is not None:
            from osada_fw import gamemenu
            gamemenu.switch(self.app, self.game, save=False)

    def run(self, interactive):
        self.start()
        if not interactive:
            print("osada sim: serial port %s (link %s), state in %s" % (self.port, self.link, self.hw.state_dir),
                  flush=True)
            watch = ParentWatch()
            while not watch.gone():
                self.app.tick()
                self.hw.serial.wait(4)
            return
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
        game = gamekeys.table(gamekeys.working(self.app))
        for key in self.keyparser.feed(data, now):
            if key in (b"q", b"\x03"):
                return False
            if game is not None and key in game:       # the game's own keys, as the monitor's (gamekeys.py)
                what, arg = game[key]
                if what == "turn":
                    inp.turn(arg)
                else:
                    inp.press(arg, long=what == "long")
            elif game is not None and key not in ("right", b"d", "left", b"a", b"g"):
                continue                              # not a key of this game's
            elif key in ("right", b"d"):
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
                        config=getattr(args, "config", None) or DEFAULT_CONFIG, game=getattr(args, "game", None))
    except ConfigError as exc:
        sys.stderr.write("osada: sim: %s\n" % exc)
        return 2
    except SimBusy as exc:
        sys.stderr.write("osada: sim: %s\n" % exc)
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
