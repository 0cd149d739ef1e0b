"""The one-file install and Osada's own firmware image on the emulated Pico
(issue 19 item 2, issue 12 item 1).

build/osada-pico.uf2 is a firmware UF2 plus the app's ROMFS image at
0x10070000 (osada/uf2.py).  With MicroPython's ROMFS build as the firmware it
boots the game once make flash has put main.py and config.json on the
filesystem.  With Osada's image (main.py and _boot.py frozen in) it boots the
game on a blank or wiped filesystem too; those tests need the image:
firmware/micropython/osada-micropython-1.28.0-rpi_pico.uf2, or one you built
given as $OSADA_FIRMWARE_UF2 (firmware/micropython/README.md), and are
skipped without it."""

import json

import pytest
from pico_support import IDLE_HIGH, PINS, boot_fs, connect, osada_image, write_fs

from osada import deploy, uf2
from osada import pico_emu as pe

T = 30.0
SETUP = {"players": 2, "mode": "standard", "variants": [], "seed": 1}
NO_APP = b"osada: the app is not installed on this board"
RED_RING = bytes((0, 24, 0)) * 24               # GRB: every LED of the ring dim red


@pytest.fixture(scope="module")
def osada_fw():
    path = osada_image()
    if path is None:
        pytest.skip("Osada's firmware image is not in firmware/micropython/ (nor given as $%s)"
                    % deploy.FIRMWARE_ENV)
    return path


def one_uf2(bundle, tmp_path_factory, firmware):
    out = str(tmp_path_factory.mktemp("uf2") / "osada-pico.uf2")
    return deploy.make_uf2(out=out, firmware=firmware, romfs=bundle[1], quiet=True)


def boot_event(pico):
    return next(json.loads(line) for line in bytes(pico.text).splitlines() if b'"ev": "boot"' in line)


def repl_answers(pico):
    pico.write_serial(b"\r\nprint(6 * 7)\r\n")
    pico.wait_text(b"\r\n42\r\n", timeout=60)


def plays(pico):
    link = connect(pico)
    assert link.request("new", timeout=T, **SETUP)["ok"]
    r = link.request("act", timeout=T, action={"do": "move"})
    assert r["ok"] and r["seq"] == 1


# ------------------------------------------- MicroPython's ROMFS build as firmware

def test_the_one_file_install_puts_the_app_where_the_romfs_firmware_finds_it(bundle, tmp_path_factory):
    """MicroPython's ROMFS build + the app image in one UF2, and the filesystem
    make flash leaves after it (main.py, config.json, no code): the game runs
    from the ROMFS blocks the UF2 carried."""
    folder, _romfs = bundle
    fs = write_fs(tmp_path_factory, pe.flash_files(folder, with_code=False))
    pico = pe.EmulatedPico(uf2=one_uf2(bundle, tmp_path_factory, pe.uf2_path(uf2.UF2_ROMFS)), fs=fs,
                           high=IDLE_HIGH)
    try:
        pico.wait_text(b'"ev": "boot"', timeout=60)
        assert boot_event(pico)["restored"] is False and "lost" not in boot_event(pico)
        plays(pico)
    finally:
        pico.stop()


def test_without_the_app_main_py_says_so_lights_the_ring_and_keeps_the_repl(bundle, tmp_path_factory):
    """main.py and config.json on the filesystem, no ROMFS image (MicroPython's
    ROMFS build, nothing deployed into it)."""
    folder, _romfs = bundle
    fs = write_fs(tmp_path_factory, pe.flash_files(folder, with_code=False))
    pico = pe.EmulatedPico(uf2=pe.uf2_path(uf2.UF2_ROMFS), fs=fs, high=IDLE_HIGH)
    try:
        pico.wait_text(b"REPL kept.", timeout=60)
        assert NO_APP in pico.text and b"run make flash" in pico.text
        repl_answers(pico)
        assert pico.frames and pico.frames[-1][1] == RED_RING
        assert b'"ev": "boot"' not in pico.text
    finally:
        pico.stop()


# ------------------------------------------------------------ Osada's image

def test_one_uf2_on_a_blank_board_starts_the_game(bundle, tmp_path_factory, osada_fw):
    """Drag one file onto RPI-RP2 of a new board: blank flash, no main.py, no
    config.json anywhere.  The frozen _boot.py formats the filesystem, says
    it was a new one (nothing lost), and the frozen main.py starts the game
    with the built-in default config."""
    pico = pe.EmulatedPico(uf2=one_uf2(bundle, tmp_path_factory, osada_fw), high=IDLE_HIGH)
    try:
        pico.wait_text(b'"ev": "boot"', timeout=60)
        ev = boot_event(pico)
        assert ev["fs"] == "new" and ev["restored"] is False and "lost" not in ev
        # the format: littlefs's two superblock sectors at the filesystem's start
        assert [op for op in pico.flash_ops[:4] if op[0] == "erase"] == [("erase", pe.FS_OFFSET, 4096),
                                                                         ("erase", pe.FS_OFFSET + 4096, 4096)]
        plays(pico)
        # the default config's ring: 24 LEDs, no city (firmware/osada_fw/config.py)
        assert pico.frames and len(pico.frames[-1][1]) == 24 * 3
    finally:
        pico.stop()


def test_back_held_at_power_on_gives_the_repl_on_osadas_image(bundle, tmp_path_factory, osada_fw):
    high = [p for p in IDLE_HIGH if p != PINS["back"]]
    pico = pe.EmulatedPico(uf2=one_uf2(bundle, tmp_path_factory, osada_fw), high=high, low=(PINS["back"],))
    try:
        pico.wait_text(b"BACK held at boot: app not started, REPL kept", timeout=60)
        repl_answers(pico)
        assert b'"ev": "boot"' not in pico.text
        # the REPL's filesystem is the one the frozen _boot.py formatted and mounted
        pico.write_serial(b"import os; print(os.listdir('/'), 'rom' in os.listdir('/'))\r\n")
        pico.wait_text(b"True\r\n", timeout=60)
    finally:
        pico.stop()


def test_action_held_at_power_on_runs_the_selftest_on_osadas_image(bundle, tmp_path_factory, osada_fw):
    high = [p for p in IDLE_HIGH if p != PINS["action"]]
    pico = pe.EmulatedPico(uf2=one_uf2(bundle, tmp_path_factory, osada_fw), high=high, low=(PINS["action"],))
    try:
        pico.wait_text(b'"ev": "selftest"', timeout=60)
    finally:
        pico.stop()


def test_osadas_image_without_the_app_says_so_and_keeps_the_repl(bundle, tmp_path_factory, osada_fw):
    """The firmware alone (its own UF2, not the one-file install) on a board
    whose filesystem has config.json but nothing in ROMFS."""
    fs = write_fs(tmp_path_factory, {"/config.json": pe.flash_files(bundle[0], with_code=False)["/config.json"]})
    pico = pe.EmulatedPico(uf2=osada_fw, fs=fs, high=IDLE_HIGH)
    try:
        pico.wait_text(NO_APP, timeout=60)
        repl_answers(pico)
        assert pico.frames and pico.frames[-1][1] == RED_RING
    finally:
        pico.stop()


def test_the_frozen_main_py_runs_before_an_old_one_on_the_filesystem(bundle, tmp_path_factory, osada_fw):
    folder, _romfs = bundle
    files = pe.flash_files(folder, with_code=False)
    files["/main.py"] = b"print('osada: an old main.py ran')\n"
    fs = write_fs(tmp_path_factory, files)
    pico = boot_fs(bundle, fs, uf2=osada_fw)
    try:
        assert b"an old main.py ran" not in pico.text and "lost" not in boot_event(pico)
    finally:
        pico.stop()
