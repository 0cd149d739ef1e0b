"""The shell's modal screens: the help (every key of the game the device runs,
then how to read its board: the game's view says) and the question whether to
start the simulator.  A game's own dialogs live in its package (Siege's new
game and the field marshal's play: osada/siege/screens.py)."""

import textwrap

from rich.text import Text
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Vertical, VerticalScroll
from textual.screen import ModalScreen
from textual.widgets import Static

from osada.gameview import COMMON_KEYMAP
from osada.words.game_names import game_name
from osada.words.texts import kept_words

KEY_W = 11                                # the help's key column


def help_text(view, width=0, close_keys=("Esc", "?", "q")):
    """Every key of `view`'s game and what it does, then how to read the board
    (view.help_tail).  At a `width`, a long line goes on under its own text, not under the keys."""
    t = Text()
    t.append("Osada monitor — keys (%s)\n\n" % game_name(view.GAME, short=True), style="bold")
    wrap = max(20, width - KEY_W) if width else 0
    for _k, _a, shown, _short, what, _f in view.KEYMAP + COMMON_KEYMAP:
        if shown:
            t.append(shown.ljust(KEY_W), style="bold #ffd24a")
            lines = textwrap.wrap(what, wrap) if wrap else [what]
            t.append(("\n" + " " * KEY_W).join(lines) + "\n")
    closes = "\n%s or %s closes." % (", ".join(close_keys[:-1]), close_keys[-1])
    t.append_text(view.help_tail(closes))
    return t


class HelpText(Static):
    """The help, wrapped to the dialog's width."""

    def on_resize(self):
        self.update(help_text(self.screen.view, self.content_size.width, HelpScreen.CLOSE_KEYS))  # pyright: ignore[reportAttributeAccessIssue]


class HelpScreen(ModalScreen):
    BINDINGS = [Binding("escape,question_mark,q", "dismiss", "Close")]
    CLOSE_KEYS = ("Esc", "?", "q")           # BINDINGS' keys as shown

    def __init__(self, view):
        super().__init__()
        self.view = view                      # the view of the game the device runs

    @property
    def game(self):
        return self.view.GAME

    def compose(self) -> ComposeResult:
        with VerticalScroll(id="dialog"):     # ↑ ↓ PgUp PgDn scroll it in a short window
            yield HelpText(help_text(self.view, 0, self.CLOSE_KEYS), id="help")


class DamagedSaveScreen(ModalScreen):
    """A saved game the device could not read back in full (issue 64): what
    was lost, where its bytes are kept; Enter acknowledges it (the device
    stops reporting it), Esc closes for now (shown again at the next connect)."""

    BINDINGS = [Binding("enter", "answer(True)", "Acknowledge"), Binding("escape", "answer(False)", "Later")]

    def __init__(self, lost, kept):
        super().__init__()
        self.lost = lost
        self.kept = kept

    def compose(self) -> ComposeResult:
        t = Text()
        t.append("The saved game was damaged\n\n", style="bold #ff6060")
        t.append(self.lost[:1].upper() + self.lost[1:] + ".\n")
        where = kept_words(self.kept).lstrip(" —")
        if where:
            t.append("\n" + where[:1].upper() + where[1:] + ".\n")
        t.append("\nEnter: acknowledge (the board stops reporting it) · Esc: later", style="bold")
        with Vertical(id="dialog"):
            yield Static(t, id="damaged")

    def action_answer(self, ack):
        self.dismiss(ack)


class AskSimScreen(ModalScreen):
    BINDINGS = [Binding("y,enter", "answer(True)", "Yes"), Binding("n,escape", "answer(False)", "No")]

    def compose(self) -> ComposeResult:
        with Vertical(id="dialog"):
            yield Static("No device found. Start the simulator? [Y/n]", id="asksim")

    def action_answer(self, yes):
        self.dismiss(yes)
