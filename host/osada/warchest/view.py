"""War Chest's round tracker in the monitor (osada.gameview's interface): the
ring as the device lights it (ring.py) with each LED's letter, the counts in
words (device_words.py, the lines `osada warchest watch` prints), and keys
that press the device's buttons (the protocol's `press`), as its watch does."""

from rich.text import Text

from osada.gameview import GameView
from osada.sim.warchest_lines import letters
from osada.terminal.ringtext import done, led_row, letters_row, para, titled

from . import ring
from .device_words import flip_line, status_lines
from .picture import picture

LEGEND = ("c coins in hand (white) · i initiative (gold; blinking: claimed this round, W16) · m control markers "
          "to place · > his action (pulsing) · sectors 1-3 player 1 (blue), 4-6 player 2 (red)")

KEYMAP = (
    ("enter,space", "press('action')", "Enter", "action done", "ACTION: the player whose turn it is took his"
     " action (W11)", True),
    ("b,backspace", "press('back')", "b", "claim", "BACK: he claimed the initiative with a coin instead (W12,"
     " W16)", True),
    ("left", "turn(-1)", "← →", "fix count", "the encoder: fix the count it shows (markers, coins in hand, the"
     " initiative)", False),
    ("right", "turn(1)", "", "", "", False),
    ("e", "press('encoder')", "e", "next count", "the encoder's button: the next count to fix", False),
    ("B", "hold('back')", "B", "undo", "BACK held: undo the last change", True),
    ("E", "hold('encoder')", "E", "new game", "the encoder held: a new game, the initiative flipped (W6)", True),
)


# What each key is on the board: the keys are the board's buttons (`osada sim` presses the same).
BOARD = {"press('action')": ("press", "action"), "press('back')": ("press", "back"), "turn(-1)": ("turn", -1),
         "turn(1)": ("turn", 1), "press('encoder')": ("press", "encoder"), "hold('back')": ("long", "back"),
         "hold('encoder')": ("long", "encoder")}

class WarChestView(GameView):
    GAME = "warchest"
    KEYMAP = KEYMAP

    def __init__(self, shell):
        super().__init__(shell)
        self.counts = None            # the tracker's counts (its state), None before the device said them

    def on_event(self, ev):
        if ev.get("ev") == "warchest" and isinstance(ev.get("warchest"), dict):
            self.counts = ev["warchest"]
            self.shell.changed()

    def on_reply(self, cmd, fields, msg):
        if msg.get("ok") and cmd == "state" and isinstance(msg.get("warchest"), dict):
            self.counts = msg["warchest"]
            self.shell.changed()
        elif msg.get("ok") and cmd == "press":
            self.shell.send("state")          # what the press changed (the encoder's cursor too)

    def render(self, width, compact=False, stale=False):
        out, cells = titled(width, "War Chest («Сундук войны»): the ring of the round tracker",
                            "STALE — connection lost: the last counts seen", stale)
        if out is None:
            return Text()
        st = self.counts
        try:
            px = ring.colours(st) if st else [(0, 0, 0)] * 24
        except (KeyError, TypeError, ValueError, IndexError):
            px = [(0, 0, 0)] * 24
            para(out, "the device's counts cannot be read: %r" % (st,), width, "bold #ffd24a")
        led_row(out, cells, "ring", px)
        letters_row(out, cells, "", letters())
        if st is None:
            para(out, "waiting for the device's counts", width, "italic")
        elif not compact:
            para(out, LEGEND, width, "dim")
        return done(out)

    def panel(self, compact=False, stale=False, role=None):
        t = Text()
        if stale:
            t.append("STALE (connection lost)\n", style="bold black on #d0a000")
        st = self.counts
        if st is None:
            t.append("War Chest's round tracker: waiting for its counts\n")
        else:
            try:
                lines = status_lines(st)
            except (KeyError, TypeError, IndexError):
                lines = ["the device sent counts this tool cannot read: %r" % (st,)]
            t.append(lines[0] + "\n", style="bold")
            for line in lines[1:]:
                t.append(line.strip() + "\n")
            if st.get("flipped") and st.get("round") == 1 and not compact:
                t.append(flip_line(st) + "\n", style="dim")
            if not compact and st.get("cursor"):
                t.append("the encoder fixes: %s\n" % st["cursor"], style="dim")
        t.append("%s action done · %s claim · %s fix · %s undo · %s new game\n" % (
            self.keys_for("press('action')"), self.keys_for("press('back')"), self.keys_for("turn(-1)"),
            self.keys_for("hold('back')"), self.keys_for("hold('encoder')")), style="#7fd7ff")
        t.rstrip()
        return t

    def picture(self, role=None):
        return picture(self.counts)

    def help_tail(self, closes):
        return Text("\nWar Chest («Сундук войны»): the device keeps the round — each player's coins in hand, the "
                    "control markers he has still to place, the initiative and whose action it is. The keys press "
                    "its buttons. The ring: " + LEGEND + ".\n" + closes, style="dim")

    def key_press(self, button):
        return ("press", {"button": button, "long": False})

    def key_hold(self, button):
        return ("press", {"button": button, "long": True})

    def key_turn(self, d):
        return ("press", {"turn": d})

    def request_words(self, cmd, fields):
        if cmd == "press":
            if "turn" in fields:
                return "a turn of the encoder"
            return "%s%s" % ("a long " if fields.get("long") else "", fields.get("button", "?").upper())
        return cmd


VIEW = WarChestView
