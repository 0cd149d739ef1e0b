"""What the trackers at the table (`osada warchest track`, `osada line track`)
share: the help screen made from their one table of keys, the status line,
the save after every change (a failing save said, the game kept in memory),
undo of the last event, and Ctrl+C naming q.  Each tracker's app mixes in
TrackerShell and gives KEYS, HELP_TITLE, HELP_TAIL, `journal` (events, save())
and `show()` / `rebuild()`."""

from rich.text import Text
from textual.binding import Binding
from textual.screen import ModalScreen
from textual.widgets import Static


class KeysHelp(ModalScreen):
    """Every key of a tracker, from its table of keys (key, action, shown, what it does)."""

    BINDINGS = [Binding("escape,question_mark,q", "dismiss", "close")]

    def __init__(self, title, keys, tail):
        super().__init__()
        self.lines = [title, ""]
        self.lines += ["%-3s %s" % ("?" if k == "question_mark" else k, what) for k, _a, _s, what in keys]
        self.lines += ["", tail]

    def compose(self):
        yield Static(Text("\n".join(self.lines)), id="helptext")


class TrackerShell:
    """The trackers' common behaviour (a mixin for a textual App)."""

    KEYS = ()
    HELP_TITLE = ""
    HELP_TAIL = ""

    def on_resize(self):
        self.call_after_refresh(self.show)  # pyright: ignore[reportAttributeAccessIssue]

    def say(self, text, refused=False):
        status = self.query_one("#status", Static)  # pyright: ignore[reportAttributeAccessIssue]
        status.update(Text(text))
        status.set_class(refused, "refused")

    def saved(self):
        """Save the journal; False (and said) when the save failed: the game goes on in memory."""
        try:
            self.journal.save()  # pyright: ignore[reportAttributeAccessIssue]
        except ValueError as exc:                     # the trackers' JournalError
            self.say("NOT SAVED: %s" % exc, refused=True)
            return False
        return True

    def undo_last(self):
        """Take back the last event: the game rebuilt from the others, saved; the event, or None."""
        events = self.journal.events  # pyright: ignore[reportAttributeAccessIssue]
        if not events:
            self.say("nothing to undo", refused=True)
            return None
        gone = events.pop()
        self.rebuild()  # pyright: ignore[reportAttributeAccessIssue]
        self.show()  # pyright: ignore[reportAttributeAccessIssue]
        return gone if self.saved() else None

    def action_help_quit(self):
        """Ctrl+C: the key that quits, q as the footer shows it (textual would name Ctrl+Q, its own binding)."""
        self.notify("Press [b]q[/b] to quit the app", title="Do you want to quit?")  # pyright: ignore

    def action_help(self):
        self.push_screen(KeysHelp(self.HELP_TITLE, self.KEYS, self.HELP_TAIL))  # pyright: ignore
