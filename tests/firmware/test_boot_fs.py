"""Osada's frozen _boot.py (firmware/frozen/_boot.py, in Osada's MicroPython
image) and the app's boot event after a lost filesystem (issue 19 item 2),
on CPython: the rp2 modules it uses are stand-ins that record what it did.
The real thing on the emulated Pico: tests/pico/test_osada_image.py."""

import os
import sys
import types

import pytest
from test_app import Dev

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
BOOT_PY = os.path.join(ROOT, "firmware", "frozen", "_boot.py")


class Flash:
    """rp2.Flash: readblocks from `image` (bytes of 4096-byte blocks)."""
    image = b"\xff" * 8192

    def readblocks(self, n, buf):
        buf[:] = Flash.image[n * 4096:n * 4096 + len(buf)]


class Lfs:
    """vfs.VfsLfs2 over a pretend flash: mounts when `formatted`."""
    log = []
    formatted = True
    formattable = True

    def __init__(self, bdev, progsize):
        Lfs.log.append(("open", progsize))
        if not Lfs.formatted:
            raise OSError(19, "ENODEV")

    @staticmethod
    def mkfs(bdev, progsize):
        Lfs.log.append(("mkfs", progsize))
        if not Lfs.formattable:
            raise OSError(5, "EIO")
        Lfs.formatted = True


@pytest.fixture
def rp2_modules(monkeypatch):
    Lfs.log = []
    mounted = []
    vfs = types.ModuleType("vfs")
    vfs.VfsLfs2 = Lfs
    vfs.mount = lambda fs, where: mounted.append((fs, where))
    rp2 = types.ModuleType("rp2")
    rp2.Flash = Flash
    for name, mod in (("vfs", vfs), ("rp2", rp2), ("machine", types.ModuleType("machine"))):
        monkeypatch.setitem(sys.modules, name, mod)
    return mounted


def run_boot_py():
    """_boot.py as the firmware runs it: in __main__'s globals, which main.py then shares."""
    g = {"__name__": "__main__"}
    with open(BOOT_PY) as f:
        exec(compile(f.read(), BOOT_PY, "exec"), g)
    return g


def test_a_mountable_filesystem_is_mounted_and_nothing_is_marked(rp2_modules):
    Lfs.formatted, Lfs.formattable = True, True
    g = run_boot_py()
    assert Lfs.log == [("open", 256)]
    assert [w for _fs, w in rp2_modules] == ["/"]
    assert "osada_fs_lost" not in g
    # it cleans up after itself as the port's _boot.py does (the REPL keeps machine and rp2)
    assert not {"vfs", "bdev", "fs"} & set(g) and {"machine", "rp2"} <= set(g)


def test_an_unmountable_filesystem_is_formatted_mounted_and_marked(rp2_modules):
    Lfs.formatted, Lfs.formattable = False, True
    Flash.image = b"\0" * 8192                        # both superblocks zeroed
    g = run_boot_py()
    assert Lfs.log == [("open", 256), ("mkfs", 256), ("open", 256)]
    assert [w for _fs, w in rp2_modules] == ["/"]
    assert "formatted" in g["osada_fs_lost"] and g["osada_fs_new"] is False
    assert "head" not in g


@pytest.mark.parametrize("block", [0, 1])
def test_one_damaged_superblock_is_a_lost_filesystem_not_a_new_board(rp2_modules, block):
    Lfs.formatted, Lfs.formattable = False, True
    img = bytearray(b"\xff" * 8192)
    img[block * 4096 + 10] = 0x00
    Flash.image = bytes(img)
    g = run_boot_py()
    assert "osada_fs_lost" in g and g["osada_fs_new"] is False


def test_a_blank_flash_is_formatted_as_a_new_board_nothing_lost(rp2_modules):
    Lfs.formatted, Lfs.formattable = False, True
    Flash.image = b"\xff" * 8192
    g = run_boot_py()
    assert Lfs.log == [("open", 256), ("mkfs", 256), ("open", 256)]
    assert [w for _fs, w in rp2_modules] == ["/"]
    assert g["osada_fs_new"] is True and "osada_fs_lost" not in g


def test_a_flash_that_cannot_be_formatted_leaves_no_filesystem_and_says_so(rp2_modules, capsys):
    Lfs.formatted, Lfs.formattable = False, False
    Flash.image = b"\xff" * 8192
    g = run_boot_py()
    assert rp2_modules == []                         # nothing mounted, and no exception out of _boot.py
    assert "nor formatted" in g["osada_fs_lost"] and "EIO" in g["osada_fs_lost"]
    assert "osada: the filesystem could not be read nor formatted" in capsys.readouterr().out


def test_the_boot_event_says_the_filesystem_was_lost(tmp_path):
    dev = Dev(tmp_path, boot=False)
    dev.app.boot("the filesystem could not be read and was formatted")
    dev.tick()
    boot = dev.take()[0]
    assert boot["ev"] == "boot" and boot["restored"] is False
    assert boot["lost"].startswith("the filesystem could not be read and was formatted: config.json")
    assert "default config" in boot["lost"]
    # and the game goes on: an action is accepted and saved
    reply, _ = dev.ok("act", action={"do": "move"})
    assert reply["seq"] == 1


def test_a_boot_without_a_lost_filesystem_says_nothing_lost(tmp_path):
    boot = Dev(tmp_path).boot_msgs[0]
    assert boot["ev"] == "boot" and "lost" not in boot and "fs" not in boot
    dev = Dev(tmp_path / "new", boot=False)
    dev.app.boot(None, True)
    dev.tick()
    boot = dev.take()[0]
    assert boot["fs"] == "new" and "lost" not in boot
