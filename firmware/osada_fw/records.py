# The journal's on-flash format: framing a record, checking it, reading a
# journal file back.  What is written when, and the files themselves, are
# osada_fw/journal.py's.  Runs unchanged on MicroPython 1.2x and CPython.
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
# its CRC, has an unknown type or a bad length, or does not decode; read_*
# say why, and the journal drops that record and everything after it.  A file
# that ends exactly after a record is clean.  Reading goes through one 2 KB
# buffer.

import binascii
import json

from shared_rules.actions import MARSHAL_PLAY, OPS

MAGIC = b"OSJ\x01"

T_SETUP = 0x53
T_ACTION = 0x41
T_BATCH = 0x42
T_UNDO = 0x55

MAX_SETUP = 4096
MAX_TOKENS = 8
MAX_ACTION = 4 + MAX_TOKENS
MAX_BATCH = 1024
READ_BUF = 2048             # > the largest action record (7 + MAX_BATCH)
_RESIDUE = 0x2144DF1C       # crc32 of any data followed by its own crc32 (LE)

_NOPS = len(OPS)


def _maxlen(typ):
    if typ == T_ACTION:
        return MAX_ACTION
    if typ == T_BATCH:
        return MAX_BATCH
    if typ == T_UNDO:
        return 0
    return -1               # the setup is read apart; anything else is unknown


def alen(buf, pos, end):
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


def _crc_bytes(crc):
    return bytes((crc & 255, (crc >> 8) & 255, (crc >> 16) & 255, (crc >> 24) & 255))


def frame(f, typ, payload):
    """Write one record to the open file f.  Returns its size in bytes."""
    n = len(payload)
    head = bytes((typ, n & 255, n >> 8))
    f.write(head)
    f.write(payload)
    f.write(_crc_bytes(binascii.crc32(payload, binascii.crc32(head))))
    return 7 + n


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
    if binascii.crc32(body, binascii.crc32(head)) != _RESIDUE:
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
        if binascii.crc32(mv[start:start + 3 + n + 4]) != _RESIDUE:
            err = "CRC mismatch"
            break
        err = _take_record(typ, buf, mv, start + 3, start + 3 + n, sink)
        if err is not None:
            break
        start += k
        pos += k
    return pos, err


def _take_record(typ, buf, mv, a, b, sink):
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
