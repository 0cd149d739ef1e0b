"""UF2 files for a Pico in BOOTSEL mode (its RPI-RP2 drive), and the one-file
install: the official MicroPython firmware's blocks plus a littlefs image of
the filesystem holding the app.

UF2 (Microsoft's USB flashing format, as the RP2040 bootrom reads it): a file
of 512-byte blocks, each one self-contained:

    0   magic 0x0A324655          4  magic 0x9E5D5157
    8   flags (0x2000: the family id field is set)
    12  target address            16 payload size (256 for the RP2040)
    20  block number              24 number of blocks in the file
    28  family id (0xE48BFF56: RP2040)
    32  payload (476 bytes of room, 256 used), padded with zeros
    508 magic 0x0AB16F30

The Pico's 2 MiB flash under the official RPI_PICO image, as the CPU sees it:
the firmware from 0x10000000 (~332 KiB), the littlefs filesystem "/" from
0x100A0000 to the end (352 blocks of 4096).  The one-file install writes both,
the whole filesystem region included: a block it left out would keep what the
board held before, and littlefs takes the newer half of each metadata pair by
its revision count, so a stale superblock from an older filesystem could win.
So it replaces the board's filesystem, and any game saved on it.
"""

import struct

MAGIC0 = 0x0A324655
MAGIC1 = 0x9E5D5157
MAGIC_END = 0x0AB16F30
FLAG_NOT_MAIN_FLASH = 0x00000001
FLAG_FAMILY_ID = 0x00002000
RP2040_FAMILY = 0xE48BFF56
BLOCK = 512
PAYLOAD = 256                      # what the RP2040 bootrom takes: one flash page a block
_HEAD = struct.Struct("<8I")       # the eight words before the payload

XIP_BASE = 0x10000000
FLASH_BYTES = 2 * 1024 * 1024
FS_OFFSET = 0xA0000                # littlefs "/" (352 blocks of 4096), to the end of flash
FS_ADDR = XIP_BASE + FS_OFFSET
FS_BYTES = FLASH_BYTES - FS_OFFSET


class UF2Error(ValueError):
    pass


def parse(data):
    """The blocks of a UF2 file: a list of (address, payload, family), in file
    order.  Raises UF2Error for anything that is not a whole, well-formed
    RP2040 UF2 (bad magic, sizes, numbering, a block for another family)."""
    data = bytes(data)
    if not data or len(data) % BLOCK:
        raise UF2Error("not a UF2 file: %d bytes is not a whole number of 512-byte blocks" % len(data))
    out = []
    total = len(data) // BLOCK
    for n in range(total):
        blk = data[n * BLOCK:(n + 1) * BLOCK]
        m0, m1, flags, addr, size, number, count, family = _HEAD.unpack_from(blk)
        (end,) = struct.unpack_from("<I", blk, BLOCK - 4)
        if (m0, m1, end) != (MAGIC0, MAGIC1, MAGIC_END):
            raise UF2Error("block %d is not a UF2 block (bad magic numbers)" % n)
        if count != total or number != n:
            raise UF2Error("block %d is numbered %d of %d (expected %d of %d)" % (n, number, count, n, total))
        if flags & FLAG_NOT_MAIN_FLASH:
            continue                       # a comment block: not written to flash
        if not flags & FLAG_FAMILY_ID or family != RP2040_FAMILY:
            raise UF2Error("block %d is not for the RP2040 (family 0x%08x)" % (n, family))
        if size > BLOCK - 32 - 4:
            raise UF2Error("block %d says its payload is %d bytes" % (n, size))
        out.append((addr, blk[32:32 + size], family))
    return out


def families(data):
    """The family ids of the blocks that look like UF2 blocks, in file order
    (what a file parse() refuses is for, when it says)."""
    out = []
    for off in range(0, len(data) - BLOCK + 1, BLOCK):
        m0, m1, flags, _addr, _size, _number, _count, family = _HEAD.unpack_from(data, off)
        if (m0, m1) == (MAGIC0, MAGIC1) and flags & FLAG_FAMILY_ID:
            out.append(family)
    return out


def chunks(addr, data):
    """data written from addr, as (address, 256-byte payload) pieces; the
    last one is padded with 0xFF (what erased flash reads)."""
    if addr % PAYLOAD:
        raise UF2Error("0x%08x is not on a 256-byte flash page" % addr)
    out = []
    for off in range(0, len(data), PAYLOAD):
        piece = bytes(data[off:off + PAYLOAD])
        out.append((addr + off, piece + b"\xff" * (PAYLOAD - len(piece))))
    return out


def write(pieces, family=RP2040_FAMILY):
    """A UF2 file of (address, payload) pieces, numbered 0..n-1 of n."""
    out = bytearray()
    n = len(pieces)
    for k, (addr, payload) in enumerate(pieces):
        if len(payload) > BLOCK - 32 - 4:
            raise UF2Error("a payload of %d bytes does not fit a UF2 block" % len(payload))
        out += _HEAD.pack(MAGIC0, MAGIC1, FLAG_FAMILY_ID, addr, len(payload), k, n, family)
        out += payload + bytes(BLOCK - 32 - 4 - len(payload))
        out += struct.pack("<I", MAGIC_END)
    return bytes(out)


def combine(firmware, fs_image):
    """One UF2 for a blank or used Pico: `firmware` (the MicroPython UF2,
    bytes) with `fs_image` (the filesystem region's bytes, osada.flash.fsimage) at
    0x100A0000.  Refuses (UF2Error) firmware that reaches into the filesystem
    region and an image that is not exactly that region."""
    if len(fs_image) != FS_BYTES:
        raise UF2Error("the filesystem image is %d bytes, not the %d of the Pico's filesystem region"
                       % (len(fs_image), FS_BYTES))
    pieces = []
    for addr, payload, _family in parse(firmware):
        if not XIP_BASE <= addr or addr + len(payload) > FS_ADDR:
            raise UF2Error("the firmware writes at 0x%08x, outside 0x%08x..0x%08x: is it MicroPython for the "
                           "Pico (RPI_PICO)?" % (addr, XIP_BASE, FS_ADDR))
        pieces.append((addr, payload))
    pieces += chunks(FS_ADDR, fs_image)
    return write(pieces)


def span(pieces):
    """(lowest, highest end) address that the pieces write."""
    return min(a for a, _ in pieces), max(a + len(p) for a, p in pieces)
