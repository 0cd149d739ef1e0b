# Reading a journal's records back (records.py's format): boot-time work.
# journal.py (a littlefs file) and flashscan.py (the raw-flash log) load this
# module for the read and forget it after (osada_fw.forget), so a game in
# progress carries none of its code.  Runs unchanged on MicroPython 1.2x and
# CPython.

import binascii
import json

from osada_fw.store.records import (
    MAGIC,
    MAX_ACTION,
    MAX_BATCH,
    MAX_SETUP,
    READ_BUF,
    RESIDUE,
    T_ACTION,
    T_BATCH,
    T_SETUP,
    T_UNDO,
    alen,
)


def _maxlen(typ):
    if typ == T_ACTION:
        return MAX_ACTION
    if typ == T_BATCH:
        return MAX_BATCH
    if typ == T_UNDO:
        return 0
    return -1               # the setup is read apart; anything else is unknown


def _fill(f, buf, mv, start, end):
    """Move buf[start:end] to the front and read more after it.  Returns the
    new end (start is then 0)."""
    k = end - start
    if start:
        for i in range(k):
            buf[i] = buf[start + i]
    got = f.readinto(mv[k:])
    return k + (got or 0)


def read_setup(f):
    """The header and the setup record of the open journal f.
    Returns (setup payload, setup dict, None) or (None, None, why)."""
    if f.read(4) != MAGIC:
        return None, None, "not a journal, or another format version"
    head = f.read(3)
    if len(head) < 3 or head[0] != T_SETUP:
        return None, None, "no setup record"
    n = head[1] | head[2] << 8
    if n > MAX_SETUP:
        return None, None, "bad setup record"
    body = f.read(n + 4)
    if len(body) < n + 4:
        return None, None, "torn setup record"
    if binascii.crc32(body, binascii.crc32(head)) != RESIDUE:
        return None, None, "CRC mismatch in the setup record"
    raw = body[:n]
    try:
        setup = json.loads(raw.decode())
    except (ValueError, UnicodeError):
        setup = None
    if not isinstance(setup, dict):
        return None, None, "bad setup record"
    return raw, setup, None


def read_actions(f, pos, sink):
    """The records after the setup (which ends at byte pos), through one
    buffer: each action goes to sink.take_action(encoding, n), each undo
    marker to sink.take_undo().  Returns (where the good records end, why
    reading stopped early or None at a clean end)."""
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
        if binascii.crc32(mv[start:start + 3 + n + 4]) != RESIDUE:
            err = "CRC mismatch"
            break
        err = take_record(typ, buf, mv, start + 3, start + 3 + n, sink)
        if err is not None:
            break
        start += k
        pos += k
    return pos, err


def take_record(typ, buf, mv, a, b, sink):
    """Hand one good record (payload buf[a:b]) to the sink.  Returns why it
    is not a valid record, or None."""
    n = b - a
    if typ == T_ACTION:
        if alen(buf, a, b) != n:
            return "bad action record"
        sink.take_action(mv[a:b], n)
    elif typ == T_UNDO:
        sink.take_undo()
    else:
        p = a
        while p < b:                     # a batch: check it whole first
            m = alen(buf, p, b)
            if m < 0:
                return "bad action record"
            p += m
        p = a
        while p < b:
            m = alen(buf, p, b)
            sink.take_action(mv[p:p + m], m)
            p += m
    return None
