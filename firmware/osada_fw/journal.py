# The power-safe game journal: the game in progress, kept in flash.
#
# A game is its setup plus its accepted actions (event sourcing, see
# shared_rules/engine.py), so the journal stores exactly that.  Every accepted
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
# actions and undo markers), each with its CRC: osada_fw/records.py.  A load
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
# RAM: the live actions are kept packed (their encodings, plus one length byte
# each: ~5 bytes an action, in buffers that grow by doubling) so compaction
# needs nothing from the caller.

import json
import os

from osada_fw.records import (
    MAGIC,
    MAX_ACTION,
    MAX_BATCH,
    MAX_SETUP,
    T_ACTION,
    T_BATCH,
    T_SETUP,
    T_UNDO,
    alen,
    frame,
    read_actions,
    read_setup,
)
from shared_rules.actions import decode, encode

NAME = "journal.bin"
TMP_NAME = "journal.tmp"

LIMIT = 8192
MAX_UNDOS = 64
_replace = getattr(os, "replace", None) or os.rename
_fsync = getattr(os, "fsync", None)


try:                        # bytearray slice assignment (MICROPY_PY_ARRAY_SLICE_ASSIGN)
    _t = bytearray(2)
    _t[0:1] = b"x"
    _SLICE = True
except Exception:
    _SLICE = False


def _room(buf, need):
    """buf, grown (by doubling) to hold at least `need` bytes."""
    n = len(buf)
    if need <= n:
        return buf
    new = n * 2 if n else 64
    while new < need:
        new *= 2
    buf.extend(bytes(new - n))
    return buf


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


def _dumps(obj):
    try:
        return json.dumps(obj, separators=(",", ":"))
    except TypeError:               # a port without separators
        return json.dumps(obj)


class Journal:
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
        self.last_error = None      # why the last load/restore dropped something, or None
        self.dropped_bytes = 0      # bytes the last load dropped
        self.compactions = 0
        self._f = None              # journal.bin, open for appending
        self._forget()

    def _forget(self):
        self._setup = None          # the 'S' payload (bytes); None: no game known
        self._live = bytearray()    # the live actions' encodings, back to back ...
        self._used = 0              # ... in its first _used bytes
        self._sizes = bytearray()   # each live action's encoded length ...
        self._count = 0             # ... for the first _count of them
        self._size = 0              # bytes in journal.bin
        self._undos = 0             # undo markers in journal.bin
        self._dirty = False         # journal.bin has a bad tail: rewrite before appending

    # ------------------------------------------------------------- public

    def start(self, setup):
        """A new game: atomically replace whatever was there with a journal
        holding just `setup` (the dict Game.setup_dict() returns)."""
        raw = self._setup_bytes(setup)
        self._install(raw, bytearray(), 0, bytearray(), 0)
        self.last_error = None

    def append(self, t):
        """Journal one accepted action tuple; durable when this returns.
        Raises OSError if it could not be written (it is then not journalled)."""
        self._need_game()
        payload = encode(t)
        n = len(payload)
        if alen(payload, 0, n) != n:
            raise ValueError("not an action tuple: %r" % (t,))
        self._write_record(T_ACTION, payload)
        self._push(payload, n)
        self._maybe_compact()

    def undo(self):
        """Undo the last live action (an undo marker is appended).  Returns
        False, writing nothing, if there is no action to undo."""
        self._need_game()
        if not self._count:
            return False
        self._write_record(T_UNDO, b"")
        self._pop()
        self._undos += 1
        self._maybe_compact()
        return True

    def restore(self):
        """The game in the journal, rebuilt (shared_rules.engine.Game), or None.
        An action the engine refuses stops the restore there: it and the rest
        are dropped from the journal, and last_error says why."""
        from shared_rules.engine import Game, RuleError
        setup = self._scan()
        if setup is None:
            return None
        try:
            game = Game.from_setup(setup)
        except Exception as exc:
            self.last_error = "the journal's setup is refused: %r" % (exc,)
            return None
        live = self._live
        sizes = self._sizes
        count = self._count
        pos = 0
        i = 0
        why = None
        t = None
        while i < count:
            t = decode(live, pos)[0]
            try:
                game.apply_tuple(t)
            except RuleError as exc:         # the state is untouched
                why = "%s: %s" % (exc.rule, exc.message)
            except Exception as exc:         # a bug: the state may be half-changed
                why = repr(exc)
                game = Game.from_setup(setup)
                p = 0
                for j in range(i):
                    game.apply_tuple(decode(live, p)[0])
                    p += sizes[j]
            if why is not None:
                break
            pos += sizes[i]
            i += 1
        if why is not None:
            self.last_error = "action %d of %d %r refused on restore, dropped with the rest: %s" % (
                i + 1, count, t, why)
            self._used = pos
            self._count = i
            self._dirty = True
            self._try_compact()
        return game

    def compact(self, setup=None, actions=None):
        """Rewrite the journal as a snapshot (setup + live actions, no undo
        markers): written to journal.tmp, then renamed over journal.bin.
        With no arguments, the game the journal holds; else `setup` (dict)
        and `actions` (tuples) replace it.  Raises OSError on failure; the
        old journal is then still complete."""
        if setup is None:
            self._need_game()
            self._install(self._setup, self._live, self._used, self._sizes, self._count)
        else:
            raw = self._setup_bytes(setup)
            live = bytearray()
            sizes = bytearray()
            used = 0
            count = 0
            for t in actions or ():
                b = encode(t)
                n = len(b)
                if alen(b, 0, n) != n:
                    raise ValueError("not an action tuple: %r" % (t,))
                live.extend(b)
                sizes.append(n)
                used += n
                count += 1
            self._install(raw, live, used, sizes, count)
        self.compactions += 1

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

    @property
    def count(self):
        """Live actions in the journal."""
        return self._count

    @property
    def size(self):
        """Bytes in journal.bin."""
        return self._size

    # ------------------------------------------------------------ in memory

    def _push(self, src, n):
        """Add a live action: its encoding src (n bytes)."""
        used = self._used
        live = self._live = _room(self._live, used + n)
        if _SLICE:
            live[used:used + n] = src
        else:
            for i in range(n):
                live[used + i] = src[i]
        self._used = used + n
        sizes = self._sizes = _room(self._sizes, self._count + 1)
        sizes[self._count] = n
        self._count += 1

    def _pop(self):
        self._count -= 1
        self._used -= self._sizes[self._count]

    # ------------------------------------------------------------ writing

    @staticmethod
    def _setup_bytes(setup):
        raw = _dumps(setup).encode()
        if len(raw) > MAX_SETUP:
            raise ValueError("setup too large for the journal (%d > %d bytes)" % (len(raw), MAX_SETUP))
        return raw

    def _need_game(self):
        if self._setup is None and self._scan() is None:
            raise ValueError("no game in the journal; start() one first (%s)" % (self.last_error,))

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
        self._setup = raw
        self._live = live
        self._used = used
        self._sizes = sizes
        self._count = count
        self._size = size
        self._undos = 0
        self._dirty = False

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

    def _try_compact(self):
        try:
            self.compact()
        except OSError as exc:               # the journal as it was is still good
            self.last_error = "compaction failed: %r" % (exc,)
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
            return None
        if err is not None:                  # drop the bad tail: rewrite the journal
            total = _size(path)
            self.dropped_bytes = total - self._size if total > self._size else 0
            self.last_error = "%s at byte %d: dropped it and the %d byte(s) from there" % (
                err, self._size, self.dropped_bytes)
            self._dirty = True
            self._try_compact()
        return setup

    def _read(self, f):
        """Parse the open journal into memory.  Returns (setup dict or None,
        why reading stopped early or None)."""
        raw, setup, err = read_setup(f)
        if setup is None:
            return None, err
        self._setup = raw
        self._size, err = read_actions(f, 11 + len(raw), self)
        return setup, err

    # the sink read_actions() fills
    def take_action(self, src, n):
        self._push(src, n)

    def take_undo(self):
        self._undos += 1
        if self._count:
            self._pop()
