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
# journal.bin = header, then records:
#   header   4 bytes  b"OSJ" + format version (1)
#   record   [type: 1 byte][n: 2 bytes LE][payload: n bytes][crc: 4 bytes LE]
#            crc = binascii.crc32 of type + n + payload (so the crc32 of a
#            whole good record is the CRC-32 residue 0x2144DF1C: that is how
#            it is checked, with no 32-bit int built on MicroPython)
#   types    'S' 0x53  the setup: compact JSON of Game.setup_dict() (n <= 4096);
#                      always the first record, and only there
#            'A' 0x41  one accepted action: actions.encode(t) (4 bytes, or
#                      4 + k for a marshal_play of k tokens; n <= 12)
#            'B' 0x42  several actions, encodings concatenated (n <= 1024);
#                      written by compaction
#            'U' 0x55  undo marker (n = 0): the last live action is undone
#
# Reading stops at the first record that is torn (file ends inside it), fails
# its CRC, has an unknown type or a bad length, or does not decode: that
# record and everything after it are dropped, and the journal is rewritten
# (atomically, like a compaction) so the next append lands after good data.
# A file that ends exactly after a record is clean.
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
# needs nothing from the caller; reading goes through one 2 KB buffer.

import binascii
import json
import os

from shared_rules.actions import MARSHAL_PLAY, OPS, decode, encode

MAGIC = b"OSJ\x01"
NAME = "journal.bin"
TMP_NAME = "journal.tmp"

T_SETUP = 0x53
T_ACTION = 0x41
T_BATCH = 0x42
T_UNDO = 0x55

MAX_SETUP = 4096
MAX_TOKENS = 8
MAX_ACTION = 4 + MAX_TOKENS
MAX_BATCH = 1024
LIMIT = 8192
MAX_UNDOS = 64
READ_BUF = 2048             # > the largest action record (7 + MAX_BATCH)
_RESIDUE = 0x2144DF1C       # crc32 of any data followed by its own crc32 (LE)

_NOPS = len(OPS)
_replace = getattr(os, "replace", None) or os.rename
_fsync = getattr(os, "fsync", None)


def _maxlen(typ):
    if typ == T_ACTION:
        return MAX_ACTION
    if typ == T_BATCH:
        return MAX_BATCH
    if typ == T_UNDO:
        return 0
    return -1               # the setup is read apart; anything else is unknown


def _alen(buf, pos, end):
    """Length of the encoded action at buf[pos:end], or -1 if it is not one."""
    if pos + 4 > end:
        return -1
    op = buf[pos]
    if op >= _NOPS:
        return -1
    if op == MARSHAL_PLAY:
        k = buf[pos + 3]
        if k > MAX_TOKENS or pos + 4 + k > end:
            return -1
        return 4 + k
    return 4


try:                        # bytearray slice assignment (MICROPY_PY_ARRAY_SLICE_ASSIGN)
    _t = bytearray(2)
    _t[0:1] = b"x"
    _SLICE = True
except Exception:
    _SLICE = False


def _crc_bytes(crc):
    return bytes((crc & 255, (crc >> 8) & 255, (crc >> 16) & 255, (crc >> 24) & 255))


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


def _fill(f, buf, mv, start, end):
    """Move buf[start:end] to the front and read more after it.  Returns the
    new end (start is then 0)."""
    k = end - start
    if start:
        for i in range(k):
            buf[i] = buf[start + i]
    got = f.readinto(mv[k:])
    return k + (got or 0)


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
        if _alen(payload, 0, n) != n:
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
                if _alen(b, 0, n) != n:
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
        n = len(payload)
        head = bytes((typ, n & 255, n >> 8))
        crc = _crc_bytes(binascii.crc32(payload, binascii.crc32(head)))
        f = self._f
        try:
            if f is None:
                if _size(self.path) != self._size:   # gone or changed behind our back
                    self._dirty = True
                    self.compact()
                f = self._f = open(self.path, "ab")
            f.write(head)
            f.write(payload)
            f.write(crc)
            _sync(f)
        except BaseException:
            self._dirty = True               # a partial record may be there
            self.close()
            raise
        self._size += 7 + n

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
            size = 4 + self._frame(f, T_SETUP, raw)
            mv = memoryview(live)
            a = 0
            b = 0
            for i in range(count):
                n = sizes[i]
                if b + n - a > MAX_BATCH:
                    size += self._frame(f, T_BATCH, mv[a:b])
                    a = b
                b += n
            if b > a:
                size += self._frame(f, T_BATCH, mv[a:b])
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

    @staticmethod
    def _frame(f, typ, payload):
        n = len(payload)
        head = bytes((typ, n & 255, n >> 8))
        f.write(head)
        f.write(payload)
        f.write(_crc_bytes(binascii.crc32(payload, binascii.crc32(head))))
        return 7 + n

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
        setup, err = self._read_setup(f)
        if setup is None:
            return None, err
        return setup, self._read_actions(f)

    def _read_setup(self, f):
        """The header and the setup record: (setup dict, None) or (None, why)."""
        if f.read(4) != MAGIC:
            return None, "not a journal, or another format version"
        head = f.read(3)
        if len(head) < 3 or head[0] != T_SETUP:
            return None, "no setup record"
        n = head[1] | head[2] << 8
        if n > MAX_SETUP:
            return None, "bad setup record"
        body = f.read(n + 4)
        if len(body) < n + 4:
            return None, "torn setup record"
        if binascii.crc32(body, binascii.crc32(head)) != _RESIDUE:
            return None, "CRC mismatch in the setup record"
        raw = body[:n]
        try:
            setup = json.loads(raw.decode())
        except (ValueError, UnicodeError):
            setup = None
        if not isinstance(setup, dict):
            return None, "bad setup record"
        self._setup = raw
        self._size = 11 + n
        return setup, None

    def _read_actions(self, f):
        """The records after the setup, through one buffer, into memory.
        Returns why reading stopped early, or None at a clean end."""
        pos = self._size
        buf = bytearray(READ_BUF)
        mv = memoryview(buf)
        start = end = 0
        err = None
        while True:
            if end - start < 3:
                end = _fill(f, buf, mv, start, end)
                start = 0
                if end == 0:
                    break                    # clean end
                if end < 3:
                    err = "torn record"
                    break
            typ = buf[start]
            n = buf[start + 1] | buf[start + 2] << 8
            if n > _maxlen(typ):
                err = "bad record type or length"
                break
            k = n + 7
            if end - start < k:
                end = _fill(f, buf, mv, start, end)
                start = 0
                if end < k:
                    err = "torn record"
                    break
            if binascii.crc32(mv[start:start + 3 + n + 4]) != _RESIDUE:
                err = "CRC mismatch"
                break
            err = self._take_record(typ, buf, mv, start + 3, start + 3 + n)
            if err is not None:
                break
            start += k
            pos += k
        self._size = pos
        return err

    def _take_record(self, typ, buf, mv, a, b):
        """Apply one good record (payload buf[a:b]) to the live actions.
        Returns why it is not a valid record, or None."""
        n = b - a
        if typ == T_ACTION:
            if _alen(buf, a, b) != n:
                return "bad action record"
            self._push(mv[a:b], n)
        elif typ == T_UNDO:
            self._undos += 1
            if self._count:
                self._pop()
        else:
            p = a
            while p < b:                     # a batch: check it whole first
                m = _alen(buf, p, b)
                if m < 0:
                    return "bad action record"
                p += m
            p = a
            while p < b:
                m = _alen(buf, p, b)
                self._push(mv[p:p + m], m)
                p += m
        return None
