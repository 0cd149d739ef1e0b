# A damaged save is kept and said, never silently replaced (issue 64).
# When a load finds that part of a saved game cannot be read (not a power
# cut's torn last record, which was never acknowledged, but bytes that do
# not read back as they were written), the journal keeps those bytes and
# says in words what was lost, until the table acknowledges it:
#   j.damage   the sentence (None: nothing damaged, or acknowledged)
#   j.kept     where the bytes are: a file beside the journal (journal.py:
#              journal-damaged-<time>.bin, a copy made before anything is
#              rewritten) or "flash" (flashlog.py: the log's own sectors,
#              read off with the `journal` request)
# The `journal` request (link/commands.py) reports it, acknowledges it, and
# hands the kept bytes to the host in pieces (`osada journal save`).
# Loaded only when a load finds damage or the host asks: a board whose
# saves read back carries none of it.
# Runs on MicroPython 1.2x and CPython.

import binascii
import os
import time

from osada_fw.store.records import MAX_ACTION, MAX_BATCH, RESIDUE, T_ACTION, T_BATCH, T_UNDO, alen, log_maxlen

PIECE = 512                 # bytes of kept data a `journal` reply carries (as hex)


def _stamp():
    t = time.localtime()
    return "%04d%02d%02d-%02d%02d%02d" % (t[0], t[1], t[2], t[3], t[4], t[5])


def _copy(j):
    """Copy journal.py's journal.bin aside, beside it.  Returns (its bytes,
    the copy's path or None, why no copy could be kept or None)."""
    name = "journal-damaged-%s" % _stamp()
    path = "%s/%s.bin" % (j.dir, name)
    k = 1
    while True:                                # a name no file has yet
        try:
            os.stat(path)
        except OSError:
            break
        k += 1
        path = "%s/%s-%d.bin" % (j.dir, name, k)
    data = b""
    try:
        with open(j.path, "rb") as f:
            data = f.read()
        with open(path, "wb") as f:
            f.write(data)
            f.flush()
    except OSError as exc:                     # no room for a copy: said, the game goes on
        try:
            os.remove(path)
        except OSError:
            pass
        return data, None, "no copy could be kept (%r)" % (exc,)
    return data, path, None


def keep_file(j, why, at, restored):
    """journal.py's journal.bin cannot be read from byte `at` on (`why`):
    copy the file aside, count what it held after `at`, and say it.
    restored: the actions kept (None: not even the setup could be read)."""
    data, j.kept, trouble = _copy(j)
    if restored is None:
        words = "the saved game could not be read (%s, %d bytes)" % (why, len(data))
    else:
        words = "the saved game is damaged at byte %d (%s): %d action%s restored, %s dropped" % (
            at, why, restored, "" if restored == 1 else "s", _dropped(data, at))
    if trouble is not None:
        words += "; " + trouble
    j.damage = words
    return words


def _dropped(data, at):
    """What the damaged record at byte `at` and the readable records after
    it held, in words: the damaged one and the actions found after it (each
    offset is tried: a good record ends with its own CRC)."""
    n = 0
    i = at + 1
    end = len(data)
    while i + 7 <= end:
        typ = data[i]
        ln = data[i + 1] | data[i + 2] << 8
        top = MAX_ACTION if typ == T_ACTION else MAX_BATCH if typ == T_BATCH else 0 if typ == T_UNDO else -1
        if 0 <= ln <= top and i + 7 + ln <= end and binascii.crc32(data[i:i + 7 + ln]) == RESIDUE:
            p = i + 3
            while typ != T_UNDO and p < i + 3 + ln:
                m = alen(data, p, i + 3 + ln)
                if m <= 0:
                    break
                n += 1
                p += m
            i += 7 + ln
        else:
            i += 1
    return "the damaged record and the %d action%s after it" % (n, "" if n == 1 else "s")


def flash_damage(log, why, restored):
    """flashlog.py's log holds sectors it cannot read as a game: say so; the
    sectors themselves are what is kept (the `journal` request reads them)."""
    if restored is not None:
        why = "%s: %d action%s restored, the log after it dropped" % (why, restored, "" if restored == 1 else "s")
    log.damage = "the saved game on the board's flash could not be read (%s)" % (why,)
    log.kept = "flash"


def good_after(log, blk, at):
    """Whether a good record (its own CRC) stands anywhere in block blk
    after byte `at`, where a bad one stands.  A power cut tears only the
    last record written, so one with good records after it is damage
    (bits that changed on flash), which is said and kept, not a tear."""
    n = log.sector - at - 1
    if n < 9:
        return False
    buf = bytearray(n)
    log.dev.readblocks(blk, buf, at + 1)
    mv = memoryview(buf)
    for i in range(n - 8):
        top = log_maxlen(buf[i])
        if top < 0:
            continue
        k = 9 + (buf[i + 1] | buf[i + 2] << 8)
        if k - 9 <= top and i + k <= n and binascii.crc32(mv[i:i + k]) == RESIDUE:
            return True
    return False


def refused(j, i, count, why):
    """core.py's restore: the engine refused action i + 1 of count; the
    journal is about to be rewritten without them: a file journal is
    copied aside first (the flash log's old sectors stay until reused)."""
    words = "the saved game could not be replayed past action %d of %d (%s): %d action%s dropped" % (
        i, count, why, count - i, "" if count - i == 1 else "s")
    if getattr(j, "path", None) is not None:
        _data, j.kept, trouble = _copy(j)
        if trouble is not None:
            words += "; " + trouble
    else:
        j.kept = "flash"
    j.damage = words
    return words


# ------------------------------------------------------ the `journal` request

def report(j, req):
    """The `journal` request: {"ack": true} acknowledges the damage (the
    sentence is no longer shown); {"read": offset} gives PIECE bytes of the
    kept data as hex from there.  Always: the status and what is kept."""
    if req.get("ack") is True:
        j.damage = None
    out = {"damaged": j.damage is not None, "lost": j.damage, "kept": j.kept}
    src = kept_bytes(j)
    out["bytes"] = -1 if src is None else src[0]
    at = req.get("read")
    if at is not None:
        if not isinstance(at, int) or isinstance(at, bool) or at < 0:
            raise ValueError("read must be a byte offset, 0 or more")
        if src is None:
            raise ValueError("no kept bytes on this board")
        out["at"] = at
        out["hex"] = binascii.hexlify(src[1](at, PIECE)).decode()
    return out


def kept_bytes(j):
    """(size, read(at, n) -> bytes) of what is kept, or None."""
    if j.kept is None:
        return None
    if j.kept == "flash":
        size = j.nblocks * j.sector
        buf = bytearray(256)

        def read_flash(at, n):
            out = bytearray()
            while n > 0 and at < size:
                blk = at // j.sector
                off = at % j.sector
                k = min(n, 256, j.sector - off)
                mv = memoryview(buf)[:k]
                j.dev.readblocks(j.first + blk, mv, off)
                out.extend(mv)
                at += k
                n -= k
            return bytes(out)
        return size, read_flash
    try:
        size = os.stat(j.kept)[6]
    except OSError:
        return None

    def read_file(at, n):
        with open(j.kept, "rb") as f:
            f.seek(at)
            return f.read(n)
    return size, read_file
