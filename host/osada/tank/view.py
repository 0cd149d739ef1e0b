"""Tank battle («Кубики») in the monitor (osada.gameview's interface): the
ring of the last roll as the device lights it (board.py), the test and the
numbers the roll key sends (panel.py's TankSetup), and its keys (keys.py).
The device stays the authority: its `state` (after a connect, a switch,
every roll) replaces the numbers of its current test."""

from rich.text import Text

from osada.gameview import GameView
from osada.words import texts

from .board import render_tank
from .keys import KEYMAP
from .panel import TankSetup, panel_text
from .picture import picture

HELP = ("\nTank battle («Кубики»): the device rolls the dice of «Танковый бой». Pick the test and its "
        "numbers here (the game panel shows them), roll; the board shows the ring as the device lights it, "
        "the log the roll with the exact odds of its result. The device's own knob and buttons work as well.")


class TankView(GameView):
    GAME = "tank"
    KEYMAP = KEYMAP
    EVENT_STYLES = {"roll": "#c0a0ff"}

    def __init__(self, shell):
        super().__init__(shell)
        self.roll = None              # the last roll event (the board area shows it), None before one
        self.setup = TankSetup()      # the test and numbers the roll key sends

    def on_connect(self):
        return [("state", {})]        # the device's last roll and its numbers

    def on_event(self, ev):
        if ev.get("ev") == "roll" and "test" in ev:
            self.roll = ev
            self.shell.set_status(texts.describe(ev))
            if ev.get("source") == "buttons":
                self.shell.send("state")       # rolled with the device's knob: its numbers here too
            self.shell.changed()

    def on_reply(self, cmd, fields, msg):
        if not msg.get("ok"):
            return
        if cmd == "roll":
            self.shell.send("state")           # what the roll left (T16: the protection) for the next
        elif cmd == "state" and isinstance(msg.get("tank"), dict):
            self.roll = msg["tank"].get("last") or self.roll
            self.setup = self.setup.from_device(msg["tank"])   # the device's numbers (T16's protection left)
            self.shell.changed()

    def render(self, width, compact=False, stale=False):
        return render_tank(self.roll, width, compact, stale)

    def panel(self, compact=False, stale=False, role=None):
        return panel_text(self.setup, stale, compact)

    def picture(self, role=None):
        return picture(self.roll, self.setup)

    def help_tail(self, closes):
        return Text(HELP + "\n" + closes, style="dim")

    # ------------------------------------------------------------------ the keys

    def key_field(self, d):
        self.setup = self.setup.next_field(d)

    def key_change(self, d):
        self.setup = self.setup.change(d)

    def key_new_turn(self):
        self.setup = self.setup.new_turn()
        self.shell.set_status("a new game turn: protection %d again (T17)" % self.setup.turn_protection)

    def key_defaults(self):
        self.setup = self.setup.reset()

    def key_roll(self):
        return ("roll", self.setup.request())


VIEW = TankView
