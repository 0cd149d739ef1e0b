"""`osada sim`: the firmware app on CPython with fake hardware.

Its serial side is a pseudo-terminal, symlinked at --link, so pyserial
clients (the monitor, `osada state`, your own scripts) connect to it exactly
as to a Pico.  In a terminal it draws the LEDs where they sit on the board
and maps keys to the encoder and the buttons.

One state directory (the game journal) has at most one simulator, and a
link belongs to the simulator that made it: both are flocks held while it
runs (Simulator); a second one is refused with the holder's pid."""

import math
import os
import pty
import select
import signal
import sys
import termios
import time
import tty

from osada import paths
from osada.client import SIM_LINK
from osada_fw.app import App
from osada_fw.config import led_count
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
    lock (client.sim_owner), is waited for a little."""
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
        from osada.client import describe_sim
        self.cfg = load_config(config)
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
                _write_lock(self.link_lock, "%d\n" % os.getpid())   # clients tell a live link from a stale one
                tmp = "%s.new%d" % (link, os.getpid())
                try:
                    os.remove(tmp)
                except FileNotFoundError:
                    pass
                os.symlink(self.port, tmp)
                os.replace(tmp, link)              # re-pointed in one step: never missing
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
        return True


class KeyParser:
    """Terminal bytes -> keys.  An escape sequence is one key, never its
    letters: ESC [ A (and ESC O A, as terminals in application mode send it)
    is "up", not a press of A.  Keys: one-byte bytes objects (b"a", b"\r"),
    or "up", "down", "right", "left"; other sequences (F-keys, Home, Alt+x,
    mouse reports) are dropped whole.  A sequence split across reads is
    completed by the next feed(); a lone ESC is dropped once `expire(now)`
    finds it older than ESC_WAIT seconds."""

    ESC_WAIT = 0.3
    ARROWS = {b"A": "up", b"B": "down", b"C": "right", b"D": "left"}

    def __init__(self):
        self.pending = b""
        self.since = 0.0

    def feed(self, data, now=None):
        now = time.monotonic() if now is None else now
        if not self.pending:
            self.since = now
        buf = self.pending + bytes(data)
        self.pending = b""
        keys = []
        i = 0
        n = len(buf)
        while i < n:
            if buf[i] != 0x1B:
                keys.append(buf[i:i + 1])
                i += 1
                continue
            end, key = self._escape(buf, i)
            if end is None:                       # incomplete: wait for the rest
                self.pending = buf[i:]
                if i:
                    self.since = now
                break
            if key is not None:
                keys.append(key)
            i = end
        return keys

    def _escape(self, buf, i):
        """(index after the sequence starting at buf[i] == ESC, its key or None);
        (None, None) when the buffer ends inside it."""
        n = len(buf)
        if i + 1 >= n:
            return None, None
        kind = buf[i + 1:i + 2]
        if kind == b"O":                          # SS3: one final byte
            if i + 2 >= n:
                return None, None
            return i + 3, self.ARROWS.get(buf[i + 2:i + 3])
        if kind == b"[":                          # CSI: parameters, intermediates, a final byte
            j = i + 2
            while j < n and 0x20 <= buf[j] <= 0x3F:
                j += 1
            if j >= n:
                return None, None
            if not 0x40 <= buf[j] <= 0x7E:        # malformed: drop what was read so far
                return j, None
            return j + 1, self.ARROWS.get(buf[j:j + 1])
        if kind == b"\x1b":                       # ESC ESC: the first one was a lone Escape
            return i + 1, None
        return i + 2, None                        # Alt+key: not one of ours

    def expire(self, now=None):
        """Drop an unfinished sequence (a lone Escape key) after ESC_WAIT s."""
        now = time.monotonic() if now is None else now
        if self.pending and now - self.since > self.ESC_WAIT:
            self.pending = b""


WIDTH = 80                  # the window must not wrap on an 80-column terminal
MIN_COLS, MIN_ROWS = 80, 24  # the smallest terminal the window fits; below it says so
KEYS_HELP_LINES = (
    "keys: ←/→ or a/d turn · Enter/space ACTION · Backspace/b BACK · r roll",
    "      A hold ACTION (play menu) · B hold BACK (undo) · n new game · q quit",
)
LINE_TAGS = {0: "R", 1: "A", 2: "G", 3: "T", "wall": "W", "city": "C"}
LEGEND = "R rear · A air · G artillery · T tank · W wall · C city · sectors 1-6 clockwise"
# the same, down the board's left margin when the board leaves room for it
LEGEND_COLUMN = ("R rear", "A air", "G artillery", "T tank", "W wall", "C city", "", "sectors 1-6", "clockwise")
MARGIN_LEGEND_MAX_H = 22    # the tallest board that leaves its left margin to the legend
BOARD_MAX_H = 31            # the tallest board (width ~2.44 x height, to look round): 77 columns
OFF_RGB = (110, 110, 110)   # an unlit LED: still visible on a dark terminal
MIN_LIT = 170               # a lit LED's brightest channel is shown at least this bright
_ANSI = None


def visible_len(line):
    """Columns a line takes on the terminal (its ANSI colour codes take none)."""
    global _ANSI
    if _ANSI is None:
        import re
        _ANSI = re.compile(r"\x1b\[[0-9;?]*[A-Za-z]")
    return len(_ANSI.sub("", line))


def fit(text, width=WIDTH):
    return text if len(text) <= width else text[:width - 1] + "…"


def _window(items, sel, width):
    """items joined by spaces, cut to `width` around the selected one."""
    text = " ".join(items)
    if len(text) <= width:
        return text
    lo = hi = sel
    used = len(items[sel])
    while True:
        grown = False
        for k in (hi + 1, lo - 1):
            if 0 <= k < len(items) and not lo <= k <= hi and used + 1 + len(items[k]) <= width - 4:
                used += 1 + len(items[k])
                lo, hi = min(lo, k), max(hi, k)
                grown = True
        if not grown:
            break
    return ("… " if lo > 0 else "") + " ".join(items[lo:hi + 1]) + (" …" if hi < len(items) - 1 else "")


def display_rgb(r, g, b):
    """The LED's wire colour made readable on a screen: the wire values are
    dimmed (brightness, gamma) for eyes a hand's length from real LEDs, so a lit
    LED keeps its hue and is brought up to at least MIN_LIT; None when off."""
    m = max(r, g, b)
    if m == 0:
        return None
    target = MIN_LIT + (255 - MIN_LIT) * m // 255
    return tuple(min(255, (c * target + m // 2) // m) for c in (r, g, b))


class Layout:
    """Where the window's parts go in a terminal of `cols` x `rows`: the board
    (H rows of W columns, `pad` columns in from the left, from row `top`), the
    legend down the board's left margin (`margin_legend`) or as a line under
    it, and `small` when the terminal is below MIN_COLS x MIN_ROWS.  At 80x24:
    3 header lines, a 19-row board with the legend beside it, 2 lines of keys;
    a taller terminal gets a bigger board (up to BOARD_MAX_H rows)."""

    HEADER = 3

    def __init__(self, cols=MIN_COLS, rows=MIN_ROWS):
        self.cols, self.rows = cols, rows
        self.small = cols < MIN_COLS or rows < MIN_ROWS
        fixed = self.HEADER + len(KEYS_HELP_LINES)
        self.margin_legend = rows - fixed <= MARGIN_LEGEND_MAX_H
        self.H = min(rows - fixed - (0 if self.margin_legend else 1), BOARD_MAX_H)
        self.W = int(round(self.H * 61 / 25)) | 1     # 61 x 25 looks round on the usual terminal font
        self.pad = (WIDTH - self.W) // 2
        self.top = self.HEADER


class Screen:
    """The virtual LEDs at their places on the board (layout polar positions),
    each tagged with its line (R/A/G/T, W wall, C city), the sectors numbered
    around the edge; above them the game, and what the device's UI is doing
    (play cursor, a menu, a choice), so the new-game menu reads as a menu.
    It fits the terminal (Layout): 80x24 at least, a bigger board when taller."""

    def __init__(self, app):
        self.app = app
        self.last = None
        lay = app.layout
        self.polar = [lay.polar(i) for i in range(lay.count)]
        self.tags = [LINE_TAGS.get(lay.cell_of(i)[1], "?") for i in range(lay.count)]
        self.places = {}

    def _xy(self, ang, rad, W, H):
        a = math.radians(ang)
        x = int(round(W / 2 + math.sin(a) * rad * (W / 2 - 3)))
        y = int(round(H / 2 - math.cos(a) * rad * (H / 2 - 1)))
        return min(max(x, 0), W - 2), min(max(y, 0), H - 1)

    def spots(self, W, H):
        """(the LEDs' (x, y), the sector numbers' (x, y)) on a W x H board."""
        if (W, H) not in self.places:
            self.places[W, H] = ([self._xy(a, r, W, H) for a, r in self.polar],
                                 [self._xy((s - 1) * 60, 1.08, W, H) for s in range(1, 7)])
        return self.places[W, H]

    # --------------------------------------------------------------- text

    def game_line(self, st):
        text = "Osada simulator · turn %d · player %d · phase %d · pool %d · buildings %d/6" % (
            st["turn"], st["player"], st["phase"], st["pool"], len(st["buildings"]))
        if st["outcome"] != "playing":
            text += " · " + str(st["outcome"]).upper()
        return fit(text)

    def ui_lines(self, st):
        """What the device UI is doing and what the buttons do now (two lines),
        from the UI's own state."""
        from osada_fw import ui as U
        ui = self.app.ui
        if self.app.selftest_led is not None:
            return "SELF-TEST · LED %d lit" % self.app.selftest_led, "any button stops it"
        if ui.mode == U.M_MENU and ui.menu is not None:
            kind, items, picked = ui.menu
            title, hint = {
                "players": ("NEW GAME 1/3 · players", "turn to pick · ACTION takes · BACK cancels"),
                "mode": ("NEW GAME 2/3 · mode", "turn to pick · ACTION takes · BACK cancels"),
                "variants": ("NEW GAME 3/3 · variants", "turn to pick · ACTION toggles (+) · BACK starts the game"),
                "play": ("PLAY MENU", "turn to pick · ACTION does it · BACK cancels"),
                "marshal": ("MARSHAL · tokens", "turn to pick · ACTION toggles (+) · BACK plays them"),
                "sector": ("MARSHAL · sector", "turn to pick · ACTION places · BACK cancels"),
            }.get(kind, ("MENU " + str(kind), "ACTION takes · BACK cancels"))
            shown = []
            for k, item in enumerate(items):
                name = str(item)
                if picked is not None and picked[k]:
                    name = "+" + name
                shown.append("[%s]" % name if k == ui.sel else name)
            return fit("%s: %s" % (title, _window(shown, ui.sel, WIDTH - len(title) - 2))), hint
        pending = st.get("pending")
        if pending is not None and pending.get("choice") == "damage":
            cands = pending.get("candidates") or []
            pick = cands[ui.cand % len(cands)] if cands else "?"
            return (fit("CHOOSE which enemy takes the damage: #%s (of %s)"
                        % (pick, ", ".join("#%s" % c for c in cands))), "turn to cycle · ACTION picks")
        if pending is not None:
            return fit("CHOOSE: %s" % (pending.get("choice"),)), "ACTION opens the tokens"
        from shared_rules.catalog import LINES
        sector, part = ui.cursor // 5 + 1, ui.cursor % 5
        return ("PLAY · cursor: sector %d, %s" % (sector, LINES[part]),
                "ACTION hit/reveal · BACK move/end turn · hold A/B: menu/undo")

    # ------------------------------------------------------------ drawing

    def render(self, cols=MIN_COLS, rows=MIN_ROWS):
        """The window as lines of text (ANSI colours) for a terminal of `cols`
        x `rows`: at most `rows` lines, none wider than WIDTH (nor `cols`)."""
        st = self.app.game.state()
        lay = Layout(cols, rows)
        if lay.small:
            import textwrap
            say = textwrap.wrap("Make this window at least %d×%d to see the board (it is %d×%d). q quits."
                                % (MIN_COLS, MIN_ROWS, cols, rows), max(cols, 10))
            return (say + [fit(self.game_line(st), cols)])[:rows]
        lines = [self.game_line(st)] + list(self.ui_lines(st))
        margin = [""] * lay.H
        if lay.margin_legend:
            first = (lay.H - len(LEGEND_COLUMN)) // 2
            margin[first:first + len(LEGEND_COLUMN)] = LEGEND_COLUMN
        lines += [(m.ljust(lay.pad) + "".join(row)).rstrip() for m, row in zip(margin, self.board(lay.W, lay.H))]
        if not lay.margin_legend:
            lines.append(LEGEND)
        lines += list(KEYS_HELP_LINES)
        return lines

    def board(self, W, H):
        """The LEDs on a W x H grid of cells (each one character, maybe with its colour)."""
        frame = self.app.renderer.rgb_list()
        leds, sectors = self.spots(W, H)
        grid = [[" "] * W for _ in range(H)]
        for s, (x, y) in enumerate(sectors, 1):
            grid[y][x] = "\x1b[1m%d\x1b[0m" % s
        for (x, y), (r, g, b), tag in zip(leds, frame, self.tags):
            rgb = display_rgb(r, g, b)
            if rgb is None:
                grid[y][x] = "\x1b[38;2;%d;%d;%dm○\x1b[0m" % OFF_RGB
            else:
                grid[y][x] = "\x1b[1;38;2;%d;%d;%dm●\x1b[0m" % rgb
            if x + 1 < W and grid[y][x + 1] == " ":
                grid[y][x + 1] = tag
        return grid

    def draw(self, size=None):
        """Redraw the window when anything on it changed (the terminal's size too)."""
        import shutil
        cols, rows = size or shutil.get_terminal_size((MIN_COLS, MIN_ROWS))
        ui = self.app.ui
        menu = ui.menu
        key = (cols, rows, tuple(tuple(c) for c in self.app.renderer.rgb_list()), id(self.app.game),
               len(self.app.game.log), self.app.game.pending is not None, ui.mode, ui.sel, ui.cand, ui.cursor,
               None if menu is None else (menu[0], tuple(menu[2] or ())), self.app.selftest_led)
        if key == self.last:
            return
        self.last = key
        sys.stdout.write("\x1b[H" + "\x1b[K\n".join(self.render(cols, rows)) + "\x1b[K\x1b[J")
        sys.stdout.flush()


def main(args):
    try:
        sim = Simulator(link=args.link, state_dir=args.state, seed=args.seed, config=args.config)
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
