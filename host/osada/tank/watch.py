"""`osada tank watch`: the device's «Кубики» rolls live, with their odds.

Every roll the device pushes ({"ev": "roll", "test": ...}, osada_fw/tank/mode.py)
is printed as one line: what was rolled and its result, then the odds of that
result computed exactly by shared_rules.tank.odds ("5 hits: you had a 36.9%
chance of 5 or more"), and the ring as the device shows it (rolls.lines_for).
--log FILE appends each roll as one JSON line (`osada tank replay FILE`
prints it again: rolls.py).

Interactive (a terminal): the monitor's Tank battle keys (osada/tank/keys.py),
each pressing the device's button that does it through the protocol's `press`
request (terminal/gamekeys.py): ↑/↓ mark the test or a number, ←/→ or +/− change
it, o/Enter roll, t a new game turn, d the defaults; q quits.  They are sent
only while the device runs Tank battle (never another game's action), and after
each the device's test and numbers are printed when they changed, the one the
encoder turns in [brackets] (tank_rolls.setting_line).
"""

import json
import sys
import time

from osada.link import watching
from osada.link.device import open_link
from osada.link.watching import KEYS, key_request  # noqa: F401  (this command's keys: the shared ones)
from osada.tank.rolls import is_tank_roll, lines_for
from osada.terminal import gamekeys
from osada.words.game_names import game_name
from osada.words.tank_rolls import setting_line

KEYS_HELP = " ".join(line.strip() for line in gamekeys.help_lines("tank", 1000, common=("q quit",)))


class Watcher:
    """Prints the tank rolls of one Link and logs them.  Feed it messages (on_message)."""

    GAME = "tank"

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

    def pressed(self, fields):
        self.want_setting = True       # show the test and numbers if the key changed them

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
    back, code = watching.enter(link, watcher, switch, "its rolls show here")
    if code is not None:
        return code
    watcher.want_setting = watcher.game == "tank"
    link.on_message = watcher.on_message
    try:
        return watching.loop(link, watcher, lambda: watcher.rolls, count, seconds, keys,
                             lambda: _ask_setting(link, watcher))
    finally:
        watching.switch_back(link, back)


def _ask_setting(link, watcher):
    if not watcher.want_setting:
        return
    watcher.want_setting = False
    try:
        reply = link.request("state")
    except (OSError, TimeoutError):
        return
    if reply.get("ok") and isinstance(reply.get("tank"), dict):
        watcher.show_setting(reply["tank"])


def cmd_watch(args):
    return watching.with_sim(_watch_args, args)


def _watch_args(args):
    link = open_link(args)
    watcher = Watcher(sys.stdout, args.log)
    try:
        return watching.interactive(link, watcher, args, KEYS_HELP,
                                    lambda keys: watch(link, watcher, switch=args.switch, count=args.count,
                                                       seconds=args.seconds, keys=keys))
    finally:
        watcher.close()
