"""Victory Day's toss in the monitor (osada.gameview's interface): the ring
as the device lights it (ring.py), who starts in the players' words (the
lines `osada victory toss` prints, toss.py), and keys for the toss, the next
game and a new match (the protocol's toss and next requests)."""

from rich.text import Text

from osada.gameview import GameView
from osada.terminal.ringtext import done, led_row, para, titled

from . import ring
from .picture import picture
from .toss_words import HALF_WORDS, TossError, checked, describe, faction, toss_of

KEYMAP = (
    ("t,enter", "toss", "t Enter", "toss", "the lot for the first game's first player (V8): drawn once a"
     " match, then kept", True),
    ("n", "next", "n", "next game", "the next game: the other seat starts (V8, alternating)", True),
    ("p", "back", "p", "back", "back one game", False),
    ("s", "seats", "s", "seats", "swap which seat plays the USSR (before the lot)", False),
    ("N", "new_match", "N", "new match", "a new match: a new lot", True),
)

# What each key is on the board (osada_fw/victory/mode.py's buttons): `osada sim`'s window
# presses these for the same keys, so the game is keyed the same in both (issue 61 item 2).
BOARD = {"toss": ("press", "action"), "next": ("press", "encoder"), "back": ("press", "back"),
         "seats": ("turn", 1), "new_match": ("long", "encoder")}


class VictoryView(GameView):
    GAME = "victory"
    KEYMAP = KEYMAP

    def __init__(self, shell):
        super().__init__(shell)
        self.toss = None              # the device's toss state, None before it said it

    def _take(self, st):
        if isinstance(st, dict):
            self.toss = st
            self.shell.changed()

    def on_event(self, ev):
        if ev.get("ev") == "victory":
            self._take(toss_of(ev))

    def on_reply(self, cmd, fields, msg):
        if not msg.get("ok"):
            return
        if cmd == "state":
            self._take(msg.get("victory"))
        elif cmd in ("toss", "next"):
            self._take({k: v for k, v in msg.items() if k in ("lot", "game", "starter", "ussr", "saved")})
        elif cmd == "press":
            self.shell.send("state")

    def _words(self):
        """The toss in words (toss.describe), or why it cannot be said."""
        st = self.toss
        if st is None:
            return ["waiting for the device's toss"]
        if st.get("lot") is None:
            return ["no lot yet: %s draws it (V8)" % self.keys_for("toss"),
                    "  seat A plays the %s, seat B the %s (%s swaps them)" % (
                        faction(st, "A"), faction(st, "B"), self.keys_for("seats"))]
        try:
            return describe(checked(st), False)
        except (TossError, KeyError, TypeError, ValueError) as exc:
            return ["the device's toss cannot be read: %s" % exc]

    def render(self, width, compact=False, stale=False):
        out, cells = titled(width, "Victory Day («День Победы»): the ring of the toss",
                            "STALE — connection lost: the last toss seen", stale)
        if out is None:
            return Text()
        try:
            px = ring.colours(self.toss) if self.toss else [(0, 0, 0)] * 24
        except (KeyError, TypeError, ValueError):
            px = [(0, 0, 0)] * 24
        led_row(out, cells, "ring", px)
        if not compact:
            para(out, "seat A: %s · seat B: %s · the starting seat's half lit in its faction's colour (USSR red, "
                      "Germany field grey-blue); before the lot both glow dim" % (HALF_WORDS["A"], HALF_WORDS["B"]),
                 width, "dim")
        return done(out)

    def panel(self, compact=False, stale=False, role=None):
        t = Text()
        if stale:
            t.append("STALE (connection lost)\n", style="bold black on #d0a000")
        lines = self._words()
        t.append(lines[0] + "\n", style="bold")
        for line in lines[1:] if not compact else lines[1:2]:
            t.append(line.strip() + "\n")
        t.append("%s toss · %s next game · %s back · %s new match\n" % (
            self.keys_for("toss"), self.keys_for("next"), self.keys_for("back"), self.keys_for("new_match")),
            style="#7fd7ff")
        t.rstrip()
        return t

    def picture(self, role=None):
        return picture(self.toss)

    def help_tail(self, closes):
        return Text("\nVictory Day («День Победы»): the device draws the first game's first player by lot, once a "
                    "match, and alternates the first move game by game (V8). The ring lights the starting seat's "
                    "half in its faction's colour.\n" + closes, style="dim")

    def key_toss(self):
        return ("toss", {})

    def key_next(self):
        return ("next", {})

    def key_back(self):
        return ("next", {"back": True})

    def key_new_match(self):
        return ("toss", {"again": True})

    def key_seats(self):
        if self.toss is not None and self.toss.get("lot") is not None:
            self.shell.set_status("the seats are swapped before the lot: %s starts a new match first"
                                  % self.keys_for("new_match"), refused=True)
            return None
        return ("press", {"turn": 1})

    def request_words(self, cmd, fields):
        return {"toss": "new match" if fields.get("again") else "toss",
                "next": "back one game" if fields.get("back") else "next game"}.get(cmd, cmd)


VIEW = VictoryView
