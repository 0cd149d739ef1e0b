"""`osada line track [FILE]`: a new game from its setup (your side and your
dealt hand), or the game saved in FILE resumed (its events checked again
first); then the tracker app (track_app.py)."""

import os

from osada.line.inputs import Refused, refusal
from osada.link.device import fail
from osada.paths import OUTPUT, shown
from osada.termkeys import no_terminal
from shared_rules.errors import RuleError

from .journal import Journal, JournalError, new_setup

DEFAULT_FILE = os.path.join(OUTPUT, "line", "game.json")
INSTEAD = "`osada line status FILE` and `osada line claim`"   # in a script: the tracker needs a terminal
SETUP_OPTIONS = ("me", "hand", "colours", "values")


def open_journal(args, write=True):
    """(Journal, None) or (None, exit status after the one error line); a new game's file is
    written only when `write`."""
    path = args.file or DEFAULT_FILE
    given = [o for o in SETUP_OPTIONS if getattr(args, o, None)]
    if os.path.exists(path):
        if given:
            return None, fail("line track: %s holds a game already: resume it without --%s, or name another "
                              "file for a new game" % (path, " --".join(given)))
        try:
            journal = Journal.load(path)
            journal.table()
        except JournalError as exc:
            return None, fail("line track: %s" % exc)
        return journal, None
    try:
        if not args.hand:
            raise Refused("a new game needs --hand: the 7 cards you were dealt (e.g. --hand R1 B4 G7 Y2 P9 O3 R10)")
        kw = {k: getattr(args, k) for k in ("colours", "values") if getattr(args, k, None)}
        journal = Journal(path, new_setup(args.me or "south", args.hand, **kw))
        if write:
            journal.save()
    except (Refused, JournalError) as exc:
        return None, fail("line track: %s" % exc)
    except RuleError as exc:
        return None, fail("line track: %s" % refusal(exc))
    return journal, None


def run(args):
    why = no_terminal(INSTEAD)         # the tracker draws the whole window: without a terminal, nothing is written
    journal, code = open_journal(args, write=why is None)
    if journal is None:
        return code
    if why is not None:
        return fail("line track: %s" % why)
    from .track_app import LineTrackerApp
    LineTrackerApp(journal).run()
    where = shown(journal.path)
    print("Line of battle: the game is saved in %s (osada line track %s resumes it; "
          "osada line claim --state %s and odds read it too)" % (where, where, where))
    return 0
