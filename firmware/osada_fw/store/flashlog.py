# The game journal as an append-only log on raw NOR flash: no sector erase in
# the path of an action (the littlefs file journal, journal.py, costs ~0.9
# sector erases, 45 ms each, per action: littlefs copies a file's partial last
# block on every append after a sync).  The Pico's HAL gives it the blocks of
# a littlefs file made for it (lfsregion.py: the official MicroPython image
# has no flash outside littlefs).  The game in memory, the public API and the
# restore are core.py's.  Runs on MicroPython 1.2x and CPython (tests:
# hal/fake.py FakeNorFlash).
#
# The device: a block device as rp2.Flash is one (readblocks(n, buf, off),
# writeblocks(n, buf, off) programs without erasing, ioctl(6, n) erases block
# n), over blocks first .. first + nblocks - 1 of 4096 bytes.  NOR rules: an
# erase sets a sector to 0xFF, a program only clears bits.  The RP2040's ROM
# programs whole 256-byte pages (an address and a length that are not
# multiples of 256 program the wrong bytes), so every program here is one
# whole, aligned page: the page as it is in RAM (earlier records, the new
# bytes, 0xFF after them).  Programming a page again with the bits already
# programmed left as they are changes nothing in them, so a power cut in the
# middle of a program can only tear the record being written.  Every program
# is read back: flash that ignores writes raises OSError(EROFS), "flash not
# writable", not "flash full".
#
# Layout: the log runs through the sectors as a ring.  Sector number g (its
# "gen", counting up forever) lives in block first + g % nblocks and starts
# with a 16-byte header:
#   b"OSL\x01" | gen: 4 bytes LE | base: 4 bytes LE | crc32: 4 bytes LE
# base is the gen of the sector where the snapshot this sector continues
# begins.  Then records, packed, never across a sector's end:
#   [type: 1][n: 2 LE][seq: 2 LE][payload: n][crc32 of all before it: 4 LE]
# types as in records.py ('S' setup, 'A' action, 'B' batch, 'U' undo) plus
# 'E' (n = 0), which commits a snapshot; seq counts the records from the
# snapshot's 'S' (seq 0), modulo 65536.  0xFF where a type would be: the
# sector's records end there.
#
# A snapshot (start(), compact()) starts a new sector: 'S', 'B' records of
# the live actions, 'E'.  Until its 'E' is on flash the one before it stands;
# the sectors of the committed snapshot and its log are never erased.
#
# Reading (restore): the headers of all the sectors give the newest gen and
# its base; the log is read from the base sector's 'S' on, sector by sector,
# taking records while their seq runs on.  A torn or bad record ends its
# sector (the writer moves on to a fresh sector after one), and a later sector
# counts only if its first record has the next seq: nothing is skipped, and
# nothing torn is taken.  A snapshot with no 'E' is passed over for the one
# before it.
#
# Erasing: a sector is erased (and read back as all 0xFF) before its first
# use; idle() erases the next one while the app has nothing to do, so an
# action's record normally costs one page program.  A compaction (rare: when
# the ring is about to run out, every few thousand actions) may erase in the
# path of the action that triggers it.

import binascii

from osada_fw.store.core import GameJournal
from osada_fw.store.records import (
    ERASED,
    LOG_HEADER,
    LOG_MAGIC,
    LOG_MAX_SETUP,
    PAGE,
    T_BATCH,
    T_END,
    T_SETUP,
)

SECTOR = 4096
BATCH = 240                 # payload of a snapshot's 'B' records
EROFS = 30
ENOSPC = 28



class FlashLog(GameJournal):
    """The journal on blocks first .. first + nblocks - 1 of block device dev."""

    max_setup = LOG_MAX_SETUP

    def __init__(self, dev, first, nblocks, sector=SECTOR):
        self.dev = dev
        self.first = first
        self.nblocks = nblocks
        self.sector = sector            # bytes a block (the Pico: 4096; tests use smaller)
        self._page = bytearray(PAGE)    # the page being filled, as on flash
        self._chk = bytearray(PAGE)     # read-back buffer
        self._rhead = bytearray(5)      # a record's header, filled in place
        self._gen = -1                  # the newest sector in use (-1: none)
        self._base = 0                  # where the committed snapshot begins
        self._pos = sector              # next free byte in sector _gen
        self._seq = 0                   # the next record's seq
        self._ready = -1                # a gen whose sector is known to be erased
        self._idle_failed = -1          # a gen idle() could not erase: not retried
        self.kept_after = -1            # >= 0: the live log ends at this gen, and the sectors after it hold a
        #                                 damaged snapshot, kept until the log needs them (store/damage.py)
        self.erases = 0
        GameJournal.__init__(self)

    def _forget(self):
        GameJournal._forget(self)
        self._fresh = True              # the next record starts a new sector

    # ------------------------------------------------------------- public

    def clear(self):
        """Forget the game: erase every sector of the region that is not blank."""
        for g in range(self.nblocks):
            if not self._blank(g):
                self.dev.ioctl(6, self.first + g)
                self.erases += 1
        self._forget()
        self._gen = -1
        self._base = 0
        self._ready = -1

    def close(self):
        pass

    def idle(self):
        g = self._gen + 1
        if (g == self._ready or g == self._idle_failed or g - self.nblocks >= self._base
                or self.kept_after >= 0):
            return False
        if self._blank(g):
            self._ready = g
            return False
        try:
            self._erase(g)
        except OSError:
            self._idle_failed = g
        return True

    # ------------------------------------------------------------ flash

    def _blk(self, g):
        return self.first + g % self.nblocks

    def _blank(self, g):
        blk = self._blk(g)
        chk = self._chk
        for off in range(0, self.sector, PAGE):
            self.dev.readblocks(blk, chk, off)
            if chk != ERASED:
                return False
        return True

    def _erase(self, g):
        self.dev.ioctl(6, self._blk(g))
        self.erases += 1
        if not self._blank(g):
            raise OSError(EROFS)            # the erase did not take
        self._ready = g

    def _program(self):
        """Program the page being filled (the one holding byte _pos - 1)
        and read it back."""
        off = (self._pos - 1) & ~(PAGE - 1)
        blk = self._blk(self._gen)
        self.dev.writeblocks(blk, self._page, off)
        self.dev.readblocks(blk, self._chk, off)
        if self._chk != self._page:
            raise OSError(EROFS)            # flash that ignores writes

    def _put(self, data):
        """Add bytes at _pos through the page buffer, programming each page
        that fills up (the last, partial one is _program()'s caller's)."""
        page = self._page
        i = 0
        n = len(data)
        while i < n:
            at = self._pos & (PAGE - 1)
            k = min(n - i, PAGE - at)              # what fits in this page
            page[at:at + k] = data[i:i + k] if i or k < n else data
            i += k
            self._pos += k
            if not self._pos & (PAGE - 1):
                self._program()
                page[:] = ERASED

    def _new_sector(self, base):
        """Start sector _gen + 1 (erasing it unless idle() did), its header
        with this base; programmed with the first record."""
        g = self._gen + 1
        if g - self.nblocks >= self._base:
            raise OSError(ENOSPC)           # its sector still holds the live log
        if self._ready != g and not self._blank(g):
            self._erase(g)
        self._ready = -1
        self._gen = g
        self._pos = 0
        self._page[:] = ERASED
        head = bytearray(LOG_HEADER)
        head[0:4] = LOG_MAGIC
        for i in range(4):
            head[4 + i] = (g >> (8 * i)) & 255
            head[8 + i] = (base >> (8 * i)) & 255
        head[12:16] = _crc4(head, 12)
        self._put(head)
        self._fresh = False

    def _record(self, typ, payload, base):
        n = len(payload)
        if self._fresh or self._pos + 9 + n > self.sector:
            self._new_sector(base)
        seq = self._seq
        head = self._rhead
        head[0] = typ
        head[1] = n & 255
        head[2] = n >> 8
        head[3] = seq & 255
        head[4] = (seq >> 8) & 255
        self._put(head)
        self._put(payload)
        # one bytes object for the CRC: taking its bytes apart with >> and &
        # allocated a long int each time it was over 2**30 (a 32-bit port)
        self._put(binascii.crc32(payload, binascii.crc32(head)).to_bytes(4, "little"))
        if self._pos & (PAGE - 1):
            self._program()
        self._seq = (seq + 1) & 0xFFFF
        return 9 + n

    def _write_record(self, typ, payload):
        if self.kept_after >= 0:
            self._release(2)
        if self._dirty or ((self._fresh or self._pos + 9 + len(payload) > self.sector)
                           and self.nblocks - (self._gen + 2 - self._base) < self._snap_sectors()):
            # a bad tail to leave behind, or a new sector would leave no
            # room for a snapshot (after a restore that found the log near
            # full): a snapshot first, the record after it
            self.compact()                  # raises OSError if it cannot
        try:
            self._size += self._record(typ, payload, self._base)
        except BaseException:
            self._fresh = True              # a torn record may be there: a new sector next
            raise

    def _install(self, raw, live, used, sizes, count):
        """Write this game as a new snapshot, commit it, hold it in memory."""
        if self.kept_after >= 0:
            self._release(self._snap_sectors() + 1)
        g0 = self._gen + 1
        gen0 = self._gen
        seq0 = self._seq
        self._fresh = True
        self._seq = 0
        try:
            size = self._record(T_SETUP, raw, g0)
            mv = memoryview(live)
            a = 0
            b = 0
            for i in range(count):
                n = sizes[i]
                if b + n - a > BATCH:
                    size += self._record(T_BATCH, mv[a:b], g0)
                    a = b
                b += n
            if b > a:
                size += self._record(T_BATCH, mv[a:b], g0)
            size += self._record(T_END, b"", g0)
        except BaseException:
            # the snapshot is not committed: the old log stands.  When it
            # got no further than its first sector, the next try takes that
            # sector again (erased first): a flash that will not write does
            # not use up the ring.  Beyond it, a stray sector of this
            # snapshot could pass for a continuation: those are left behind.
            if self._gen == g0:
                self._gen = gen0
            self._seq = seq0
            self._fresh = True
            self._dirty = True
            raise
        self._base = g0
        self._hold(raw, live, used, sizes, count, size)

    def _release(self, need):
        from osada_fw import forget
        from osada_fw.store import flashscan  # only after a boot that found damage
        flashscan.release(self, need)
        forget("osada_fw.store.flashscan")
        forget("osada_fw.store.records_read")

    def _snap_sectors(self):
        """Sectors a snapshot of the game would take."""
        snap = 9 + len(self._setup) + self._used + 9 * (self._used // (BATCH - 12) + 2)
        return snap // (self.sector - LOG_HEADER) + 1

    def _maybe_compact(self):
        # compact while the free sectors still hold a snapshot and one to spare
        if self.nblocks - (self._gen - self._base + 1) < self._snap_sectors() + 1:
            self._try_compact()

    # ------------------------------------------------------------ reading

    def _scan(self):
        """Read the log into memory.  Returns the setup dict, or None.
        Reading is a boot-time job: its code (store/flashscan.py) is
        loaded for it and dropped after, so it holds no heap during a game."""
        from osada_fw import forget
        from osada_fw.store import flashscan
        try:
            return flashscan.scan(self)
        finally:
            forget("osada_fw.store.flashscan")
            forget("osada_fw.store.records_read")


def _crc4(buf, n):
    crc = binascii.crc32(memoryview(buf)[:n])
    return bytes((crc & 255, (crc >> 8) & 255, (crc >> 16) & 255, (crc >> 24) & 255))


# ------------------------------------------------- its blocks in a littlefs file
# The Pico's log runs on the blocks of a littlefs file made for it
# (lfsregion.py finds or makes it at boot): Region is that file's blocks as the
# block device above.  Each block's first page is littlefs's: the file's
# skip-list (block i >= 1 starts with the block numbers of its blocks i - 1,
# i - 2, i - 4 ... as 4-byte little-endian words, ctz(i) + 1 of them), then our
# marker b"OSJR" | file id: 4 bytes | i: 2 bytes LE, then 0xFF.  The log never
# writes that page, and puts it back right after each erase.

LOG_BLOCKS = 16             # sectors the log runs through (its ring)
MARK = b"OSJR"


def pointers(i):
    """How many block numbers littlefs keeps at the start of a file's block i."""
    if i == 0:
        return 0
    n = 1
    while not i & 1:
        i >>= 1
        n += 1
    return n


def head(blocks, fid, i, out):
    """Block i's first page as littlefs and this module leave it: into out
    (a bytearray of PAGE bytes)."""
    out[:] = ERASED
    p = 0
    for k in range(pointers(i)):
        b = blocks[i - (1 << k)]
        out[p] = b & 255
        out[p + 1] = b >> 8
        out[p + 2] = 0
        out[p + 3] = 0
        p += 4
    out[p:p + 4] = MARK
    out[p + 4:p + 8] = fid
    out[p + 8] = i & 255
    out[p + 9] = i >> 8


class Region:
    """Blocks 0 .. LOG_BLOCKS - 1 of journal.raw as a block device of
    SECTOR - PAGE byte blocks, the way FlashLog uses one (readblocks,
    writeblocks without erase, ioctl 4/5/6)."""

    def __init__(self, flash, blocks, fid):
        self.flash = flash
        self.blocks = blocks
        self.fid = fid
        self._head = bytearray(PAGE)

    def readblocks(self, n, buf, off=0):
        self.flash.readblocks(self.blocks[n], buf, off + PAGE)

    def writeblocks(self, n, buf, off):
        self.flash.writeblocks(self.blocks[n], buf, off + PAGE)

    def ioctl(self, op, n):
        if op == 6:                         # erase, then littlefs's pointers back at once
            b = self.blocks[n]
            self.flash.ioctl(6, b)
            head(self.blocks, self.fid, n, self._head)
            self.flash.writeblocks(b, self._head, 0)
            return 0
        if op == 4:
            return LOG_BLOCKS
        if op == 5:
            return SECTOR - PAGE
        return None
