"""`osada line track`: the line-of-battle tracker at the table, a textual app
in War Chest's tracker's idiom.  Each card is entered by key as it is played
(`s` or `n`, then the card and the field: `R7 3`), each draw (`d` with the
card you drew, `D` for the other side's unseen one), each claim (`c`, `C`,
then the field), checked by the rules as it is made; the nine fields are
drawn with both sides' formations and what the table proves now.  Every
accepted event is saved at once (journal.py): `track FILE` resumes it."""

from rich.text import Text
from textual.app import App, ComposeResult
from textual.binding import Binding
from textual.screen import ModalScreen
from textual.widgets import Footer, Input, Static

from osada.files.paths import shown
from osada.line import table_text, words
from osada.line.inputs import refusal
from osada.trackerapp import TrackerShell
from shared_rules.errors import RuleError
from shared_rules.line import outcome

# The one table of keys: (key, action, shown, what it does).  The bindings, the footer and the help come from it.
KEYS = (
    ("s", "plays('south')", "South plays", "South plays a card: type it and its field, e.g. R7 3 (L5)"),
    ("n", "plays('north')", "North plays", "North plays a card: type it and its field, e.g. B4 2 (L5)"),
    ("d", "draw_mine", "you draw", "your draw: type the card you drew (L5, L6)"),
    ("D", "draw_theirs", "he draws", "the other side draws a card you do not see"),
    ("c", "claims('me')", "you claim", "your claim on a field: proved from the table as you make it (L17-L21)"),
    ("C", "claims('them')", "he claims", "the other side's claim: proved the same way"),
    ("u", "undo", "undo", "undo the last event"),
    ("question_mark", "help", "help", "every key"),
    ("q", "quit", "quit", "quit (the game is saved: `osada line track FILE` resumes it)"),
)


class Ask(ModalScreen):
    """One line typed (Enter); Escape cancels."""

    BINDINGS = [Binding("escape", "cancel", "cancel")]

    def __init__(self, title, placeholder):
        super().__init__()
        self.title_text, self.placeholder = title, placeholder

    def compose(self) -> ComposeResult:
        yield Static(Text(self.title_text), id="title")
        yield Input(placeholder=self.placeholder, id="answer")

    def on_input_submitted(self, event):
        self.dismiss(event.value.strip())

    def action_cancel(self):
        self.dismiss(None)


class LineTrackerApp(TrackerShell, App):
    KEYS = KEYS
    HELP_TITLE = "Line of battle tracker: keys"
    HELP_TAIL = "A refused event is named by its rule (docs/rules-line.md) and changes nothing."
    TITLE = "Osada: Line of battle tracker"
    ENABLE_COMMAND_PALETTE = False
    CSS = """
    #table { height: auto; padding: 0 1; }
    #log { height: 1fr; min-height: 3; border: round $primary-darken-2; padding: 0 1; }
    #status { height: auto; max-height: 3; padding: 0 1; background: $boost; }
    #status.refused { background: #6b4a00; color: white; }
    Ask, KeysHelp { align: center middle; background: $background 60%; }
    #title { width: 60; max-width: 100%; background: $primary; padding: 0 1; }
    #answer { width: 60; max-width: 100%; }
    #helptext { width: 90; max-width: 100%; height: auto; border: thick $primary; background: $surface; padding: 1 2; }
    """
    BINDINGS = [Binding(k, a, s, show=k not in ("question_mark",)) for k, a, s, _w in KEYS]

    def __init__(self, journal):
        super().__init__()
        self.journal = journal
        self.table = journal.table()

    def compose(self) -> ComposeResult:
        yield Static(id="table")
        yield Static(id="log")
        yield Static(id="status")
        yield Footer()

    def on_mount(self):
        self.show()
        self.say("saved in %s as you go; ? for the keys" % shown(self.journal.path))

    def picture(self):
        """The table as text (table_text.lines): what the screen shows above the log."""
        return table_text.lines(self.table.state, self.table.turn)

    def show(self):
        self.query_one("#table", Static).update(Text("\n".join(self.picture())))
        log = self.query_one("#log", Static)
        room = log.content_size.height or 8
        events = self.journal.events
        start = max(0, len(events) - room)
        lines = ["%3d  %s" % (i + 1, events[i]) for i in range(start, len(events))]
        log.update(Text("\n".join(lines) or "(no event yet: s or n when a card is played)"))

    def submit(self, line):
        """Play the event; saved at once if the rules take it, else its rule said and nothing changes."""
        try:
            self.table.apply(line)
        except RuleError as exc:
            self.say("refused: %s" % refusal(exc), refused=True)
            return False
        self.journal.events.append(line)
        self.show()
        if self.saved():
            self.say(line + (" — proved" if " claims " in line else ""))
        return True

    def ask(self, title, placeholder, then):
        def answered(value):
            if not value:
                self.say("cancelled")
            else:
                then(value)
        self.push_screen(Ask(title, placeholder), answered)

    # ------------------------------------------------------------ the keys

    def action_plays(self, side):
        def played(text):
            parts = text.replace(",", " ").split()
            if len(parts) != 2:
                self.say("refused: type the card and the field, e.g. R7 3 (got %r)" % text, refused=True)
                return
            self.submit("%s plays %s on %s" % (side, parts[0].upper(), parts[1]))
        self.ask("%s plays: the card and the field" % words.side(side), "R7 3", played)

    def action_draw_mine(self):
        me = self.table.me
        self.ask("You (%s) draw: the card" % words.side(me), "R4",
                 lambda text: self.submit("%s draws %s" % (me, text.upper())))

    def action_draw_theirs(self):
        self.submit("%s draws" % outcome.other(self.table.me))

    def action_claims(self, who):
        side = self.table.me if who == "me" else outcome.other(self.table.me)
        self.ask("%s claims: the field" % words.side(side), "3",
                 lambda text: self.submit("%s claims %s" % (side, text)))

    def rebuild(self):
        self.table = self.journal.table()

    def action_undo(self):
        gone = self.undo_last()
        if gone is not None:
            self.say("undone: %s" % gone)
