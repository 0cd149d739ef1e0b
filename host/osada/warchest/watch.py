"""`osada warchest watch`: the device's War Chest round tracker
(osada_fw/warchest/mode.py) mirrored live, without textual.

Every change the device pushes ({"ev": "warchest", ...}: an action done,
the initiative claimed, a count fixed, an undo, a new game) is printed as
one line saying what happened, then the round, each player's coins in hand
and control markers to place, the initiative and whose action it is
(device_words.py); a refused press as the rule that refused it.

Interactive (a terminal): keys press the device's buttons through the
protocol's `press` request: Enter/Space ACTION (action done), b/Backspace
BACK (initiative claimed), ←/→ or a/d the encoder (fix a count), e the
encoder's button (the next count), B held BACK (undo), E held encoder (a new
game, the initiative flipped), q quits.  They are sent only while the device
runs War Chest (never another game's action); after one, what the encoder
fixes is printed when it changed.
"""

import os
import sys
import time

from osada.link import ports, simproc
from osada.link.device import device_cmd, open_link
from osada.words.game_names import game_name

from .device_words import event_line, flip_line, status_lines

GAME = "warchest"
KEYS = {b"\x1b[C": ("turn", 1), b"\x1b[D": ("turn", -1), b"d": ("turn", 1), b"a": ("turn", -1),
        b"\r": ("action", False), b"\n": ("action", False), b" ": ("action", False),
        b"\x7f": ("back", False), b"\x08": ("back", False), b"b": ("back", False), b"B": ("back", True),
        b"e": ("encoder", False), b"E": ("encoder", True)}
KEYS_HELP = ("keys: Enter action done · b claim initiative · <- -> fix a count · e next count · B undo · "
             "E new game · q quit")


def key_request(key):
    """The `press` request's fields for a key, or None."""
    k = KEYS.get(key)
    if k is None:
        return None
    if k[0] == "turn":
        return {"turn": k[1]}
    return {"button": k[0], "long": k[1]}


class Watcher:
    """Prints the tracker's changes of one Link.  Feed it messages (on_message)."""

    def __init__(self, out):
        self.out = out
        self.game = None
        self.state = None              # the counts last printed
        self.cursor = None             # what the encoder fixed when last asked
        self.changes = 0
        self.want_state = False        # the device's counts are to be asked for and shown
        self.want_cursor = False       # ... and what the encoder fixes (a key turned or pressed it)

    def on_message(self, msg):
        ev = msg.get("ev")
        if ev == "game":
            self.game = msg.get("game")
            self.say("the device now runs %s" % game_name(self.game, short=True))
            self.state = None
            self.want_state = self.game == GAME
        elif ev == "refused" and msg.get("game") == GAME:
            self.say(event_line(msg))
        elif ev == GAME and isinstance(msg.get(GAME), dict):
            self.changes += 1
            try:
                self.say(event_line(msg, self.state))
            except (KeyError, TypeError, IndexError):
                self.say("the device changed its counts (%s)" % msg.get("what"))
            self.show(msg[GAME])

    def show(self, st):
        """Print the counts."""
        try:
            lines = status_lines(st)
        except (KeyError, TypeError, IndexError):
            self.say("the device sent counts this tool cannot read: %r" % (st,))
            return
        for line in lines:
            self.say(line)
        self.state = st

    def show_cursor(self, st):
        """Print what the encoder fixes, if that changed."""
        if st.get("cursor") != self.cursor:
            self.cursor = st.get("cursor")
            self.say("  the encoder fixes: %s" % self.cursor)

    def counts_changed(self, st):
        keep = ("cursor", "undo")
        old = self.state or {}
        return {k: v for k, v in st.items() if k not in keep} != {k: v for k, v in old.items() if k not in keep}

    def say(self, line):
        self.out.write(line + "\n")
        self.out.flush()


def watch(link, watcher, switch=False, count=None, seconds=None, keys=None):
    """Mirror the tracker of the connected link until `count` changes,
    `seconds`, or (keys: a function returning key bytes or None) the key q."""
    watcher.game = link.request("game").get("game")     # what runs now (the link's hello may be older)
    back = None
    if watcher.game != GAME:
        if switch:
            reply = link.request("game", game=GAME)
            if not reply.get("ok"):
                watcher.say("could not switch the device to War Chest: %s" % reply.get("error"))
                return 1
            back = watcher.game
            watcher.game = GAME
        else:
            watcher.say("the device runs %s: its War Chest tracker shows here once it runs War Chest, and the "
                        "keys drive it only then (--switch switches it; or the game menu: hold ACTION and BACK)"
                        % game_name(watcher.game, short=True))
    link.on_message = watcher.on_message
    if watcher.game == GAME:
        _ask_state(link, watcher)                        # the counts before anything changes
    try:
        return _loop(link, watcher, count, seconds, keys)
    finally:
        if back is not None and link.connected:          # --switch is for the session
            try:
                link.request("game", game=back)
            except (OSError, TimeoutError):
                pass


def _loop(link, watcher, count, seconds, keys):
    end = time.monotonic() + seconds if seconds else None
    while count is None or watcher.changes < count:
        if end is not None and time.monotonic() > end:
            break
        if not link.connected:
            watcher.say("the device went away")
            return 1
        link.poll()
        if keys is not None:
            key = keys()
            if key in (b"q", b"\x03"):
                break
            fields = key_request(key) if key else None
            if fields is not None:
                _press(link, watcher, fields)
        if watcher.want_state and link.connected:
            _ask_state(link, watcher)
        time.sleep(0.01)
    return 0


def _press(link, watcher, fields):
    """A key as the device's button -- only while it runs War Chest: never
    another game's action (ACTION and BACK mean other things in Siege)."""
    if watcher.game != GAME:
        watcher.say("that key does nothing: the device runs %s, not War Chest (--switch, or the game "
                    "menu: hold ACTION and BACK)" % game_name(watcher.game, short=True))
        return
    try:
        link.send("press", **fields)
    except OSError:
        return                          # the loop says the device went away
    watcher.want_state = True
    watcher.want_cursor = "turn" in fields or fields.get("button") == "encoder"


def _ask_state(link, watcher):
    watcher.want_state = False
    try:
        reply = link.request("state")
    except (OSError, TimeoutError):
        return
    st = reply.get(GAME)
    if reply.get("ok") and isinstance(st, dict):
        if watcher.state is None and st.get("flipped") and st.get("round") == 1 and not st.get("undo"):
            watcher.say(flip_line(st))                   # a game the device has just begun
        if watcher.counts_changed(st):
            watcher.show(st)
        if watcher.want_cursor:
            watcher.want_cursor = False
            watcher.show_cursor(st)


def _tty_keys():
    import select
    fd = sys.stdin.fileno()

    def read():
        r, _, _ = select.select([fd], [], [], 0)
        return os.read(fd, 8) if r else None
    return read


def cmd_watch(args):
    proc = None
    if args.start_sim and args.port in (None, "auto"):
        if ports.find_device() is None:
            proc = simproc.SimProcess()
            proc.start()
            for _ in range(100):
                if ports.find_device() is not None:
                    break
                time.sleep(0.1)
    try:
        return device_cmd(_watch_args)(args)
    finally:
        if proc is not None:
            proc.stop()


def _watch_args(args):
    link = open_link(args)
    watcher = Watcher(sys.stdout)
    interactive = sys.stdin.isatty() and not args.no_keys
    old = None
    try:
        if interactive:
            import termios
            import tty
            old = termios.tcgetattr(sys.stdin.fileno())
            tty.setcbreak(sys.stdin.fileno())
            watcher.say(KEYS_HELP)
        return watch(link, watcher, switch=args.switch, count=args.count, seconds=args.seconds,
                     keys=_tty_keys() if interactive else None)
    except KeyboardInterrupt:
        return 0
    finally:
        if old is not None:
            import termios
            termios.tcsetattr(sys.stdin.fileno(), termios.TCSADRAIN, old)
        link.close()
