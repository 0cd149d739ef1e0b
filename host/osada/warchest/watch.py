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

import sys

from osada.link import watching
from osada.link.device import open_link
from osada.link.watching import KEYS, key_request  # noqa: F401  (this command's keys: the shared ones)
from osada.words.game_names import game_name

from .device_words import event_line, flip_line, status_lines

GAME = "warchest"
KEYS_HELP = ("keys: Enter action done · b claim initiative · <- -> fix a count · e next count · B undo · "
             "E new game · q quit")


class Watcher:
    """Prints the tracker's changes of one Link.  Feed it messages (on_message)."""

    GAME = GAME

    def __init__(self, out, width=None):
        self.out = out
        self.width = width             # lines wrap at words to this many columns (None: a terminal's width)
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

    def pressed(self, fields):
        """After a key: the counts, and what the encoder fixes if the key was the encoder's."""
        self.want_state = True
        self.want_cursor = "turn" in fields or fields.get("button") == "encoder"

    def say(self, line):
        width = self.width if self.width is not None else _terminal_width(self.out)
        if width and len(line) > width:           # at words, the rest indented (issue 61 item 13)
            import textwrap
            indent = " " * (len(line) - len(line.lstrip()) + 2)
            line = "\n".join(textwrap.wrap(line, width, subsequent_indent=indent, break_long_words=False,
                                           break_on_hyphens=False))
        self.out.write(line + "\n")
        self.out.flush()


def _terminal_width(out):
    """The columns of the terminal `out` writes to; 0 when it is not one (a pipe, a file: no wrapping)."""
    try:
        if not out.isatty():
            return 0
        import os
        return os.get_terminal_size(out.fileno()).columns
    except (AttributeError, OSError, ValueError):
        return 0


def watch(link, watcher, switch=False, count=None, seconds=None, keys=None):
    """Mirror the tracker of the connected link until `count` changes,
    `seconds`, or (keys: a function returning key bytes or None) the key q."""
    watcher.game = link.request("game").get("game")     # what runs now (the link's hello may be older)
    back, code = watching.enter(link, watcher, switch, "its War Chest tracker shows here")
    if code is not None:
        return code
    link.on_message = watcher.on_message
    if watcher.game == GAME:
        _ask_state(link, watcher)                        # the counts before anything changes
    try:
        return watching.loop(link, watcher, lambda: watcher.changes, count, seconds, keys,
                             lambda: watcher.want_state and _ask_state(link, watcher))
    finally:
        watching.switch_back(link, back)


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


def cmd_watch(args):
    return watching.with_sim(_watch_args, args)


def _watch_args(args):
    link = open_link(args)
    watcher = Watcher(sys.stdout)
    return watching.interactive(link, watcher, args, KEYS_HELP,
                                lambda keys: watch(link, watcher, switch=args.switch, count=args.count,
                                                   seconds=args.seconds, keys=keys))
