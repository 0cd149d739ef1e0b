"""osada/uf2.py: our UF2 writer, checked by parsing its output back, and the
one-file install (MicroPython's firmware blocks + the app's ROMFS image)."""

import os
import struct

import pytest

from osada import deploy, uf2

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
FIRMWARE = os.path.join(ROOT, "firmware", "micropython", uf2.UF2_ROMFS)


@pytest.fixture(scope="module")
def romfs(tmp_path_factory):
    out = str(tmp_path_factory.mktemp("fw") / "firmware")
    deploy.build(out=out, quiet=True)
    with open(out + ".romfs", "rb") as f:
        return f.read()


@pytest.fixture(scope="module")
def firmware():
    with open(FIRMWARE, "rb") as f:
        return f.read()


def flash_image(blocks):
    """What the bootrom leaves in flash: {address: byte} from parsed blocks."""
    out = {}
    for addr, payload, _family in blocks:
        for k, b in enumerate(payload):
            out[addr + k] = b
    return out


def test_written_blocks_parse_back_with_their_fields():
    data = bytes(range(256)) * 3 + b"tail"
    pieces = uf2.chunks(0x10001000, data)
    blob = uf2.write(pieces)
    assert len(blob) == 4 * 512
    for n in range(4):
        blk = blob[n * 512:(n + 1) * 512]
        words = struct.unpack_from("<8I", blk)
        assert words[:3] == (0x0A324655, 0x9E5D5157, 0x2000)
        assert words[3:] == (0x10001000 + 256 * n, 256, n, 4, 0xE48BFF56)
        assert struct.unpack_from("<I", blk, 508)[0] == 0x0AB16F30
    back = uf2.parse(blob)
    assert [a for a, _p, _f in back] == [0x10001000 + 256 * n for n in range(4)]
    assert b"".join(p for _a, p, _f in back) == data + b"\xff" * (1024 - len(data))


def test_the_vendored_firmware_parses_and_stays_below_the_romfs_partition(firmware):
    blocks = uf2.parse(firmware)
    lo, hi = uf2.span([(a, p) for a, p, _f in blocks])
    assert lo == uf2.XIP_BASE and hi <= uf2.ROMFS_ADDR
    assert {len(p) for _a, p, _f in blocks} == {256}


def test_one_file_install_is_the_firmware_plus_the_app_image(firmware, romfs):
    blob = uf2.combine(firmware, romfs)
    blocks = uf2.parse(blob)                       # renumbered 0..n-1 of n, all RP2040
    fw_blocks = uf2.parse(firmware)
    assert len(blocks) == len(fw_blocks) + -(-len(romfs) // 256)
    image = flash_image(blocks)
    # the firmware's bytes are all there, unchanged
    assert all(image[a + k] == b for a, p, _f in fw_blocks for k, b in enumerate(p))
    # the app image from 0x10070000, byte for byte
    got = bytes(image[uf2.ROMFS_ADDR + k] for k in range(len(romfs)))
    assert got == romfs
    # nothing in the journal's 64 KiB at the top of the partition, nor in littlefs
    assert not [a for a in image if a >= uf2.JOURNAL_ADDR]
    assert uf2.JOURNAL_ADDR == 0x10090000 and uf2.FS_ADDR == 0x100A0000


def test_an_app_image_over_128_kib_is_refused(firmware, romfs):
    big = romfs + b"\0" * (uf2.ROMFS_IMAGE_MAX - len(romfs) + 1)
    with pytest.raises(uf2.UF2Error, match="over the 128 KiB"):
        uf2.combine(firmware, big)
    uf2.combine(firmware, big[:-1])                # exactly 128 KiB fits, ending at the journal


def test_not_a_romfs_image_is_refused(firmware):
    with pytest.raises(uf2.UF2Error, match="not a ROMFS image"):
        uf2.combine(firmware, b"hello")


def test_firmware_reaching_into_the_romfs_partition_is_refused(romfs):
    fat = uf2.write(uf2.chunks(0x10000000, b"\0" * 512) + uf2.chunks(uf2.ROMFS_ADDR, b"\0" * 256))
    with pytest.raises(uf2.UF2Error, match="outside"):
        uf2.combine(fat, romfs)


@pytest.mark.parametrize("damage,words", [
    ("magic", lambda b: b[:0] + b"\0\0\0\0" + b[4:]),
    ("family", lambda b: b[:28] + struct.pack("<I", 0xE48BFF59) + b[32:]),   # RP2350's
    ("numbering", lambda b: b[:20] + struct.pack("<I", 7) + b[24:]),
    ("payload size", lambda b: b[:16] + struct.pack("<I", 500) + b[20:]),
])
def test_damaged_uf2_is_refused(damage, words):
    blob = uf2.write(uf2.chunks(0x10000000, b"x" * 512))
    bad = words(blob[:512]) + blob[512:]
    with pytest.raises(uf2.UF2Error):
        uf2.parse(bad)
    with pytest.raises(uf2.UF2Error, match="whole number"):
        uf2.parse(blob[:-1])


def test_make_uf2_writes_build_file_from_the_firmware_and_image(tmp_path, romfs, firmware):
    img = tmp_path / "app.romfs"
    img.write_bytes(romfs)
    out = str(tmp_path / "one.uf2")
    deploy.make_uf2(out=out, firmware=FIRMWARE, romfs=str(img), quiet=True)
    with open(out, "rb") as f:
        assert f.read() == uf2.combine(firmware, romfs)
    img.write_bytes(romfs + b"\0" * uf2.ROMFS_IMAGE_MAX)
    with pytest.raises(deploy.BuildError, match="128 KiB"):
        deploy.make_uf2(out=str(tmp_path / "two.uf2"), firmware=FIRMWARE, romfs=str(img), quiet=True)
    assert not os.path.exists(tmp_path / "two.uf2")


def test_the_firmware_is_osadas_image_when_there_else_the_romfs_build(monkeypatch, tmp_path):
    monkeypatch.delenv(deploy.FIRMWARE_ENV, raising=False)
    own = os.path.join(ROOT, "firmware", "micropython", uf2.UF2_OSADA)
    assert deploy.firmware_uf2() == (own if os.path.isfile(own) else FIRMWARE)
    mine = tmp_path / "mine.uf2"
    mine.write_bytes(b"")
    monkeypatch.setenv(deploy.FIRMWARE_ENV, str(mine))
    assert deploy.firmware_uf2() == str(mine)
    monkeypatch.setenv(deploy.FIRMWARE_ENV, str(tmp_path / "none.uf2"))
    with pytest.raises(deploy.BuildError, match="no such file"):
        deploy.firmware_uf2()
