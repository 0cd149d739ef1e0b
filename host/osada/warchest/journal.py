"""The tracker's saved game: its setup and its events (the rules core's
text lines, one a line), one JSON file rewritten after every event with an atomic write
(a temp file beside it, flushed and fsynced, then os.replace), so a crash
loses no event that was entered.  Read back, every event is played again
through the rules core, which names the first wrong one."""

import json

from osada.savefile import save_journal
from shared_rules.warchest.game import Game, check_events

FORMAT = "osada-warchest"
VERSION = 1


class JournalError(ValueError):
    """A file that is not a saved War Chest game, or one that cannot be read or written (one line)."""


class Journal:
    def __init__(self, path, setup, events=()):
        self.path = path
        self.setup = setup
        self.events = list(events)

    @classmethod
    def new(cls, path, setup):
        """A new game's journal (its setup checked by the rules core), not yet saved."""
        Game(setup["players"], setup["types"], setup["counts"], setup["initiative"], setup["known"])
        return cls(path, setup)

    @classmethod
    def load(cls, path):
        try:
            with open(path, encoding="utf-8") as f:
                data = json.load(f)
        except OSError as exc:
            raise JournalError("cannot read %s: %s" % (path, exc.strerror)) from None
        except (ValueError, UnicodeDecodeError):
            raise JournalError("%s is not a saved War Chest game (not JSON)" % path) from None
        if not isinstance(data, dict) or data.get("format") != FORMAT:
            raise JournalError("%s is not a saved War Chest game (no \"format\": \"%s\")" % (path, FORMAT))
        if data.get("version") != VERSION:
            raise JournalError("%s is a saved game of version %r; this osada reads version %d"
                               % (path, data.get("version"), VERSION))
        setup, events = data.get("setup"), data.get("events")
        keys = ("players", "types", "counts", "initiative", "known")
        if not isinstance(setup, dict) or any(k not in setup for k in keys) or not isinstance(events, list) \
                or not all(isinstance(e, str) for e in events):
            raise JournalError("%s is damaged: it needs a setup (%s) and a list of event lines"
                               % (path, ", ".join(keys)))
        return cls(path, setup, events)

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

    def save(self):
        """Write the file atomically; JournalError if it cannot be written."""
        save_journal(self.path, FORMAT, VERSION, self.setup, self.events, ".warchest-", JournalError)
