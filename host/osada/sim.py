"""`osada sim`: the firmware app on CPython with fake hardware.

Its serial side is a pseudo-terminal, symlinked at --link, so pyserial
clients (the monitor, `osada state`, your own scripts) connect to it exactly
as to a Pico.  In a terminal it draws the LEDs where they sit on the board
and maps keys to the encoder and the buttons."""

import json
import math
import os
import pty
import select
import signal
import sys
import termios
import time
import tty

from osada_fw.app import App
from osada_fw.config import load as load_config, led_count
from osada_fw.hal.fake import FakeHardware, FdSerial

from osada import paths

DEFAULT_CONFIG = paths.DEFAULT_CONFIG
DEFAULT_LINK = "/tmp/osada-sim"
DEFAULT_STATE = paths.SIM_STATE

KEYS_HELP = ("keys: ←/→ or a/d turn the encoder · Enter/space ACTION · Backspace/b BACK · "
             "A/B hold ACTION/BACK (play menu / undo) · r roll · n new game · q quit")


class Simulator:
    def __init__(self, link=DEFAULT_LINK, state_dir=DEFAULT_STATE, seed=None, config=DEFAULT_CONFIG):
        self.cfg = load_config(config)
        os.makedirs(state_dir, exist_ok=True)
        self.master, self.slave = pty.openpty()
        tty.setraw(self.slave)                 # bytes pass through untouched, like USB CDC
        attrs = termios.tcgetattr(self.slave)
        attrs[3] &= ~termios.ECHO
        termios.tcsetattr(self.slave, termios.TCSANOW, attrs)
        self.port = os.ttyname(self.slave)
        self.link = link
        if link:
            try:
                os.remove(link)
            except FileNotFoundError:
                pass
            os.symlink(self.port, link)
            with open(link + ".pid", "w") as f:       # lets clients tell a live link from a stale one
                f.write("%d\n" % os.getpid())
        self.hw = FakeHardware(led_count(self.cfg), state_dir, serial=FdSerial(self.master), seed=seed)
        self.app = App(self.hw, self.cfg)

    def close(self):
        if self.link:
            try:
                if os.path.islink(self.link) and os.readlink(self.link) == self.port:
                    os.remove(self.link)
                    os.remove(self.link + ".pid")
            except OSError:
                pass
        for fd in (self.master, self.slave):
            try:
                os.close(fd)
            except OSError:
                pass

    def run(self, interactive):
        self.app.boot()
        if not interactive:
            print("osada sim: serial port %s (link %s), state in %s" % (self.port, self.link, self.hw.state_dir),
                  flush=True)
            while True:
                self.app.tick()
                time.sleep(0.004)
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
                screen.draw()
        finally:
            termios.tcsetattr(fd, termios.TCSADRAIN, old)
            sys.stdout.write("\x1b[?25h\n")

    def keys(self, data):
        inp = self.hw.inputs
        i = 0
        while i < len(data):
            c = data[i:i + 1]
            if data[i:i + 3] in (b"\x1b[C", b"\x1b[D"):
                inp.turn(1 if data[i + 2:i + 3] == b"C" else -1)
                i += 3
                continue
            i += 1
            if c in (b"q", b"\x03"):
                return False
            if c == b"d":
                inp.turn(1)
            elif c == b"a":
                inp.turn(-1)
            elif c in (b"\r", b"\n", b" "):
                inp.press("action")
            elif c in (b"\x7f", b"\x08", b"b"):
                inp.press("back")
            elif c == b"A":
                inp.press("action", long=True)
            elif c == b"B":
                inp.press("back", long=True)
            elif c == b"r":
                inp.press("encoder")
            elif c == b"n":
                inp.press("encoder", long=True)
        return True


class Screen:
    """The virtual LEDs at their places on the board (layout polar positions)."""

    W = 61
    H = 25

    def __init__(self, app):
        self.app = app
        self.last = None
        lay = app.layout
        self.spots = []
        for i in range(lay.count):
            ang, rad = lay.polar(i)
            a = math.radians(ang)
            x = int(round(self.W / 2 + math.sin(a) * rad * (self.W / 2 - 3)))
            y = int(round(self.H / 2 - math.cos(a) * rad * (self.H / 2 - 1)))
            self.spots.append((x, y))

    def draw(self):
        frame = self.app.renderer.rgb_list()
        st = self.app.game.state()
        key = (json.dumps(frame), st["turn"], st["phase"], st["pending"] is not None)
        if key == self.last:
            return
        self.last = key
        grid = [[" "] * self.W for _ in range(self.H)]
        for (x, y), (r, g, b) in zip(self.spots, frame):
            if 0 <= y < self.H and 0 <= x < self.W:
                grid[y][x] = "\x1b[38;2;%d;%d;%dm●\x1b[0m" % (max(r, 40), max(g, 40), max(b, 40))
        lines = ["".join(row) for row in grid]
        head = "Osada simulator · turn %d · player %d · phase %d · pool %d · buildings %d/6 · %s" % (
            st["turn"], st["player"], st["phase"], st["pool"], len(st["buildings"]), st["outcome"])
        out = ["\x1b[H", head, ""] + lines + ["", KEYS_HELP]
        if st["pending"]:
            out.append("choose: %s" % (st["pending"],))
        sys.stdout.write("\x1b[K\n".join(out) + "\x1b[J")
        sys.stdout.flush()


def main(args):
    sim = Simulator(link=args.link, state_dir=args.state, seed=args.seed, config=args.config)
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
