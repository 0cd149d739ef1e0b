"""`osada line track [FILE]`: a new game from its setup (your side and your
dealt hand), or the game saved in FILE resumed (its events checked again
first); then the tracker app (track_app.py)."""

import os

from osada import trackerfile
from osada.files.paths import OUTPUT
from osada.line.inputs import Refused, refusal
from shared_rules.errors import RuleError

from .journal import Journal, new_setup

DEFAULT_FILE = os.path.join(OUTPUT, "line", "game.json")
INSTEAD = "`osada line status FILE` and `osada line claim`"   # in a script: the tracker needs a terminal
SETUP_OPTIONS = ("me", "hand", "colours", "values")


def open_journal(args, write=True):
    """(Journal, None) or (None, exit status after the one error line); a new game's file is
    written only when `write`."""
    given = [o for o in SETUP_OPTIONS if getattr(args, o, None)]
    return trackerfile.open_journal("line track", args.file or DEFAULT_FILE, given, _resume,
                                    lambda path: _start(args, path), write)


def _resume(path):
    journal = Journal.load(path)                  # JournalError: said as it is
    journal.table()
    return journal


def _start(args, path):
    try:
        if not args.hand:
            raise Refused("a new game needs --hand: the 7 cards you were dealt (e.g. --hand R1 B4 G7 Y2 P9 O3 R10)")
        kw = {k: getattr(args, k) for k in ("colours", "values") if getattr(args, k, None)}
        return Journal(path, new_setup(args.me or "south", args.hand, **kw))
    except Refused as exc:
        raise trackerfile.Refusal(str(exc))
    except RuleError as exc:
        raise trackerfile.Refusal(refusal(exc))


def _app(journal):
    from .track_app import LineTrackerApp
    return LineTrackerApp(journal)


def run(args):
    return trackerfile.run("line track", INSTEAD, lambda write: open_journal(args, write), _app, lambda where: (
        "Line of battle: the game is saved in %s (osada line track %s resumes it; "
        "osada line claim --state %s and odds read it too)" % (where, where, where)))
