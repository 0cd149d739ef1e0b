# Raw flash for the journal on the official MicroPython image, which has no
# flash outside littlefs: all of the Pico's flash after the firmware is "/".
# littlefs copies a file's last block on every append after a sync (a 45 ms
# sector erase an action), so the journal's log (flashlog.py: one 256-byte
# page program an action, erases done while idle) needs sectors of its own.
# It gets them from littlefs itself: a file, /osada/journal.raw, written once,
# whose blocks the log then erases and programs directly (rp2.Flash(), the
# block device littlefs is mounted on).  littlefs never touches a file's data
# blocks unless the file is written or removed, and nothing but this module
# writes journal.raw, so to littlefs the blocks stay allocated, unchanged.
#
# What littlefs does read in those blocks is its own skip-list: block i of a
# file (i >= 1) starts with ctz(i) + 1 little-endian block numbers, those of
# blocks i - 1, i - 2, i - 4 ... of the file (0 for block 0).  The log leaves
# each block's first page alone: it holds those pointers, then our marker
# b"OSJR" | file id: 4 bytes LE | i: 2 bytes LE, then 0xFF.  After erasing a
# block the log programs that page back at once (Region.ioctl); a power cut
# between the two, or inside the erase, leaves it blank or torn, and the next
# boot erases the block again and puts the page back before littlefs could
# walk the list.  The log itself sees sectors of 4096 - 256 bytes
# (LOG_BLOCKS of them: the file's last block is never erased, so each block
# the log erases has a later one naming it).
#
# journal.map, written when journal.raw is made, names its blocks:
#   b"OSJM" | file id: 4 bytes LE | n: 2 bytes LE | n block numbers, 2 bytes LE each
# A board whose map or file is missing, or whose blocks do not read back as
# the map says, gets a new pair (and a new game); a filesystem too full for
# one gets None, and the app keeps the littlefs-file journal (journal.py).
# This module is the boot's (finding or making the file; hal/pico.py drops
# it after); the block device the log runs on, Region, is flashlog.py's.
# Runs on MicroPython 1.2x and CPython (tests: littlefs-python on a fake
# flash; the host builds the pair into `make uf2`'s filesystem image).

from osada_fw.store.flashlog import ERASED, LOG_BLOCKS, MARK, SECTOR, FlashLog, Region, head, pointers
from osada_fw.store.records import PAGE

RAW = "journal.raw"
MAP = "journal.map"
BLOCKS = LOG_BLOCKS + 1     # + the file's last block, never erased
MAP_MARK = b"OSJM"
SPARE = 8                   # blocks left free for littlefs when making the file


def file_size(n=BLOCKS):
    """The size of a littlefs file that takes exactly n blocks."""
    return sum(SECTOR - 4 * pointers(i) for i in range(n))


def _u16(b, i):
    return b[i] | b[i + 1] << 8


def _load(flash, d, fs, opener):
    """The region journal.map names, checked block by block; None if it is
    not there or not as the map says.  One block whose first page is not as
    littlefs left it is one whose erase a power cut stopped (the map is
    written after journal.raw, and only this module writes either): its
    erase is done again and the page put back."""
    with opener(d + "/" + MAP, "rb") as f:
        m = f.read()
    if len(m) < 10 or m[:4] != MAP_MARK:
        return None
    n = _u16(m, 8)
    if n != BLOCKS or len(m) != 10 + 2 * n or fs.stat(d + "/" + RAW)[6] != file_size(n):
        return None
    fid = bytes(m[4:8])
    blocks = [_u16(m, 10 + 2 * i) for i in range(n)]
    page = bytearray(PAGE)
    want = bytearray(PAGE)
    cut = -1
    for i in range(n):
        flash.readblocks(blocks[i], page, 0)
        head(blocks, fid, i, want)
        if page == want:
            continue
        if cut >= 0 or i == n - 1:          # the last block is never erased
            return None
        cut = i
    if cut >= 0:
        flash.ioctl(6, blocks[cut])
        head(blocks, fid, cut, want)
        flash.writeblocks(blocks[cut], want, 0)
        flash.readblocks(blocks[cut], page, 0)
        if page != want:
            return None
    return Region(flash, blocks, fid)


def _remove(fs, path):
    try:
        fs.remove(path)
    except OSError:
        pass


def make(flash, d, fs, opener):
    """Write a new journal.raw (and its map) in directory d; the Region, or
    None when the filesystem has no room for it.  OSError when it cannot
    write at all."""
    _remove(fs, d + "/" + MAP)
    _remove(fs, d + "/" + RAW)
    if fs.statvfs(d)[3] < BLOCKS + SPARE:
        return None
    fid = bytes(fs.urandom(4))
    with opener(d + "/" + RAW, "wb") as f:
        buf = bytearray(ERASED * (SECTOR // PAGE))      # 0xFF: the log's sectors start blank
        for i in range(BLOCKS):
            mv = memoryview(buf)[:SECTOR - 4 * pointers(i)]
            mv[0:4] = MARK
            mv[4:8] = fid
            mv[8] = i & 255
            mv[9] = i >> 8
            f.write(mv)
    blocks = find(flash, fid)
    if blocks is None:
        _remove(fs, d + "/" + RAW)
        return None
    out = bytearray(MAP_MARK + fid + bytes((BLOCKS & 255, BLOCKS >> 8)))
    for b in blocks:
        out.append(b & 255)
        out.append(b >> 8)
    with opener(d + "/" + MAP, "wb") as f:
        f.write(out)
    return _load(flash, d, fs, opener)


def find(flash, fid):
    """The blocks of journal.raw with this id, in file order, found by
    their markers; None unless all BLOCKS are there."""
    found = [-1] * BLOCKS
    buf = bytearray(48)
    for b in range(flash.ioctl(4, 0)):
        flash.readblocks(b, buf, 0)
        for k in range(10):
            p = 4 * k
            if buf[p:p + 4] == MARK and buf[p + 4:p + 8] == fid:
                i = _u16(buf, p + 8)
                if i < BLOCKS and pointers(i) == k:
                    found[i] = b
                break
    if -1 in found:
        return None
    return found


def open_region(flash, d, fs=None, opener=None):
    """The journal's raw-flash log on flash (rp2.Flash(): the block device
    littlefs is mounted on) in directory d: the one there, or a new one.
    None when littlefs has no room for one (the app then journals to a
    littlefs file) or cannot be written."""
    if fs is None:
        import os as fs
    if opener is None:
        opener = open
    try:
        region = _load(flash, d, fs, opener)
    except Exception:               # no map yet, or one that names blocks the flash has not
        region = None
    try:
        if region is None:
            region = make(flash, d, fs, opener)
    except OSError:
        return None
    if region is None:
        return None
    return FlashLog(region, 0, LOG_BLOCKS, SECTOR - PAGE)
