"""osada/flash/uf2.py: our UF2 writer, checked by parsing its output back, and the
one-file install (the official firmware's blocks + a littlefs image of the
whole filesystem region).  The firmware here is synthetic (uf2_support)."""

import os
import struct

import pytest
from uf2_support import synthetic_firmware

from osada.flash import deploy, fsimage, uf2
from osada_fw.store import lfsregion


@pytest.fixture(scope="module")
def bundle(tmp_path_factory):
    out = str(tmp_path_factory.mktemp("fw") / "firmware")
    deploy.build(out=out, quiet=True)
    return out


@pytest.fixture(scope="module")
def firmware():
    return synthetic_firmware(size=300 * 1024)


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


def test_one_file_install_is_the_firmware_plus_the_whole_filesystem_region(firmware, bundle):
    files = deploy.bundle_files(bundle)
    image = fsimage.image(files)
    blob = uf2.combine(firmware, image)
    blocks = uf2.parse(blob)
    fw_blocks = uf2.parse(firmware)
    assert len(blocks) == len(fw_blocks) + 352 * 4096 // 256
    flash = flash_image(blocks)
    for addr, payload, _f in fw_blocks:                    # the firmware, byte for byte
        assert bytes(flash[addr + k] for k in range(len(payload))) == payload
    # every byte of the filesystem region is written: nothing of an older filesystem stays
    assert all(uf2.FS_ADDR + k in flash for k in range(uf2.FS_BYTES))
    region = bytearray(flash[uf2.FS_ADDR + k] for k in range(uf2.FS_BYTES))
    assert region == image
    fs = fsimage.mount(region)                             # and littlefs reads the app back
    for path, data in files.items():
        with fs.open(path, "rb") as f:
            assert f.read() == data, path
    assert sorted(fs.listdir("/osada")) == [lfsregion.MAP, lfsregion.RAW]


def test_firmware_reaching_into_the_filesystem_is_refused(bundle):
    fat = synthetic_firmware(addr=uf2.FS_ADDR - 4096, size=8192, reverse=False)
    with pytest.raises(uf2.UF2Error, match="outside"):
        uf2.combine(fat, fsimage.image({}))
    with pytest.raises(uf2.UF2Error, match="not the 1441792"):
        uf2.combine(synthetic_firmware(), b"\xff" * 4096)


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


def test_make_uf2_writes_build_file_from_the_firmware_and_the_bundle(tmp_path, bundle, firmware):
    fw = tmp_path / "fw.uf2"
    fw.write_bytes(firmware)
    out = str(tmp_path / "one.uf2")
    deploy.make_uf2(out=out, firmware=str(fw), bundle=bundle, quiet=True)
    blocks = uf2.parse(open(out, "rb").read())
    region = flash_image(blocks)
    fs = fsimage.mount(bytearray(region[uf2.FS_ADDR + k] for k in range(uf2.FS_BYTES)))
    with fs.open("/main.py", "rb") as f, open(os.path.join(bundle, "main.py"), "rb") as g:
        assert f.read() == g.read()
    fw.write_bytes(synthetic_firmware(addr=uf2.FS_ADDR, size=4096))        # a firmware over the filesystem
    with pytest.raises(deploy.BuildError, match="outside"):
        deploy.make_uf2(out=str(tmp_path / "two.uf2"), firmware=str(fw), bundle=bundle, quiet=True)
    assert not os.path.exists(tmp_path / "two.uf2")


def test_the_firmware_comes_from_the_path_or_the_variable_and_a_bad_one_is_refused(monkeypatch, tmp_path, firmware):
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "cache"))
    mine = tmp_path / "mine.uf2"
    mine.write_bytes(firmware)
    assert deploy.firmware_uf2(str(mine), offline=True) == str(mine)
    monkeypatch.setenv("OSADA_FIRMWARE_UF2", str(mine))
    assert deploy.firmware_uf2(offline=True) == str(mine)
    monkeypatch.delenv("OSADA_FIRMWARE_UF2")
    with pytest.raises(deploy.BuildError, match="RPI_PICO-20260406-v1.28.0.uf2"):
        deploy.firmware_uf2(offline=True)                  # none at hand: where to get it, how to pass it
    bad = tmp_path / "bad.uf2"
    bad.write_bytes(b"<html>not found</html>")
    with pytest.raises(deploy.BuildError, match="bad.uf2"):
        deploy.firmware_uf2(str(bad), offline=True)
