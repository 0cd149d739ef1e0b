"""What the trackers' commands (`osada warchest track`, `osada line track`)
share before their apps start (trackerapp.py, which loads textual, is what
they share after): the saved game resumed from its file or a new one made
from the setup options, a setup option refused beside a saved game, one error
line and a non-zero exit for anything wrong, no file written and no app
started without a terminal, and where the game was saved, said at the end.
Each game gives its words and how its journal is loaded, checked and made."""

import os

from osada.files.paths import shown
from osada.link.device import fail
from osada.terminal.termkeys import no_terminal


class Refusal(Exception):
    """Why the game cannot be opened: the words after `prog: `."""


def open_journal(prog, path, given, resume, start, write=True):
    """(journal, None), or (None, the exit status after the one line `prog: why`).

    A game saved in `path` takes none of the setup options (`given`: the names of
    those typed): resume(path) loads it and checks it again.  Else start(path)
    makes the new game, whose file is written only when `write`.  Both raise
    Refusal; a journal's save() raises ValueError where the file cannot be written."""
    try:
        if os.path.exists(path):
            if given:
                raise Refusal("%s holds a game already: resume it without --%s, or name another file for a "
                              "new game" % (path, " --".join(given)))
            return resume(path), None
        journal = start(path)
        if write:
            journal.save()
        return journal, None
    except (Refusal, ValueError) as exc:
        return None, fail("%s: %s" % (prog, exc))


def run(prog, instead, opener, app, saved):
    """A tracker's command: opener(write) is (journal, exit status) as open_journal
    gives them; app(journal) the tracker's textual App; saved(where) the last line
    (where: the file, as the user would type it).  Without a terminal (`instead`:
    the commands a script can use), nothing is written and the app does not start."""
    why = no_terminal(instead)          # the tracker draws the whole window
    journal, code = opener(why is None)
    if journal is None:
        return code
    if why is not None:
        return fail("%s: %s" % (prog, why))
    app(journal).run()
    print(saved(shown(journal.path)))
    return 0
