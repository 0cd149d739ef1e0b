"""A synthetic MicroPython firmware UF2, for the tests that need only a
firmware's shape (the UF2 writer, the one-file install, the BOOTSEL copy,
osada/flash/official.py's checks): never a real firmware image."""

from osada.flash import uf2

BANNER = b"MicroPython v1.28.0 on 2026-04-06; Raspberry Pi Pico with RP2040\x00"


def synthetic_firmware(banner=BANNER, addr=uf2.XIP_BASE, size=64 * 1024, reverse=True, family=uf2.RP2040_FAMILY):
    """A firmware UF2: `size` bytes from `addr`, the banner placed across a
    256-byte page boundary, the blocks in reverse file order (a reader must
    put the payloads back in address order to find the banner)."""
    body = bytearray(b"\x5a" * size)
    at = 3 * 256 - len(banner) // 2
    body[at:at + len(banner)] = banner
    pieces = uf2.chunks(addr, bytes(body))
    if reverse:
        pieces = pieces[::-1]
    return uf2.write(pieces, family=family)
