# The journal's on-flash format: framing a record, checking it (reading a
# journal file back is records_read.py's, loaded only for that).  What is
# written when, and the files themselves, are store/journal.py's.  Runs
# unchanged on MicroPython 1.2x and CPython.
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

from shared_rules.siege.actions import MARSHAL_PLAY, OPS

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
RESIDUE = 0x2144DF1C        # crc32 of any data followed by its own crc32 (LE)

# The raw-flash log's framing (flashlog.py writes it, flashscan.py reads it):
# a sector's header, the 'E' record that commits a snapshot, its records'
# length limits.
PAGE = 256                  # the NOR flash's program unit
ERASED = b"\xff" * PAGE     # a page as an erase leaves it
LOG_HEADER = 16
LOG_MAGIC = b"OSL\x01"
T_END = 0x45
LOG_MAX_SETUP = 1024
LOG_READ_BUF = 9 + LOG_MAX_SETUP + 7


def u32(b, i):
    return b[i] | b[i + 1] << 8 | b[i + 2] << 16 | (b[i + 3] & 0x3F) << 24


def log_maxlen(typ):
    if typ == T_ACTION:
        return MAX_ACTION
    if typ == T_BATCH:
        return MAX_BATCH
    if typ == T_SETUP:
        return LOG_MAX_SETUP
    if typ == T_UNDO or typ == T_END:
        return 0
    return -1

_NOPS = len(OPS)


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
