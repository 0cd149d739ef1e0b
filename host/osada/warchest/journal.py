"""The tracker's saved game: its setup and its events (the rules core's
text lines, one a line), one JSON file rewritten after every event with an atomic write
(a temp file beside it, flushed and fsynced, then os.replace), so a crash
loses no event that was entered.  Read back, every event is played again
through the rules core, which names the first wrong one."""


from osada.files.savefile import SavedGame
from shared_rules.warchest.game import Game, check_events

FORMAT = "osada-warchest"
VERSION = 1


class JournalError(ValueError):
    """A file that is not a saved War Chest game, or one that cannot be read or written (one line)."""


class Journal(SavedGame):
    FORMAT, VERSION, WHAT, PREFIX, ERROR = FORMAT, VERSION, "a saved War Chest game", ".warchest-", JournalError
    SETUP_KEYS = ("players", "types", "counts", "initiative", "known")

    @classmethod
    def new(cls, path, setup):
        """A new game's journal (its setup checked by the rules core), not yet saved."""
        Game(setup["players"], setup["types"], setup["counts"], setup["initiative"], setup["known"])
        return cls(path, setup)

    def check(self):
        """(the game after the events that pass, None or (index, RuleError) of the first wrong one).
        A setup the rules refuse raises RuleError."""
        return check_events(self.setup, self.events)

    def game(self):
        """The game after every event.  JournalError names the first wrong one:
        "FILE: event N (its line): W14: ..."; a setup the rules refuse raises RuleError."""
        g, wrong = self.check()
        if wrong is not None:
            i, exc = wrong
            raise JournalError("%s: event %d (%s): %s" % (self.path, i + 1, self.events[i], exc))
        return g
