"""The Pico's filesystem as a littlefs image, built on the host (littlefs-python).

The official MicroPython image for the Pico (RPI_PICO) mounts littlefs v2 on
the flash from 0x100A0000: 352 blocks of 4096 bytes (`osada.flash.uf2.FS_ADDR`).
`make uf2` puts such an image, holding main.py, config.json and the app,
after the firmware in one UF2; the emulated Pico boots on one too.

    image(files)      the region's bytes, with the journal's raw-flash file
                      already made (osada_fw/store/lfsregion.py), as the board makes
                      it on its first boot when the app came over serial
    mount(buffer)     a littlefs-python filesystem on those bytes, to read back
    LfsOs, flash_on   what osada_fw.store.lfsregion needs of `os` and of
                      rp2.Flash(), over a littlefs-python filesystem and its bytes
"""

import os

from osada.flash.uf2 import FS_BYTES
from osada_fw.config import DEFAULTS

FS_BLOCK = 4096
FS_BLOCKS = FS_BYTES // FS_BLOCK
STATE_DIR = DEFAULTS["state_dir"]   # where the journal lives
# MicroPython's rp2 port mounts with progsize=256 (its _boot.py).  The image is written
# with commits padded to 32 bytes instead: its directories' logs come out about 4 times
# shorter, and every lookup reads a directory's whole log (the board appends to them as
# NOR flash allows: a 256-byte program over a partly programmed page changes only its
# erased bytes).  Measured on the emulated Pico: see _compact.
_GEOMETRY = dict(block_size=FS_BLOCK, block_count=FS_BLOCKS, read_size=32, prog_size=32, lookahead_size=32)


def mount(buffer):
    """A littlefs-python filesystem on `buffer` (a bytearray of the region), mounted."""
    from littlefs import LittleFS
    from littlefs.context import UserContext
    return LittleFS(context=UserContext(buffer=buffer), **_GEOMETRY)


def fresh():
    """A newly formatted filesystem on an erased region; its context counts
    the blocks littlefs erases (`erased`)."""
    from littlefs import LittleFS
    from littlefs.context import UserContext

    class Counting(UserContext):
        erased = 0

        def erase(self, cfg, block):
            self.erased += 1
            return UserContext.erase(self, cfg, block)

    return LittleFS(context=Counting(buffsize=FS_BLOCK * FS_BLOCKS), **_GEOMETRY)


def _compact(fs, dirs, limit=400):
    """Leave each directory's metadata compacted: littlefs appends every
    change to a directory's log and compacts it only when its block is full,
    and a lookup on the board reads the whole log (with its CRC) of every
    directory on the path.  Creating and removing a dummy file until littlefs
    erases a block for that directory, in the removal, leaves just its live
    entries (a compaction in the creation would leave the dummy's removal
    behind it: then again, with a longer name, so the next one falls on a
    removal).  On the emulated Pico this took stat("osada_fw/app.mpy") from
    6.1 to 2.2 ms and importing the app from 327 to 259 ms."""
    ctx = fs.context
    for d in dirs:
        for pad in range(8):
            dummy = d.rstrip("/") + "/.compact" + "_" * (24 * pad)   # commits are padded to prog_size
            clean = False
            for _ in range(limit):
                before = ctx.erased
                with fs.open(dummy, "wb"):
                    pass
                if ctx.erased != before:
                    fs.remove(dummy)
                    break
                fs.remove(dummy)
                if ctx.erased != before:
                    clean = True
                    break
            if clean:
                break


class LfsOs:
    """What osada_fw.store.lfsregion asks of MicroPython's `os`, over a littlefs-python filesystem."""

    def __init__(self, fs, random=os.urandom):
        self.fs = fs
        self.urandom = random

    def stat(self, path):
        st = self.fs.stat(path)
        return (0x8000 if st.type == 1 else 0x4000, 0, 0, 0, 0, 0, st.size, 0, 0, 0)

    def statvfs(self, path):
        free = self.fs.block_count - self.fs.used_block_count
        return (FS_BLOCK, FS_BLOCK, self.fs.block_count, free, free, 0, 0, 0, 0, 255)

    def remove(self, path):
        self.fs.remove(path)


def flash_on(buffer):
    """rp2.Flash() over the region's bytes, in place (the NOR flash fake of
    the simulator, osada_fw/hal/fake.py)."""
    from osada_fw.hal.fake import FakeNorFlash
    return FakeNorFlash(len(buffer) // FS_BLOCK, data=buffer)


def _mkdirs(fs, path, made):
    parts = path.strip("/").split("/")
    for k in range(1, len(parts)):
        d = "/" + "/".join(parts[:k])
        if d not in made:
            try:
                fs.mkdir(d)
            except FileExistsError:
                pass
            made.add(d)


def image(files, journal=True, free_blocks=None, state_dir=STATE_DIR):
    """files: {"/main.py": bytes, "/osada_fw/app.mpy": bytes, ...} -> the
    region's bytes (352 blocks of 4096), as MicroPython's littlefs v2 mounts
    them.  journal: also make the journal's raw-flash file in state_dir (what
    the board does at its first boot otherwise).  free_blocks: then fill the
    rest with a junk file, /fill.bin, leaving about that many blocks free (a
    full flash)."""
    fs = fresh()
    made = set()
    for path in sorted(files):
        _mkdirs(fs, path, made)
        with fs.open(path, "wb") as f:
            f.write(files[path])
    if journal:
        from osada_fw.store import lfsregion
        _mkdirs(fs, state_dir + "/x", made)
        if lfsregion.make(flash_on(fs.context.buffer), state_dir, LfsOs(fs), fs.open) is None:
            raise ValueError("no room on the filesystem for the journal (%d blocks)" % lfsregion.BLOCKS)
    _compact(fs, ["/"] + sorted(made))
    if free_blocks is not None:
        with fs.open("/fill.bin", "wb") as f:
            while FS_BLOCKS - fs.used_block_count > free_blocks:
                f.write(b"\xa5" * FS_BLOCK)
                f.flush()
    return bytes(fs.context.buffer)
