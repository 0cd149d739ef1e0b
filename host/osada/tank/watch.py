"""`osada tank watch`: the device's «Кубики» rolls live, with their odds.

Every roll the device pushes ({"ev": "roll", "test": ...}, osada_fw/tank/mode.py)
is printed as one line: what was rolled and its result, then the odds of that
result computed exactly by shared_rules.tank.odds ("5 hits: you had a 36.9%
chance of 5 or more"), and the ring as the device shows it (rolls.lines_for).
--log FILE appends each roll as one JSON line (`osada tank replay FILE`
prints it again: rolls.py).

Interactive (a terminal): keys drive the device like its own buttons, through
the protocol's `press` request: ←/→ the encoder, Enter/Space ACTION,
Backspace/b BACK, e the encoder's button, B/E held BACK/encoder, q quits.
They are sent only while the device runs Tank battle (never another game's
action), and after each the device's test and numbers are printed when they
changed, the one the encoder turns in [brackets] (tank_rolls.setting_line).
"""

import json
import os
import sys
import time

from osada.link import ports, simproc
from osada.link.device import device_cmd, open_link
from osada.tank.rolls import is_tank_roll, lines_for
from osada.words.game_names import game_name
from osada.words.tank_rolls import setting_line

KEYS = {b"\x1b[C": ("turn", 1), b"\x1b[D": ("turn", -1), b"d": ("turn", 1), b"a": ("turn", -1),
        b"\r": ("action", False), b"\n": ("action", False), b" ": ("action", False),
        b"\x7f": ("back", False), b"\x08": ("back", False), b"b": ("back", False), b"B": ("back", True),
        b"e": ("encoder", False), b"E": ("encoder", True)}


def key_request(key):
    """The `press` request's fields for a key, or None."""
    k = KEYS.get(key)
    if k is None:
        return None
    if k[0] == "turn":
        return {"turn": k[1]}
    return {"button": k[0], "long": k[1]}


class Watcher:
    """Prints the tank rolls of one Link and logs them.  Feed it messages (on_message)."""

    def __init__(self, out, log_path=None):
        self.out = out
        self.log = open(log_path, "a", encoding="utf-8") if log_path else None
        self.rolls = 0
        self.game = None
        self.setting = None            # the last setting_line shown
        self.want_setting = False      # the device's test and numbers are to be asked for and shown

    def on_message(self, msg):
        if msg.get("ev") == "game":
            self.game = msg.get("game")
            self.say("the device now runs %s" % game_name(self.game, short=True))
            self.setting = None
            self.want_setting = self.game == "tank"
        if not is_tank_roll(msg):
            return
        self.rolls += 1
        for line in lines_for(msg, ring=True):
            self.say(line)
        if self.log is not None:
            rec = dict(msg)
            rec["time"] = round(time.time(), 3)
            self.log.write(json.dumps(rec, ensure_ascii=False) + "\n")
            self.log.flush()

    def show_setting(self, st):
        """Print the device's test and numbers when they changed (a key turned the encoder...)."""
        line = setting_line(st)
        if line != self.setting:
            self.setting = line
            self.say("  now: " + line)

    def say(self, line):
        self.out.write(line + "\n")
        self.out.flush()

    def close(self):
        if self.log is not None:
            self.log.close()
            self.log = None


def watch(link, watcher, switch=False, count=None, seconds=None, keys=None):
    """Mirror the rolls of the connected link until `count` rolls, `seconds`,
    or (keys: a function returning key bytes or None) the key q."""
    hello = link.mirror.hello or {}
    watcher.game = hello.get("game")
    back = None
    if watcher.game != "tank":
        if switch:
            reply = link.request("game", game="tank")
            if not reply.get("ok"):
                watcher.say("could not switch the device to the tank game: %s" % reply.get("error"))
                return 1
            back = watcher.game
            watcher.game = "tank"
        else:
            watcher.say("the device runs %s: its rolls show here once it runs Tank battle, and the keys "
                        "drive it only then (--switch switches it; or the game menu: hold ACTION and BACK)"
                        % game_name(watcher.game, short=True))
    watcher.want_setting = watcher.game == "tank"
    link.on_message = watcher.on_message
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
    while count is None or watcher.rolls < count:
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
        if watcher.want_setting and link.connected:
            _ask_setting(link, watcher)
        time.sleep(0.01)
    return 0


def _press(link, watcher, fields):
    """A key as the device's button -- only while it runs Tank battle: never
    another game's action (the encoder and ACTION mean other things in Siege)."""
    if watcher.game != "tank":
        watcher.say("that key does nothing: the device runs %s, not Tank battle (--switch, or the game "
                    "menu: hold ACTION and BACK)" % game_name(watcher.game, short=True))
        return
    try:
        link.send("press", **fields)
    except OSError:
        return                          # the loop says the device went away
    watcher.want_setting = True


def _ask_setting(link, watcher):
    watcher.want_setting = False
    try:
        reply = link.request("state")
    except (OSError, TimeoutError):
        return
    if reply.get("ok") and isinstance(reply.get("tank"), dict):
        watcher.show_setting(reply["tank"])


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
    watcher = Watcher(sys.stdout, args.log)
    interactive = sys.stdin.isatty() and not args.no_keys
    old = None
    try:
        if interactive:
            import termios
            import tty
            old = termios.tcgetattr(sys.stdin.fileno())
            tty.setcbreak(sys.stdin.fileno())
            watcher.say("keys: <- -> change what is in [brackets] (the test, then its numbers) · e next number · "
                        "Backspace previous · Enter roll · B new game turn (protection back, T17) · "
                        "E every number back to its default · q quit")
        return watch(link, watcher, switch=args.switch, count=args.count, seconds=args.seconds,
                     keys=_tty_keys() if interactive else None)
    except KeyboardInterrupt:
        return 0
    finally:
        if old is not None:
            import termios
            termios.tcsetattr(sys.stdin.fileno(), termios.TCSADRAIN, old)
        watcher.close()
        link.close()
