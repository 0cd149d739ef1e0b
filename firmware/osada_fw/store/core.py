# What both game journals share: the game in memory (its setup and its live
# actions, packed), the public API the app uses, and the restore that replays
# the journal through the engine.  Where the records go is a backend's:
#   store/journal.py    a littlefs file (any MicroPython with a filesystem;
#                          CPython: a directory)
#   store/flashlog.py   an append-only log on raw NOR flash (the blocks of a
#                          littlefs file, lfsregion.py): no sector erase in an action's path
# The Pico's HAL picks one (hal/pico.py open_journal); only that backend's
# module is imported.  Runs unchanged on MicroPython 1.2x and CPython.
#
# A backend implements:
#   _write_record(typ, payload)   append one record (records.py's types), durable
#                                 on return, or raise OSError (nothing journalled)
#   _install(raw, live, used, sizes, count)   write this game as a snapshot
#                                 (atomically replacing the journal) and hold it
#   _scan()                       read the journal into memory: the setup dict or
#                                 None; feeds take_action/take_undo; sets _dirty
#                                 when what is on flash must be rewritten
#   _maybe_compact(), _compact_failed(), clear(), close(), size, idle()
#
# RAM: the live actions are kept packed (their encodings, plus one length byte
# each: ~5 bytes an action, in buffers that grow 256 bytes at a time) so a compaction
# needs nothing from the caller.

import json

from osada_fw.store.records import MAX_SETUP, T_ACTION, T_UNDO, alen
from shared_rules.siege.actions import decode, encode

try:                        # bytearray slice assignment (MICROPY_PY_ARRAY_SLICE_ASSIGN)
    _t = bytearray(2)
    _t[0:1] = b"x"
    SLICE = True
except Exception:
    SLICE = False


def room(buf, need):
    """buf, grown to hold at least `need` bytes, in steps of 256: little
    slack (doubling left up to half of it unused; the heap is the Pico's
    tightest resource, and a step is ~64 actions)."""
    n = len(buf)
    if need <= n:
        return buf
    buf.extend(bytes((need - n + 255) & ~255))
    return buf


def dumps(obj):
    try:
        return json.dumps(obj, separators=(",", ":"))
    except TypeError:               # a port without separators
        return json.dumps(obj)


class GameJournal:
    """The game in memory and the public API; subclasses store it."""

    max_setup = MAX_SETUP

    def __init__(self):
        self.last_error = None      # why the last load/restore dropped something, or None
        self.dropped_bytes = 0      # bytes the last load dropped
        self.damage = None          # a saved game that could not be read, in words, until acknowledged
        self.kept = None            # where its bytes are kept (store/damage.py)
        self.compactions = 0
        self._forget()

    def _forget(self):
        self._setup = None          # the 'S' payload (bytes); None: no game known
        self._live = bytearray()    # the live actions' encodings, back to back ...
        self._used = 0              # ... in its first _used bytes
        self._sizes = bytearray()   # each live action's encoded length ...
        self._count = 0             # ... for the first _count of them
        self._size = 0              # bytes of the journal on flash
        self._undos = 0             # undo markers on flash
        self._dirty = False         # what is on flash must be rewritten before appending

    # ------------------------------------------------------------- public

    def start(self, setup):
        """A new game: atomically replace whatever was there with a journal
        holding just `setup` (the dict Game.setup_dict() returns)."""
        raw = self._setup_bytes(setup)
        self._install(raw, bytearray(), 0, bytearray(), 0)  # pyright: ignore[reportAttributeAccessIssue]  the backend's
        self.last_error = None

    def append(self, t):
        """Journal one accepted action tuple; durable when this returns.
        Raises OSError if it could not be written (it is then not journalled)."""
        self._need_game()
        payload = encode(t)
        n = len(payload)
        if alen(payload, 0, n) != n:
            raise ValueError("not an action tuple: %r" % (t,))
        try:
            self._write_record(T_ACTION, payload)  # pyright: ignore[reportAttributeAccessIssue]  the backend's
        except OSError:                      # saved in a snapshot before the reply, or raised
            from osada_fw.store.retry import again
            if not again(self, payload, n):
                raise                        # the write's own error: what the table is told
            return
        self._push(payload, n)
        self._maybe_compact()  # pyright: ignore[reportAttributeAccessIssue]  the backend's

    def undo(self):
        """Undo the last live action (an undo marker is appended).  Returns
        False, writing nothing, if there is no action to undo."""
        self._need_game()
        if not self._count:
            return False
        try:
            self._write_record(T_UNDO, b"")  # pyright: ignore[reportAttributeAccessIssue]  the backend's
        except OSError:
            from osada_fw.store.retry import again
            if not again(self, None, 0):
                raise
            return True
        self._pop()
        self._undos += 1
        self._maybe_compact()  # pyright: ignore[reportAttributeAccessIssue]  the backend's
        return True

    def restore(self):
        """The game in the journal, rebuilt (shared_rules.siege.engine.Game), or None.
        An action the engine refuses stops the restore there: it and the rest
        are dropped from the journal, and last_error says why."""
        from shared_rules.siege.engine import Game, RuleError
        setup = self._scan()  # pyright: ignore[reportAttributeAccessIssue]  the backend's
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
            from osada_fw import forget
            from osada_fw.store import damage
            damage.refused(self, i, count, why)
            forget("osada_fw.store.damage")
            self._used = pos
            self._count = i
            self._dirty = True
            self._try_compact()
        return game

    def compact(self, setup=None, actions=None):
        """Rewrite the journal as a snapshot (setup + live actions, no undo
        markers), atomically.  With no arguments, the game the journal
        holds; else `setup` (dict) and `actions` (tuples) replace it.
        Raises OSError on failure; the old journal is then still complete."""
        if setup is None:
            self._need_game()
            self._install(self._setup, self._live, self._used, self._sizes, self._count)  # pyright: ignore[reportAttributeAccessIssue]  the backend's
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
            self._install(raw, live, used, sizes, count)  # pyright: ignore[reportAttributeAccessIssue]  the backend's
        self.compactions += 1

    def idle(self):
        """Called by the app when nothing else is going on: a backend may
        prepare flash for the next writes here.  Returns True if it did
        something (and may have taken a while)."""
        return False

    @property
    def count(self):
        """Live actions in the journal."""
        return self._count

    @property
    def size(self):
        """Bytes of the journal on flash."""
        return self._size

    # ------------------------------------------------------------ in memory

    def _push(self, src, n):
        """Add a live action: its encoding src (n bytes)."""
        used = self._used
        live = self._live = room(self._live, used + n)
        if SLICE:
            live[used:used + n] = src
        else:
            for i in range(n):
                live[used + i] = src[i]
        self._used = used + n
        sizes = self._sizes = room(self._sizes, self._count + 1)
        sizes[self._count] = n
        self._count += 1

    def _hold(self, raw, live, used, sizes, count, size):
        """Hold this game in memory, as just written to flash (size bytes there)."""
        self._setup = raw
        self._live = live
        self._used = used
        self._sizes = sizes
        self._count = count
        self._size = size
        self._undos = 0
        self._dirty = False

    def _pop(self):
        self._count -= 1
        self._used -= self._sizes[self._count]

    def _setup_bytes(self, setup):
        raw = dumps(setup).encode()
        if len(raw) > self.max_setup:
            raise ValueError("setup too large for the journal (%d > %d bytes)" % (len(raw), self.max_setup))
        return raw

    def _need_game(self):
        if self._setup is None and self._scan() is None:  # pyright: ignore[reportAttributeAccessIssue]  the backend's
            raise ValueError("no game in the journal; start() one first (%s)" % (self.last_error,))

    def _try_compact(self):
        try:
            self.compact()
        except OSError as exc:               # the journal as it was is still good
            self.last_error = "compaction failed: %r" % (exc,)
            self._compact_failed()

    def _compact_failed(self):
        pass

    # the sink the readers fill
    def take_action(self, src, n):
        self._push(src, n)

    def take_undo(self):
        self._undos += 1
        if self._count:
            self._pop()
