# The power-safe game journal: the game in progress, kept in flash.
#
# A game is its setup plus its accepted actions (event sourcing, see
# shared_rules/siege/engine.py), so the journal stores exactly that.  Every accepted
# action is written and flushed before the app acknowledges it; on boot
# restore() rebuilds the game, pending choice included.  Runs unchanged on
# MicroPython 1.2x (the Pico, littlefs2) and CPython (the simulator).
#
# Files, in the journal's directory (the Pico: /osada):
#   journal.bin   the journal
#   journal.tmp   a snapshot being written; renamed over journal.bin when
#                 complete (os.rename is atomic on littlefs2 and POSIX)
#
# journal.bin is a header and records (the setup, then actions, batches of
# actions and undo markers), each with its CRC: store/records.py.  A load
# stops at the first bad record: it and everything after it are dropped, and
# the journal is rewritten (atomically, like a compaction) so the next append
# lands after good data.
#
# Compaction writes header + 'S' + 'B' records of the live actions to
# journal.tmp, flushes it and renames it over journal.bin.  A power cut before
# the rename leaves the old journal (the stray journal.tmp is removed on the
# next load); after it, the new one.  It runs from append()/undo() when the
# journal exceeds `limit` bytes (8 KB) and at least half of it is dead (undone
# actions, undo markers, framing), or holds `max_undos` (64) undo markers.
# Flash bound: journal.bin <= max(limit, 2 * snapshot) + 19 bytes, and while a
# compaction runs journal.tmp adds one snapshot (~4 bytes an action + the
# setup): under 12.5 KB in all for any game of up to 1000 live actions.
#
# The game in memory, the public API and the restore are core.py's
# (shared with flashlog.py, the raw-flash journal the Pico uses when littlefs
# had room for its file); this module is the littlefs-file backend.

import os

from osada_fw.store.core import GameJournal
from osada_fw.store.records import (
    MAGIC,
    MAX_ACTION,
    MAX_BATCH,
    T_BATCH,
    T_SETUP,
    frame,
)

NAME = "journal.bin"
TMP_NAME = "journal.tmp"

LIMIT = 8192
MAX_UNDOS = 64
_replace = getattr(os, "replace", None) or os.rename
_fsync = getattr(os, "fsync", None)


def _exists(path):
    try:
        os.stat(path)
        return True
    except OSError:
        return False


def _size(path):
    try:
        return os.stat(path)[6]
    except OSError:
        return -1


def _remove(path):
    try:
        os.remove(path)
    except OSError:
        pass


def _sync(f):
    f.flush()                       # MicroPython: lfs_file_sync, the data is on flash
    if _fsync is not None and hasattr(f, "fileno"):
        try:
            _fsync(f.fileno())      # CPython: past the OS cache too
        except (OSError, ValueError):
            pass


def _sync_dir(d):
    """CPython/POSIX: make the rename itself durable (nothing to do on MicroPython)."""
    if _fsync is None or not hasattr(os, "O_RDONLY") or not hasattr(os, "open"):
        return
    try:
        fd = os.open(d, os.O_RDONLY)  # pyright: ignore[reportAttributeAccessIssue]  host-only: CPython/POSIX (guarded above)
    except OSError:
        return
    try:
        _fsync(fd)
    except OSError:
        pass
    os.close(fd)


def _mkdirs(d):
    parts = d.split("/")
    path = ""
    for i in range(len(parts)):
        path = parts[i] if i == 0 else path + "/" + parts[i]
        if not path or _exists(path):
            continue
        try:
            os.mkdir(path)
        except OSError:
            if not _exists(path):
                raise


class Journal(GameJournal):
    """The game journal in directory `dirpath` (created when a game starts)."""

    def __init__(self, dirpath, limit=LIMIT, max_undos=MAX_UNDOS):
        d = dirpath
        while len(d) > 1 and d[-1] == "/":
            d = d[:-1]
        self.dir = d
        sep = "" if d.endswith("/") else "/"
        self.path = d + sep + NAME
        self.tmp = d + sep + TMP_NAME
        self.limit = limit
        self.max_undos = max_undos
        self._f = None              # journal.bin, open for appending
        GameJournal.__init__(self)

    def clear(self):
        """Forget the game: remove the journal."""
        self.close()
        _remove(self.tmp)
        _remove(self.path)
        self._forget()

    def close(self):
        f = self._f
        self._f = None
        if f is not None:
            try:
                f.close()
            except OSError:
                pass

    # ------------------------------------------------------------ writing

    def _write_record(self, typ, payload):
        if self._dirty:
            self.compact()                   # raises OSError if it cannot
        f = self._f
        try:
            if f is None:
                if _size(self.path) != self._size:   # gone or changed behind our back
                    self._dirty = True
                    self.compact()
                f = self._f = open(self.path, "ab")
            n = frame(f, typ, payload)
            _sync(f)
        except BaseException:
            self._dirty = True               # a partial record may be there
            self.close()
            raise
        self._size += n

    def _install(self, raw, live, used, sizes, count):
        """Write this game as a snapshot over journal.bin and hold it in memory."""
        self.close()
        size = self._write_snapshot(raw, live, sizes, count)
        self._hold(raw, live, used, sizes, count, size)

    def _write_snapshot(self, raw, live, sizes, count):
        """Write journal.tmp (header, setup, actions), rename it over
        journal.bin.  Returns the new journal's size."""
        _mkdirs(self.dir)
        tmp = self.tmp
        f = open(tmp, "wb")
        try:
            f.write(MAGIC)
            size = 4 + frame(f, T_SETUP, raw)
            mv = memoryview(live)
            a = 0
            b = 0
            for i in range(count):
                n = sizes[i]
                if b + n - a > MAX_BATCH:
                    size += frame(f, T_BATCH, mv[a:b])
                    a = b
                b += n
            if b > a:
                size += frame(f, T_BATCH, mv[a:b])
            _sync(f)
            f.close()
            f = None
        finally:
            if f is not None:
                try:
                    f.close()
                except OSError:
                    pass
        try:
            _replace(tmp, self.path)
        except OSError:
            # a file system whose rename will not replace (FAT): remove, then
            # rename; _scan() adopts journal.tmp if cut between the two
            if not _exists(self.path) or not _exists(tmp):
                raise
            os.remove(self.path)
            _replace(tmp, self.path)
        _sync_dir(self.dir)
        return size

    def _snapshot_size(self):
        n = self._used
        return 11 + len(self._setup) + n + 7 * (n // (MAX_BATCH - MAX_ACTION) + 1)

    def _maybe_compact(self):
        size = self._size
        if ((size > self.limit and size >= 2 * self._snapshot_size())
                or self._undos >= self.max_undos):
            self._try_compact()

    def _compact_failed(self):
        _remove(self.tmp)

    # ------------------------------------------------------------ reading

    def _scan(self):
        """Read journal.bin into memory.  Returns the setup dict, or None."""
        self.close()
        self._forget()
        self.last_error = None
        self.dropped_bytes = 0
        path = self.path
        if _exists(self.tmp):
            if _exists(path):
                _remove(self.tmp)            # a compaction cut short: the old journal stands
            else:
                try:                         # cut between remove and rename (FAT)
                    _replace(self.tmp, path)
                except OSError:
                    pass
        try:
            f = open(path, "rb")
        except OSError:
            return None                      # no game
        try:
            setup, err = self._read(f)
        except (OSError, MemoryError) as exc:
            setup, err = None, "journal unreadable: %r" % (exc,)
        finally:
            f.close()
        if setup is None:
            self._forget()
            self.last_error = err
            if err is not None:              # a file that is no game: kept aside, said
                self._damaged(err, 0, None)
            return None
        if err is not None:                  # drop the bad tail: rewrite the journal
            total = _size(path)
            self.dropped_bytes = total - self._size if total > self._size else 0
            self.last_error = "%s at byte %d: dropped it and the %d byte(s) from there" % (
                err, self._size, self.dropped_bytes)
            if err != "torn record":         # not a cut's unacknowledged last record: damage
                self._damaged(err, self._size, self._count)
            self._dirty = True
            self._try_compact()
        return setup

    def _damaged(self, why, at, restored):
        """journal.bin cannot be read from byte `at`: a copy of it is kept
        beside it and the damage said (store/damage.py, loaded for this)."""
        from osada_fw import forget
        from osada_fw.store import damage
        try:
            damage.keep_file(self, why, at, restored)
        finally:
            forget("osada_fw.store.damage")

    def _read(self, f):
        """Parse the open journal into memory.  Returns (setup dict or None,
        why reading stopped early or None)."""
        from osada_fw import forget
        from osada_fw.store import records_read  # boot-time code: loaded for this, dropped after
        try:
            raw, setup, err = records_read.read_setup(f)
            if setup is None:
                return None, err
            self._setup = raw
            self._size, err = records_read.read_actions(f, 11 + len(raw), self)
            return setup, err
        finally:
            forget("osada_fw.store.records_read")
