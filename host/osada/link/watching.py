"""A device game mirrored in a terminal, without textual: what `osada tank
watch` and `osada warchest watch` share.  The game's own module says what
its lines are (a Watcher: game, say(), a count of what it printed, and
what to ask the device after a key); this one switches the device to the
game and back (--switch), starts the simulator (--start-sim), reads keys
as the device's buttons (the protocol's `press`, sent only while the game
runs: never another game's action) and polls the link until the count,
the time or the key q."""

import os
import sys
import time

from osada.link import ports, simproc
from osada.link.device import device_cmd
from osada.terminal import gamekeys
from osada.terminal.termkeys import KeyParser
from osada.words.game_names import game_name

# The keys for the device's buttons, the same in every game: ←/→ or a/d the
# encoder, Enter/Space ACTION, Backspace/b BACK, e the encoder's button,
# B/E held BACK/encoder (keys as osada.terminal.termkeys reads them: bytes, or an arrow's name).
KEYS = {"right": ("turn", 1), "left": ("turn", -1), b"d": ("turn", 1), b"a": ("turn", -1),
        b"\r": ("action", False), b"\n": ("action", False), b" ": ("action", False),
        b"\x7f": ("back", False), b"\x08": ("back", False), b"b": ("back", False), b"B": ("back", True),
        b"e": ("encoder", False), b"E": ("encoder", True)}
QUIT = (b"q", b"\x03")
UNKNOWN = "unknown"       # a key the terminal sent as a sequence this tool does not read (F5, Home…)
KEY_NAMES = {"up": "↑", "down": "↓", UNKNOWN: "that key", b"\t": "Tab", b"\x1b": "Esc"}


def key_name(key):
    """A key in words, for saying it does nothing."""
    if key in KEY_NAMES:
        return KEY_NAMES[key]
    if isinstance(key, bytes) and len(key) == 1 and key[0] < 0x20:
        return "Ctrl+" + chr(key[0] + 0x40)
    return "'%s'" % key.decode("utf-8", "replace") if isinstance(key, bytes) else key


def key_request(key, game=None):
    """The `press` request's fields for a key (as termkeys reads it, or the
    bytes of one key as typed: b"\x1b[C" is →), or None.  game: the game the
    device runs, whose own keys (the monitor's: terminal/gamekeys.py) are the
    ones that press its buttons, the knob's ←/→ a/d beside them."""
    if isinstance(key, bytes) and len(key) > 1:
        keys = KeyParser().feed(key)
        key = keys[0] if len(keys) == 1 else None
    own = gamekeys.table(game)
    if own is not None:
        if key in own:
            what, arg = own[key]
            return {"turn": arg} if what == "turn" else {"button": arg, "long": what == "long"}
        if key not in ("right", "left", b"d", b"a"):
            return None
    k = KEYS.get(key)
    if k is None:
        return None
    if k[0] == "turn":
        return {"turn": k[1]}
    return {"button": k[0], "long": k[1]}


def enter(link, watcher, switch, shows):
    """Make the device run the watcher's game (watcher.GAME; watcher.game
    is what runs now) if `switch`; else, when another runs, say why nothing
    shows yet (`shows`: what would).  Returns (the game to switch back to,
    or None; an exit code, or None to go on)."""
    gid = watcher.GAME
    if watcher.game == gid:
        return None, None
    if not switch:
        watcher.say("the device runs %s: %s once it runs %s, and the keys drive it only then (--switch "
                    "switches it; or the game menu: hold ACTION and BACK)"
                    % (game_name(watcher.game, short=True), shows, game_name(gid, short=True)))
        return None, None
    reply = link.request("game", game=gid)
    if not reply.get("ok"):
        watcher.say("could not switch the device to %s: %s" % (game_name(gid, short=True), reply.get("error")))
        return None, 1
    back = watcher.game
    watcher.game = gid
    return back, None


def switch_back(link, back):
    """--switch is for the session: the game that ran before, again."""
    if back is not None and link.connected:
        try:
            link.request("game", game=back)
        except (OSError, TimeoutError):
            pass


def loop(link, watcher, printed, count, seconds, keys, refresh):
    """Poll until printed() reaches count, seconds pass, or the key q;
    keys() returns what one read of the terminal holds (bytes) or None: each
    key in it goes to press(), and one that means nothing is said; refresh() runs each round (asks the device what
    the watcher wants shown).  Returns the exit code."""
    end = time.monotonic() + seconds if seconds else None
    parser = KeyParser(unknown=UNKNOWN)      # one read may hold several keys: each is pressed
    while count is None or printed() < count:
        if end is not None and time.monotonic() > end:
            break
        if not link.connected:
            watcher.say("the device went away")
            return 1
        link.poll()
        if keys is not None:
            data = keys()
            for key in parser.feed(data) if data else parser.expire():
                if key in QUIT:
                    return 0
                fields = key_request(key, watcher.GAME)
                if fields is None:
                    watcher.say("%s does nothing here (the keys are listed above; q quits)" % key_name(key))
                elif press(link, watcher, fields):
                    watcher.pressed(fields)
        if link.connected:
            refresh()
        time.sleep(0.01)
    return 0


def press(link, watcher, fields):
    """A key as the device's button, only while it runs the watcher's game.
    True if it was sent."""
    gid = watcher.GAME
    if watcher.game != gid:
        watcher.say("that key does nothing: the device runs %s, not %s (--switch, or the game menu: hold "
                    "ACTION and BACK)" % (game_name(watcher.game, short=True), game_name(gid, short=True)))
        return False
    try:
        link.send("press", **fields)
    except OSError:
        return False                    # the loop says the device went away
    return True


class TerminalGone(Exception):
    """The terminal hung up (its window closed, the ssh link dropped): the watch ends as on q.
    Under `make run` make takes the SIGHUP and waits, and the watch polled on unseen."""


def tty_keys():
    """A function returning the bytes waiting on stdin (one key or several), or None;
    TerminalGone where the terminal has hung up (a read of nothing)."""
    import select
    fd = sys.stdin.fileno()

    def read():
        r, _, _ = select.select([fd], [], [], 0)
        if not r:
            return None
        try:
            data = os.read(fd, 1024)
        except OSError:
            data = b""
        if not data:
            raise TerminalGone()
        return data
    return read


def with_sim(fn, args):
    """Run fn(args) as a device command; with --start-sim and no device
    found, on a simulator started for it (and stopped after)."""
    proc = None
    if args.start_sim and args.port in (None, "auto"):
        if ports.find_device() is None:
            proc = simproc.SimProcess()
            proc.start()
            why = proc.wait_for(lambda: ports.find_device() is not None)
            if why is not None:                         # its config refused, say: the whole reason
                sys.stderr.write("osada: %s\n" % why)
                proc.stop()
                return 2
    try:
        return device_cmd(fn)(args)
    finally:
        if proc is not None:
            proc.stop()


def interactive(link, watcher, args, keys_help, run):
    """run(keys) with the terminal in cbreak mode when it is one (and not
    --no-keys), the keys' help said first; the link closed after."""
    on = sys.stdin.isatty() and not args.no_keys
    old = None
    try:
        if on:
            import termios
            import tty
            old = termios.tcgetattr(sys.stdin.fileno())
            tty.setcbreak(sys.stdin.fileno())
            watcher.say(keys_help)
        return run(tty_keys() if on else None)
    except (KeyboardInterrupt, TerminalGone):
        return 0
    finally:
        if old is not None:
            import termios
            try:
                termios.tcsetattr(sys.stdin.fileno(), termios.TCSADRAIN, old)
            except (termios.error, OSError):
                pass                                   # a terminal that hung up has no mode to restore
        link.close()
