# Reading the flash journal back (store/flashlog.py's format) at boot:
# FlashLog._scan loads this module (and records_read.py) for the read and
# forgets them after, so a game in progress carries none of their code.  Functions of the FlashLog
# (`log`) being read.  Runs on MicroPython 1.2x and CPython.

import binascii
import json

from osada_fw.store.core import SLICE, room
from osada_fw.store.records import (
    ERASED,
    LOG_HEADER,
    LOG_MAGIC,
    LOG_READ_BUF,
    PAGE,
    RESIDUE,
    T_ACTION,
    T_END,
    T_SETUP,
    alen,
    log_maxlen,
    u32,
)

_hurt = None          # scan(): damage seen, in words (not a power cut's torn last record)
_bad_at = 0           # _read_sector(): where the bad record it stopped at stands

def scan(log):
    """Read the log into memory.  Returns the setup dict, or None."""
    log._forget()
    log.last_error = None
    log.dropped_bytes = 0
    gens, bases = _headers(log)
    top = -1
    for g in gens:
        if g > top:
            top = g
    log._gen = top
    log._ready = -1
    global _hurt
    _hurt = None                       # damage seen, in words (not a torn last record)
    t = top
    setup = None
    for _ in range(log.nblocks):
        if t < 0 or gens[t % log.nblocks] != t:
            break
        b = bases[t % log.nblocks]
        if b > t or t - b >= log.nblocks:
            break
        setup = _read(log, b, t, gens, bases)
        if setup is not None:
            log._base = b
            if t < top and _hurt is None:
                drop_abandoned(log, t, top)
            elif t < top:                  # a newer snapshot that is damaged, not abandoned: its sectors
                log._gen = top             # are kept until the log needs a sector (flashlog._new_sector)
                log.kept_after = t
                log._fresh = True
            break
        log._forget()
        t = b - 1
    hurt = _hurt
    if setup is None:
        log._forget()
        log._base = top + 1            # nothing on flash is live
        if top >= 0:
            log.last_error = "no complete game in the flash journal"
            if hurt is not None:
                _damaged(log, hurt, None)
        return None
    if hurt is not None:
        _damaged(log, hurt, log._count)
    return setup


def _damaged(log, why, restored):
    """What the scan could not read is not a power cut's torn last record: said, its sectors
    kept (store/damage.py, loaded for this)."""
    from osada_fw import forget
    from osada_fw.store import damage
    damage.flash_damage(log, why, restored)
    forget("osada_fw.store.damage")


def _good_after(log, blk, at):
    """Whether a good record stands after the bad one at byte `at` of block blk
    (store/damage.py: loaded only after a bad record, which a clean boot has none of)."""
    from osada_fw import forget
    from osada_fw.store import damage
    try:
        return damage.good_after(log, blk, at)
    finally:
        forget("osada_fw.store.damage")


def drop_abandoned(log, t, top):
    """Sectors t+1 .. top hold snapshots a power cut left without their
    'E': erase them (newest first) so the log goes on from sector t and
    no stray record of theirs can ever pass for a continuation."""
    try:
        for g in range(top, t, -1):
            if not log._blank(g):
                log.dev.ioctl(6, log._blk(g))
                log.erases += 1
        log._gen = t
    except OSError:
        log._fresh = True                  # flash trouble: leave them, go on after them
    log._ready = -1


def release(log, need):
    """flashlog.py (loading this module for it): a damaged snapshot's sectors, kept after the live log since the boot
    (log.kept_after, the gen the live log ends at): the log writes after them while its
    ring has room for `need` more sectors; when it has not, they are given up and the log
    goes on from where the live log ends."""
    if log._gen + need - log.nblocks < log._base:
        return
    drop_abandoned(log, log.kept_after, log._gen)
    log.kept_after = -1
    log._fresh = True


def _headers(log):
    n = log.nblocks
    gens = [-1] * n
    bases = [0] * n
    head = bytearray(LOG_HEADER)
    for s in range(n):
        log.dev.readblocks(log.first + s, head, 0)
        if head[0:4] == LOG_MAGIC and binascii.crc32(head) == RESIDUE:
            g = u32(head, 4)
            if g % n == s:
                gens[s] = g
                bases[s] = u32(head, 8)
    return gens, bases


def _read(log, b, top, gens, bases):
    """Read the log of the snapshot at gen b, up to gen top (its newest
    sector; later ones are not looked at).  Returns the setup dict if
    the snapshot is committed, else None.  Leaves the writer after the
    last good record when that is the clean end of sector top, else
    set to start a fresh sector."""
    global _hurt
    n = log.nblocks
    buf = bytearray(LOG_READ_BUF)
    log._rseq = 0                      # the next record's seq
    log._rsetup = None                 # the setup dict, once read
    log._rdone = False                 # the snapshot's 'E' seen
    why = None
    why_seq = -1                        # the seq where `why` stopped a sector
    clean_at = -1                       # where sector `top` ends cleanly
    for g in range(b, top + 1):
        if gens[g % n] != g or bases[g % n] != b:
            continue                    # not this snapshot's (an abandoned one's)
        end, bad = _read_sector(log, log.first + g % n, buf)
        if bad is not None:
            if _hurt is None and _good_after(log, log.first + g % n, _bad_at):
                _hurt = "%s in sector %d at byte %d, with good records after it" % (bad, g, _bad_at)
            if log._rsetup is None:
                return None
            why = bad
            why_seq = log._rseq
        elif end < 0 and log._rsetup is not None and _hurt is None:
            _hurt = "sector %d does not go on from the records before it" % (g,)
        elif g == top:
            clean_at = end
    setup = log._rsetup
    log._rsetup = None
    if setup is None or not log._rdone:
        return None
    seq = log._rseq
    log._seq = seq
    if 0 <= clean_at < log.sector and _erased_from(log, log.first + top % n, clean_at):
        log._pos = clean_at
        log._fresh = False
        log.dev.readblocks(log.first + top % n, log._page, clean_at & ~(PAGE - 1))
    else:
        log._fresh = True              # after a torn record: a fresh sector
        if 0 <= clean_at:               # a torn record whose type byte reads 0xFF:
            why = "torn record"         # its other bits are programmed
            why_seq = seq
    if why_seq == seq:                  # nothing after it: dropped just now
        log.last_error = "%s at the end of the flash journal: dropped it" % (why,)
    return setup


def _erased_from(log, blk, at):
    """Whether every byte of block blk from `at` to its end is 0xFF: where
    the records end may only be erased flash.  A power cut in a page
    program leaves any subset of the record's bits cleared, so its type
    byte can read 0xFF while the bytes after it do not; a record programmed
    there would be the AND of both (issue 64).  The writer then starts a
    fresh sector."""
    page = log._chk
    k = -at & (PAGE - 1)                # the rest of at's page
    if k:
        log.dev.readblocks(blk, memoryview(page)[:k], at)
        if page[:k] != ERASED[:k]:
            return False
    off = at + k
    while off < log.sector:
        log.dev.readblocks(blk, page, off)
        if page != ERASED:
            return False
        off += PAGE
    return True


def _read_sector(log, blk, buf):
    """Take the records of one sector that continue the log.  Returns
    (where its records end cleanly, or -1; why reading stopped at a bad
    record, or None)."""
    global _bad_at
    mv = memoryview(buf)
    size = log.sector
    read = log.dev.readblocks
    crc32 = binascii.crc32
    # the common record is read inline (restore time is mostly this loop); the
    seq = log._rseq                     # log's counters live in locals meanwhile, and go back
    total = log._size                   # to it (_put) before anything else looks at them
    used = log._used
    count = log._count
    live = log._live
    sizes = log._sizes
    pos = LOG_HEADER
    end = pos                           # buf holds flash bytes [pos, end)
    i = 0
    while True:
        if end - pos - i < 5:
            pos += i
            i = 0
            k = min(LOG_READ_BUF, size - pos)
            if k < 5:
                _put(log, seq, total, used, count, live, sizes)
                return pos, None
            read(blk, mv[:k], pos)
            end = pos + k
        typ = buf[i]
        if typ == 0xFF:
            _put(log, seq, total, used, count, live, sizes)
            return pos + i, None
        ln = buf[i + 1] | buf[i + 2] << 8
        k = 9 + ln
        if ln > log_maxlen(typ) or pos + i + k > size:
            _put(log, seq, total, used, count, live, sizes)
            _bad_at = pos + i
            return -1, "bad record"
        if i + k > end - pos:
            pos += i
            i = 0
            end = pos + min(LOG_READ_BUF, size - pos)
            read(blk, mv[:end - pos], pos)
        if crc32(mv[i:i + k]) != RESIDUE:
            _put(log, seq, total, used, count, live, sizes)
            _bad_at = pos + i
            return -1, "torn record"    # or a bad one: it ends the sector
        if (SLICE and typ == T_ACTION and seq and (buf[i + 3] | buf[i + 4] << 8) == seq
                and alen(buf, i + 5, i + 5 + ln) == ln):
            if used + ln > len(live):   # the common record: one action
                live = room(live, used + ln)
            live[used:used + ln] = mv[i + 5:i + 5 + ln]
            used += ln
            if count >= len(sizes):
                sizes = room(sizes, count + 1)
            sizes[count] = ln
            count += 1
        else:
            _put(log, seq, total, used, count, live, sizes)
            why = _take(log, typ, buf, mv, i, ln)
            if why is not None:
                _bad_at = pos + i
                return -1, (why or None)
            used = log._used
            count = log._count
            live = log._live
            sizes = log._sizes
        total += k
        seq = (seq + 1) & 0xFFFF
        i += k


def _put(log, seq, total, used, count, live, sizes):
    """_read_sector's counters back into the log."""
    log._rseq = seq
    log._size = total
    log._used = used
    log._count = count
    log._live = live
    log._sizes = sizes


def _take(log, typ, buf, mv, i, ln):
    """One good record at buf[i]: None if taken, "" if it is not the
    log's next one (it ends the sector, nothing said), else why not."""
    if (buf[i + 3] | buf[i + 4] << 8) != log._rseq:
        return ""
    if log._rseq == 0:
        if typ != T_SETUP:
            return ""
        setup = _setup(mv[i + 5:i + 5 + ln])
        if setup is None:
            return "bad setup record"
        log._rsetup = setup
        log._setup = bytes(mv[i + 5:i + 5 + ln])
    elif typ == T_END:
        log._rdone = True
    elif typ == T_SETUP:
        return "bad record"
    else:
        # a batch or an undo: records_read.py (~7 ms to import on a Pico) is
        # loaded only for a log that has them, not for plain action records
        from osada_fw.store.records_read import take_record
        if take_record(typ, buf, mv, i + 5, i + 5 + ln, log) is not None:
            return "bad record"
    return None


def _setup(raw):
    try:
        setup = json.loads(bytes(raw).decode())
    except (ValueError, UnicodeError):
        return None
    return setup if isinstance(setup, dict) else None
