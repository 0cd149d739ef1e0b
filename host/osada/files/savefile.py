"""A file saved so that a crash or a pulled plug never leaves it half
written: a temp file beside it, flushed and fsynced, then renamed over the
old one, and the folder fsynced so the rename itself survives.  The table
trackers' saved games (osada.warchest.journal, osada.line.journal) are
written so after every event."""

import os
import tempfile


def write_atomic(path, text, prefix=".osada-"):
    """Write `text` to `path` whole or not at all; OSError if it cannot be written."""
    folder = os.path.dirname(os.path.abspath(path))
    os.makedirs(folder, exist_ok=True)
    fd, tmp = tempfile.mkstemp(prefix=prefix, suffix=".tmp", dir=folder)
    try:
        with os.fdopen(fd, "w", encoding="utf-8") as f:
            f.write(text)
            f.flush()
            os.fsync(f.fileno())
        os.replace(tmp, path)
    except BaseException:
        if os.path.exists(tmp):
            os.unlink(tmp)
        raise
    _sync_dir(folder)


def _sync_dir(folder):
    """fsync the folder, so the rename itself survives a power cut (where the OS allows it)."""
    try:
        fd = os.open(folder, os.O_RDONLY)
    except OSError:
        return
    try:
        os.fsync(fd)
    except OSError:
        pass
    finally:
        os.close(fd)


def save_journal(path, fmt, version, setup, events, prefix, error):
    """A tracker's game file, written atomically: its format and version, the
    setup, one event a line (readable in a diff).  `error` (the tracker's
    JournalError) is raised, naming the file, when it cannot be written."""
    import json
    lines = ",\n  ".join(json.dumps(e, ensure_ascii=False) for e in events)
    text = '{"format": %s, "version": %d,\n "setup": %s,\n "events": [%s]}\n' % (
        json.dumps(fmt), version, json.dumps(setup, ensure_ascii=False), "\n  " + lines + "\n " if lines else "")
    try:
        write_atomic(path, text, prefix)
    except OSError as exc:
        raise error("cannot save %s: %s" % (path, exc.strerror or exc)) from None


def load_journal(path, fmt, version, what, setup_keys, error, data=None):
    """(setup, events) of a tracker's game file (save_journal's), or its JSON
    already read (`data`); `error` (the tracker's JournalError), one line
    naming the file, when it cannot be read, is not `what` ("a saved War Chest
    game"), is of another version, or is damaged."""
    import json
    if data is None:
        try:
            with open(path, encoding="utf-8") as f:
                data = json.load(f)
        except OSError as exc:
            raise error("cannot read %s: %s" % (path, exc.strerror)) from None
        except (ValueError, UnicodeDecodeError):
            raise error("%s is not %s (not JSON)" % (path, what)) from None
    if not isinstance(data, dict) or data.get("format") != fmt:
        raise error("%s is not %s (no \"format\": \"%s\")" % (path, what, fmt))
    if data.get("version") != version:
        raise error("%s is a saved game of version %r; this osada reads version %d"
                    % (path, data.get("version"), version))
    setup, events = data.get("setup"), data.get("events")
    if not isinstance(setup, dict) or any(k not in setup for k in setup_keys) or not isinstance(events, list) \
            or not all(isinstance(e, str) for e in events):
        raise error("%s is damaged: it needs a setup (%s) and a list of event lines" % (path, ", ".join(setup_keys)))
    return setup, events


class SavedGame:
    """A tracker's saved game: its setup and its event lines, in a file of its
    own format (save_journal, load_journal).  A tracker's journal sets FORMAT,
    VERSION, WHAT (its name in an error: "a saved War Chest game"), SETUP_KEYS,
    PREFIX (its temp files') and ERROR (its JournalError)."""

    FORMAT = VERSION = WHAT = PREFIX = ERROR = None
    SETUP_KEYS = ()

    def __init__(self, path, setup, events=()):
        self.path = path
        self.setup = setup
        self.events = list(events)

    @classmethod
    def load(cls, path, data=None):
        """The journal in `path` (or its JSON already read, `data`); ERROR if it is not one."""
        setup, events = load_journal(path, cls.FORMAT, cls.VERSION, cls.WHAT, cls.SETUP_KEYS, cls.ERROR, data)
        return cls(path, setup, events)

    def save(self):
        """Write the file atomically; ERROR if it cannot be written."""
        save_journal(self.path, self.FORMAT, self.VERSION, self.setup, self.events, self.PREFIX, self.ERROR)
